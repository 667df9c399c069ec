/**
 * GET /v1/dashboard: its series are what grouping the rows by UTC day gives (kept by migration
 * 043's triggers, not counted per read), its "needs attention" lists name the records to open,
 * and each role sees only the parts its abilities read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dashboardSchema, type Dashboard } from '../contract/dashboard';
import { assetSchema, type Asset } from '../contract/schemas';
import { newId } from './ids';
import { dataOf, uniqueEmail, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);
const DAY = 24 * 3600 * 1000;

/** Migration 043's backfill: its last DO block that counts in batches. */
const BACKFILL = (() => {
  const sql = readFileSync(join(import.meta.dirname, 'migrations/043_daily_counts.sql'), 'utf8');
  const start = sql.indexOf('DO $$', sql.indexOf('-- The backfill'));
  return sql.slice(start, sql.indexOf('END $$;', start) + 'END $$;'.length);
})();

async function dashboard(token = tokens.admin): Promise<Dashboard> {
  const answer = await t.get('/v1/dashboard', token);
  expect(answer.status).toBe(200);
  return dashboardSchema.parse(dataOf(answer));
}

async function newAsset(name: string, type: string): Promise<Asset> {
  const answer = await t.post('/v1/assets', { name, type, gender: 'male' }, tokens.admin);
  expect(answer.status).toBe(200);
  return assetSchema.parse(dataOf(answer));
}

/** Moves the clock `days` on, signing the roles in again (their tokens would have expired). */
async function advanceDays(days: number) {
  t.advance(days * DAY);
  tokens.admin = (await t.loginAs('admin')).token;
  tokens.developer = (await t.loginAs('developer')).token;
  tokens.user = (await t.loginAs('user')).token;
  tokens.anonymous = (await t.signUpAnonymous()).token;
}

const today = () => t.clock.current.toISOString().slice(0, 10);

/** The day's entry of a daily series. */
function onDay<T extends { day: string }>(series: T[] | undefined, day: string): T {
  const entry = series?.find((row) => row.day === day);
  if (!entry) throw new Error(`no ${day} in the series`);
  return entry;
}

/** What grouping the assets gives for the weeks the dashboard shows. */
async function countedWeeks(weeks: string[]) {
  const { rows } = await t.db.query<{ week: string; type: string; n: number }>(
    `SELECT to_char(date_trunc('week', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week,
       type, count(*)::int AS n FROM assets GROUP BY 1, 2`,
  );
  return weeks.map((week) =>
    Object.fromEntries(rows.filter((row) => row.week === week).map((row) => [row.type, row.n])),
  );
}

describe('the dashboard', () => {
  it('counts assets per week of creation by type, as grouping the assets there now gives', async () => {
    // 2030-01-01 is a Tuesday: its week starts on Monday 2029-12-31.
    const first = await newAsset('Dashboard hair one', 'hair');
    await newAsset('Dashboard hair two', 'hair');
    await advanceDays(8);
    await newAsset('Dashboard top', 'top');
    // A change of type moves the asset to the other type's count of its week; a delete takes it out.
    expect((await t.patch(`/v1/assets/${first.id}`, { type: 'top' }, tokens.admin)).status).toBe(
      200,
    );
    const third = await newAsset('Dashboard deleted', 'beard');
    expect(
      (await t.request('DELETE', `/v1/assets/${third.id}`, { token: tokens.admin })).status,
    ).toBe(200);

    const { assetsPerWeek } = await dashboard();
    expect(assetsPerWeek?.weeks).toHaveLength(12);
    const weeks = assetsPerWeek!.weeks.map((row) => row.week);
    expect(weeks.at(-1)).toBe('2030-01-07');
    expect(weeks.at(-2)).toBe('2029-12-31');
    expect(weeks[0]).toBe('2029-10-22');
    const counted = await countedWeeks(weeks);
    // Every week and type as counted (types without assets in a week count 0).
    assetsPerWeek!.weeks.forEach((row, i) => {
      const nonZero = Object.fromEntries(Object.entries(row.counts).filter(([, n]) => n !== 0));
      expect(nonZero).toEqual(counted[i]);
    });
    const lastTwo = assetsPerWeek!.weeks.slice(-2).map((row) => row.counts);
    expect(lastTwo[0]!.top).toBeGreaterThanOrEqual(1);
    expect(lastTwo[1]).toMatchObject({ top: 1 });
    expect(lastTwo[1]!.beard ?? 0).toBe(0);
    expect(assetsPerWeek!.types).toEqual(expect.arrayContaining(['hair', 'top']));
  });

  it('counts sign-ups per day, registered and guests, and a guest who registers moves', async () => {
    await advanceDays(3);
    const before = onDay((await dashboard()).signupsPerDay, today());
    await t.signUp(uniqueEmail('dash'));
    const guest = await t.signUpAnonymous();
    await t.signUpAnonymous();
    let now = onDay((await dashboard()).signupsPerDay, today());
    expect(now).toEqual({
      day: today(),
      registered: before.registered + 1,
      guests: before.guests + 2,
    });
    await t.db.query(`UPDATE users SET role = 'user' WHERE id = $1`, [guest._id]);
    now = onDay((await dashboard()).signupsPerDay, today());
    expect(now).toEqual({
      day: today(),
      registered: before.registered + 2,
      guests: before.guests + 1,
    });
    const series = (await dashboard()).signupsPerDay!;
    expect(series).toHaveLength(30);
    expect(series.at(-1)!.day).toBe(today());
  });

  it('counts morph jobs per day requested with their failures, and lists the latest failed', async () => {
    await advanceDays(1);
    const source = await newAsset('Dashboard morph source', 'outfit');
    const body = await newAsset('Dashboard morph body', 'body');
    const yesterday = new Date(t.clock.current.getTime() - DAY);
    const job = async (status: string, at: Date, error: string | null = null) => {
      const id = newId();
      await t.db.query(
        `INSERT INTO morph_queue (id, source_asset_id, body_asset_id, status, error, created_at,
           updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [id, source.id, body.id, status, error, at],
      );
      return id;
    };
    const before = await dashboard();
    await job('completed', yesterday);
    const failing = await job('processing', yesterday);
    await job('queued', t.clock.current);
    // Progress reports change nothing counted; the failure does.
    await t.db.query(`UPDATE morph_queue SET progress = 50 WHERE id = $1`, [failing]);
    await t.db.query(
      `UPDATE morph_queue SET status = 'failed', error = 'No cage mesh', updated_at = $2
       WHERE id = $1`,
      [failing, t.clock.current],
    );
    const after = await dashboard();
    const day = (d: Dashboard, at: Date) => onDay(d.morphsPerDay, at.toISOString().slice(0, 10));
    expect(day(after, yesterday)).toEqual({
      ...day(before, yesterday),
      requested: day(before, yesterday).requested + 2,
      failed: day(before, yesterday).failed + 1,
    });
    expect(day(after, t.clock.current).requested).toBe(day(before, t.clock.current).requested + 1);
    const failed = after.attention.failedMorphs!;
    expect(failed.count).toBe(before.attention.failedMorphs!.count + 1);
    expect(failed.items[0]).toEqual({
      id: failing,
      sourceName: 'Dashboard morph source',
      bodyName: 'Dashboard morph body',
      error: 'No cage mesh',
      at: t.clock.current.toISOString(),
    });
  });

  it('adds up model bytes uploaded and delivered per day settled, storage, and failed deliveries', async () => {
    await advanceDays(1);
    const before = await dashboard();
    const asset = await newAsset('Dashboard model', 'outfit');
    const [ready, original, failing] = ['a', 'b', 'c'].map(() => `${newId()}.glb`) as [
      string,
      string,
      string,
    ];
    const keys = [ready, original, failing];
    for (const [i, key] of keys.entries()) {
      await t.db.query(
        `INSERT INTO stored_files (key, original_name, size, content_type, created_at)
         VALUES ($1, 'model.glb', $2, 'model/gltf-binary', $3)`,
        [key, 1000 * (i + 1), t.clock.current],
      );
      await t.db.query(
        `INSERT INTO model_deliveries (model_key, status, original_size, updated_at)
         VALUES ($1, 'pending', $2, $3)`,
        [key, 1000 * (i + 1), t.clock.current],
      );
    }
    await t.db.query(`UPDATE assets SET model_url = $2 WHERE id = $1`, [
      asset.id,
      `/files/${failing}`,
    ]);
    // Pending rows count nothing yet.
    expect((await dashboard()).deliveryBytes).toEqual(before.deliveryBytes);
    await t.db.query(
      `UPDATE model_deliveries SET status = 'ready', delivery_url = '/files/x.glb',
         delivery_size = 400, updated_at = $2 WHERE model_key = $1`,
      [ready, t.clock.current],
    );
    await t.db.query(
      `UPDATE model_deliveries SET status = 'original', reason = 'small', updated_at = $2
       WHERE model_key = $1`,
      [original, t.clock.current],
    );
    await t.db.query(
      `UPDATE model_deliveries SET status = 'failed', reason = 'Broken mesh', updated_at = $2
       WHERE model_key = $1`,
      [failing, t.clock.current],
    );
    const after = await dashboard();
    expect(onDay(after.deliveryBytes?.days, today())).toEqual({
      day: today(),
      uploaded: onDay(before.deliveryBytes?.days, today()).uploaded + 6000,
      delivered: onDay(before.deliveryBytes?.days, today()).delivered + 400 + 2000 + 3000,
    });
    expect(after.deliveryBytes!.uploaded).toBe(before.deliveryBytes!.uploaded + 6000);
    expect(after.deliveryBytes!.delivered).toBe(before.deliveryBytes!.delivered + 5400);
    expect(after.storage).toEqual({
      bytes: before.storage!.bytes + 6000,
      files: before.storage!.files + 3,
    });
    const failed = after.attention.failedDeliveries!;
    expect(failed.count).toBe(before.attention.failedDeliveries!.count + 1);
    expect(failed.items[0]).toEqual({
      key: failing,
      reason: 'Broken mesh',
      at: t.clock.current.toISOString(),
      record: { kind: 'asset', id: asset.id, name: 'Dashboard model' },
    });
    // A file swept goes out of the storage used.
    await t.db.query(`DELETE FROM stored_files WHERE key = $1`, [ready]);
    expect((await dashboard()).storage).toEqual({
      bytes: before.storage!.bytes + 5000,
      files: before.storage!.files + 2,
    });
  });

  it('lists pending invitations that expire within two days, the soonest first', async () => {
    const email = uniqueEmail('dash-invite');
    const invited = await t.post('/private/v1/invitations', { email, role: 'user' }, tokens.admin);
    expect(invited.status).toBe(201);
    const mine = (d: Dashboard) =>
      d.attention.expiringInvitations!.items.filter((item) => item.email === email);
    // Sent now, it expires in seven days: not yet.
    expect(mine(await dashboard())).toEqual([]);
    await advanceDays(5.5);
    const soon = await dashboard();
    expect(mine(soon)).toHaveLength(1);
    expect(soon.attention.expiringInvitations!.count).toBeGreaterThanOrEqual(1);
    await advanceDays(2);
    expect(mine(await dashboard())).toEqual([]);
  });

  it('counts, on migrating, the rows there before once, with the writes made meanwhile', async () => {
    const grouped = async () =>
      (
        await t.db.query<{ day: string; key: string; n: number }>(
          `SELECT utc_day(created_at)::text AS day, type AS key, count(*)::int AS n FROM assets
           GROUP BY 1, 2 ORDER BY 1, 2`,
        )
      ).rows;
    const kept = async () =>
      (
        await t.db.query<{ day: string; key: string; n: number }>(
          `SELECT day::text, key, sum(n)::int AS n FROM daily_counts WHERE metric = 'assets'
           GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`,
        )
      ).rows;
    const [hair, top] = [
      await newAsset('Backfill hair', 'hair'),
      await newAsset('Backfill top', 'top'),
    ];
    // As the migration meets a table half counted: the keys up to the mark are, the rest not yet.
    const { rows } = await t.db.query<{ id: string }>(
      `SELECT id FROM assets ORDER BY id OFFSET (SELECT count(*) / 2 FROM assets) LIMIT 1`,
    );
    const mark = rows[0]!.id;
    await t.db.query(`DELETE FROM daily_counts WHERE metric = 'assets'`);
    await t.db.query(
      `INSERT INTO daily_counts (metric, day, key, stripe, n)
       SELECT 'assets', utc_day(created_at), type, 0, count(*) FROM assets WHERE id <= $1
       GROUP BY 2, 3`,
      [mark],
    );
    await t.db.query(`INSERT INTO daily_counts_backfill (tbl, done_to) VALUES ('assets', $1)`, [
      mark,
    ]);
    // Writes meanwhile, on both sides of the mark: created, changed, deleted.
    await newAsset('Backfill meanwhile one', 'beard');
    await newAsset('Backfill meanwhile two', 'beard');
    expect((await t.patch(`/v1/assets/${hair.id}`, { type: 'glasses' }, tokens.admin)).status).toBe(
      200,
    );
    expect(
      (await t.request('DELETE', `/v1/assets/${top.id}`, { token: tokens.admin })).status,
    ).toBe(200);
    expect(await kept()).not.toEqual(await grouped());

    await t.db.exec(BACKFILL);
    expect(await kept()).toEqual(await grouped());
    const left = await t.db.query(`SELECT * FROM daily_counts_backfill`);
    expect(left.rows).toEqual([]);
    // Done: every change counts at once again.
    await newAsset('Backfill after', 'beard');
    expect(await kept()).toEqual(await grouped());
  });

  it('shows each role only the parts its abilities read', async () => {
    const parts = (d: Dashboard) => ({
      series: Object.keys(d)
        .filter((key) => !['today', 'attention'].includes(key))
        .sort(),
      attention: Object.keys(d.attention).sort(),
    });
    expect(parts(await dashboard(tokens.admin))).toEqual({
      series: ['assetsPerWeek', 'deliveryBytes', 'morphsPerDay', 'signupsPerDay', 'storage'],
      attention: ['expiringInvitations', 'failedDeliveries', 'failedMorphs'],
    });
    expect(parts(await dashboard(tokens.developer))).toEqual({
      series: ['assetsPerWeek', 'deliveryBytes', 'morphsPerDay', 'signupsPerDay', 'storage'],
      attention: ['failedDeliveries', 'failedMorphs'],
    });
    expect(parts(await dashboard(tokens.user))).toEqual({
      series: ['assetsPerWeek'],
      attention: [],
    });
    expect(parts(await dashboard(tokens.anonymous))).toEqual({
      series: ['assetsPerWeek'],
      attention: [],
    });
    expect((await t.get('/v1/dashboard')).status).toBe(401);
  });
});

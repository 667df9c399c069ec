/**
 * Bulk jobs over a list filter (POST /v1/bulk-jobs and the worker): the rows the list shows
 * change, each once, with their events, in batches that survive a worker's death.
 */
import { createMongoAbility } from '@casl/ability';
import { describe, expect, it } from 'vitest';
import type { AppAbility } from '../contract/ability';
import { MB } from '../core/files/rules';
import { bulkJobSchema, type BulkJob } from '../contract/bulk-jobs';
import { assetSchema, tagRowSchema, type Asset } from '../contract/schemas';
import { BULK_MAX_ACTIVE_PER_USER } from './bulk-jobs';
import { BULK_LEASE_MS, startBulkWorker, type BulkWorkerOptions } from './bulk-job-worker';
import { openEventStream } from './event-stream';
import { latestEventSeq } from './events';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

/** A worker of this app's database and clock, run by hand (small batches: a few rows each). */
const worker = (options: BulkWorkerOptions = {}) =>
  startBulkWorker(
    {
      db: t.db,
      now: () => new Date(t.clock.current),
      trashRetentionDays: 30,
      requireAdminSecondFactor: false,
    },
    { concurrency: 0, batchSize: 3, ...options },
  );

let prefixes = 0;
/** Assets named `<prefix> <n>` (a search for the prefix matches them alone). */
async function newAssets(
  count: number,
  token = tokens.admin,
): Promise<{ prefix: string; assets: Asset[] }> {
  prefixes += 1;
  const prefix = `Bulkjob${prefixes}x${process.pid}`;
  const assets: Asset[] = [];
  for (let i = 0; i < count; i += 1) {
    assets.push(
      assetSchema.parse(
        dataOf(
          await t.post(
            '/v1/assets',
            { name: `${prefix} ${i}`, type: 'hair', gender: 'male' },
            token,
          ),
        ),
      ),
    );
  }
  return { prefix, assets };
}

const createJob = async (body: unknown, token = tokens.admin) =>
  bulkJobSchema.parse(dataOf(await t.post('/v1/bulk-jobs', body, token)));

const readJob = async (id: string, token = tokens.admin) =>
  bulkJobSchema.parse(dataOf(await t.get(`/v1/bulk-jobs/${id}`, token)));

/** Events recorded for job `id`'s rows, by routing key. */
async function eventsOf(job: BulkJob): Promise<Record<string, number>> {
  const { rows } = await t.db.query<{ routing_key: string; n: number }>(
    `SELECT routing_key, count(*)::int AS n FROM asset_events WHERE data->>'bulkJobId' = $1
     GROUP BY routing_key`,
    [job.id],
  );
  return Object.fromEntries(rows.map((row) => [row.routing_key, row.n]));
}

/** Events per asset of job `id` (every changed row once). */
async function eventsPerAsset(job: BulkJob, routingKey: string): Promise<Record<string, number>> {
  const { rows } = await t.db.query<{ asset_id: string; n: number }>(
    `SELECT asset_id, count(*)::int AS n FROM asset_events
     WHERE data->>'bulkJobId' = $1 AND routing_key = $2 GROUP BY asset_id`,
    [job.id, routingKey],
  );
  return Object.fromEntries(rows.map((row) => [row.asset_id, row.n]));
}

async function lockedOf(ids: readonly string[]): Promise<Record<string, boolean>> {
  const { rows } = await t.db.query<{ id: string; locked: boolean }>(
    'SELECT id, locked FROM assets WHERE id = ANY($1::text[])',
    [ids],
  );
  return Object.fromEntries(rows.map((row) => [row.id, row.locked]));
}

const lock = async (id: string) =>
  dataOf(await t.request('PUT', `/v1/assets/${id}/lock`, { body: {}, token: tokens.admin }));

/** Runs queued jobs to their end. */
async function drain(options: BulkWorkerOptions = {}) {
  const w = worker(options);
  while (await w.runOnce());
}

describe('a bulk job over a filter', () => {
  it('locks exactly the assets the list filter matches, records one locked event per changed asset, and counts', async () => {
    const { prefix, assets } = await newAssets(7);
    const other = await newAssets(1);
    await lock(assets[2]!.id);
    const job = await createJob({ action: 'lock', filter: { search: prefix } });
    expect(job).toMatchObject({ state: 'queued', total: 7, totalIsEstimate: false, done: 0 });
    await drain();
    expect(await readJob(job.id)).toMatchObject({ state: 'done', done: 7, changed: 6, skipped: 0 });
    const locked = await lockedOf([...assets, ...other.assets].map((a) => a.id));
    expect(assets.every((a) => locked[a.id])).toBe(true);
    expect(locked[other.assets[0]!.id]).toBe(false);
    // The one that was locked already records nothing, the others one event each.
    expect(await eventsOf(job)).toEqual({ 'asset.locked.v1': 6 });
    const perAsset = await eventsPerAsset(job, 'asset.locked.v1');
    expect(Object.keys(perAsset).sort()).toEqual(
      assets
        .filter((_, i) => i !== 2)
        .map((a) => a.id)
        .sort(),
    );
    // The changelog of each asset shows it as the single lock does.
    const log = dataOf(
      await t.get(`/v1/assets/${assets[0]!.id}/backoffice-changelog`, tokens.admin),
    );
    expect((log as { routingKey: string; data: object }[])[0]).toMatchObject({
      routingKey: 'asset.locked.v1',
      data: { locked: true, bulkJobId: job.id },
    });
  });

  it('resumes after a worker died half-way (mid-batch or after one) and applies nothing twice', async () => {
    const { prefix, assets } = await newAssets(8);
    const job = await createJob({ action: 'lock', filter: { search: prefix } });
    // The first worker commits one batch of 3 and dies holding the lease.
    await worker().runOnce({ maxBatches: 1 });
    expect(await readJob(job.id)).toMatchObject({ state: 'running', done: 3, changed: 3 });
    // Its lease still holds: nobody takes the job over yet.
    expect(await worker().runOnce()).toBe(false);
    t.clock.current = new Date(t.clock.current.getTime() + BULK_LEASE_MS + 1000);
    // The second dies inside its first batch, before the commit: that batch leaves no trace.
    await expect(
      worker({
        beforeCommit: () => {
          throw new Error('killed');
        },
        onError: () => {},
      }).runOnce(),
    ).resolves.toBe(true);
    expect(await readJob(job.id)).toMatchObject({ done: 3, changed: 3 });
    expect(await eventsOf(job)).toEqual({ 'asset.locked.v1': 3 });
    t.clock.current = new Date(t.clock.current.getTime() + BULK_LEASE_MS + 1000);
    await drain();
    expect(await readJob(job.id)).toMatchObject({ state: 'done', done: 8, changed: 8 });
    const perAsset = await eventsPerAsset(job, 'asset.locked.v1');
    expect(Object.keys(perAsset).sort()).toEqual(assets.map((a) => a.id).sort());
    expect(Object.values(perAsset).every((n) => n === 1)).toBe(true);
  });

  it('stops when cancelled: the batches done stay, no more are run', async () => {
    const { prefix, assets } = await newAssets(7);
    const job = await createJob({ action: 'lock', filter: { search: prefix } });
    await worker().runOnce({ maxBatches: 1 });
    const cancelled = bulkJobSchema.parse(
      dataOf(await t.post(`/v1/bulk-jobs/${job.id}/cancel`, {}, tokens.admin)),
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', done: 3 });
    t.clock.current = new Date(t.clock.current.getTime() + BULK_LEASE_MS + 1000);
    expect(await worker().runOnce()).toBe(false);
    const locked = await lockedOf(assets.map((a) => a.id));
    expect(Object.values(locked).filter(Boolean)).toHaveLength(3);
    expect(await readJob(job.id)).toMatchObject({ state: 'cancelled', done: 3, changed: 3 });
    // Cancelling again changes nothing.
    expect(
      bulkJobSchema.parse(dataOf(await t.post(`/v1/bulk-jobs/${job.id}/cancel`, {}, tokens.admin))),
    ).toMatchObject({ state: 'cancelled', done: 3 });
  });

  it('tags the unlocked assets, skips the locked ones and says how many', async () => {
    const { prefix, assets } = await newAssets(5);
    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: `${prefix} tag` }, tokens.admin)),
    );
    await lock(assets[1]!.id);
    await lock(assets[4]!.id);
    const job = await createJob({ action: 'setTag', tagId: tag.id, filter: { search: prefix } });
    await drain();
    expect(await readJob(job.id)).toMatchObject({ state: 'done', done: 5, changed: 3, skipped: 2 });
    const { rows } = await t.db.query<{ asset_id: string }>(
      'SELECT asset_id FROM asset_tags WHERE tag_id = $1 ORDER BY asset_id',
      [tag.id],
    );
    expect(rows.map((row) => row.asset_id)).toEqual(
      [assets[0]!, assets[2]!, assets[3]!].map((a) => a.id).sort(),
    );
    expect(await eventsOf(job)).toEqual({ 'asset.updated.v1': 3, 'asset.updated.v2': 3 });
    // Untagging by the tag's own filter: the list of the tag's assets.
    const untag = await createJob({
      action: 'removeTag',
      tagId: tag.id,
      filter: { tagId: tag.id },
    });
    expect(untag.total).toBe(3);
    await drain();
    expect(await readJob(untag.id)).toMatchObject({ state: 'done', changed: 3, skipped: 0 });
    expect((await t.db.query('SELECT 1 FROM asset_tags WHERE tag_id = $1', [tag.id])).rows).toEqual(
      [],
    );
  });

  it('fails, saying why, when its tag is deleted while it runs; the batches done stay', async () => {
    const { prefix } = await newAssets(5);
    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: `${prefix} gone` }, tokens.admin)),
    );
    const job = await createJob({ action: 'setTag', tagId: tag.id, filter: { search: prefix } });
    await worker().runOnce({ maxBatches: 1 });
    dataOf(await t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.admin }));
    t.clock.current = new Date(t.clock.current.getTime() + BULK_LEASE_MS + 1000);
    await drain();
    expect(await readJob(job.id)).toMatchObject({
      state: 'failed',
      done: 3,
      changed: 3,
      error: 'The tag was deleted while the job ran',
    });
  });

  it('deletes the matching unlocked assets to the Trash, and a restore job over the Trash brings them back', async () => {
    const { prefix, assets } = await newAssets(5);
    await lock(assets[0]!.id);
    const job = await createJob({ action: 'delete', filter: { search: prefix } });
    await drain();
    expect(await readJob(job.id)).toMatchObject({ state: 'done', changed: 4, skipped: 1 });
    expect(await eventsOf(job)).toEqual({ 'asset.deleted.v1': 4 });
    expect(Object.keys(await lockedOf(assets.map((a) => a.id)))).toEqual([assets[0]!.id]);
    const restore = await createJob({ action: 'restore', filter: { search: prefix } });
    expect(restore).toMatchObject({ list: 'trash', total: 4 });
    await drain();
    expect(await readJob(restore.id)).toMatchObject({ state: 'done', changed: 4, skipped: 0 });
    expect(await eventsOf(restore)).toEqual({ 'asset.restored.v1': 4 });
    expect(Object.keys(await lockedOf(assets.map((a) => a.id)))).toHaveLength(5);
  });
});

describe('a bulk job on the live stream', () => {
  it("sends one progress event per batch instead of the rows' own events", async () => {
    const { prefix } = await newAssets(7);
    const from = await latestEventSeq(t.db);
    const job = await createJob({ action: 'lock', filter: { search: prefix } });
    await drain();
    const body = openEventStream({
      db: t.db,
      bus: t.events,
      ability: createMongoAbility<AppAbility>([{ action: 'manage', subject: 'all' }]),
      after: from,
      expiresAt: new Date(Date.now() + 60_000),
      now: () => new Date(),
      limits: { heartbeatMs: 60_000, replayLimit: 1000, queueBytes: MB },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('"state":"done"')) {
      text += decoder.decode((await reader.read()).value, { stream: true });
    }
    await reader.cancel();
    const events = [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    // Queued, claimed, then batches of 3, 3 and 1 rows: five frames for seven locked assets.
    expect(events).toEqual(['ready', ...Array<string>(5).fill('bulk-job.progressed.v1')]);
    expect(await eventsOf(job)).toEqual({ 'asset.locked.v1': 7 });
    expect(text).toContain(`"bulkJobId":"${job.id}"`);
  });
});

describe('who may run and see bulk jobs', () => {
  it('takes the ability of the per-id route, and shows each caller their own jobs only', async () => {
    const { prefix } = await newAssets(1);
    const filter = { search: prefix };
    expectError(await t.post('/v1/bulk-jobs', { action: 'delete', filter }, tokens.developer), 403);
    expectError(await t.post('/v1/bulk-jobs', { action: 'lock', filter }, tokens.user), 403);
    expectError(await t.post('/v1/bulk-jobs', { action: 'lock', filter }, tokens.anonymous), 403);
    const mine = await createJob({ action: 'lock', filter }, tokens.developer);
    expectError(await t.get(`/v1/bulk-jobs/${mine.id}`, tokens.admin), 404);
    expectError(await t.post(`/v1/bulk-jobs/${mine.id}/cancel`, {}, tokens.admin), 404);
    const listed = (dataOf(await t.get('/v1/bulk-jobs', tokens.admin)) as BulkJob[]).map(
      (j) => j.id,
    );
    expect(listed).not.toContain(mine.id);
    const own = (dataOf(await t.get('/v1/bulk-jobs', tokens.developer)) as BulkJob[]).map(
      (j) => j.id,
    );
    expect(own[0]).toBe(mine.id);
    await drain();
  });

  it('refuses filters the list refuses and tag actions without a tag that exists', async () => {
    expectError(
      await t.post('/v1/bulk-jobs', { action: 'lock', filter: { nope: 'x' } }, tokens.admin),
      400,
    );
    expectError(await t.post('/v1/bulk-jobs', { action: 'setTag', filter: {} }, tokens.admin), 400);
    expectError(
      await t.post('/v1/bulk-jobs', { action: 'lock', tagId: 'x', filter: {} }, tokens.admin),
      400,
    );
    expectError(
      await t.post(
        '/v1/bulk-jobs',
        { action: 'setTag', tagId: 'no-such-tag', filter: {} },
        tokens.admin,
      ),
      404,
    );
  });

  it(`runs at most ${BULK_MAX_ACTIVE_PER_USER} jobs of a user at once, even when asked all together`, async () => {
    const { token } = await t.loginAs('admin');
    const { prefix } = await newAssets(1);
    const answers = await Promise.all(
      Array.from({ length: BULK_MAX_ACTIVE_PER_USER + 2 }, () =>
        t.post('/v1/bulk-jobs', { action: 'unlock', filter: { search: prefix } }, token),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(BULK_MAX_ACTIVE_PER_USER);
    for (const answer of answers.filter((a) => a.status !== 200))
      expectError(answer, 429, 'TOO_MANY_JOBS');
    // Another user is not held up by them, and once one ends there is room again.
    await createJob({ action: 'unlock', filter: { search: prefix } });
    const first = bulkJobSchema.parse(
      (answers.find((a) => a.status === 200)!.body as { data: unknown }).data,
    );
    dataOf(await t.post(`/v1/bulk-jobs/${first.id}/cancel`, {}, token));
    await createJob({ action: 'unlock', filter: { search: prefix } }, token);
    await drain();
  });
});

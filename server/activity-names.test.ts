/**
 * The name each row of the activity log shows and its search finds (migration 036): the
 * record's name as it is now, kept on the events by triggers, the last one it had once it is
 * gone for good; and the migration naming the events written before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityRowSchema, listResponseSchema, type ActivityRow } from '../contract/schemas';
import { loadMigrations, migrate } from './migrate';
import { dataOf, useRoleTokens, useTestApp } from './test-app';
import { createTestDb, type TestDb } from './test-db';

const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const t = useTestApp();
const tokens = useRoleTokens(t);
const activityPage = listResponseSchema(activityRowSchema);

async function activity(query: string): Promise<ActivityRow[]> {
  const response = await t.get(`/v1/activity?limit=100&${query}`, tokens.admin);
  expect(response.status).toBe(200);
  return activityPage.parse(response.body).data;
}

async function newAsset(name: string): Promise<string> {
  const body = { name, type: 'hair', gender: 'male' };
  return (dataOf(await t.post('/v1/assets', body, tokens.admin)) as { id: string }).id;
}

const rename = async (id: string, name: string) =>
  dataOf(await t.request('PATCH', `/v1/assets/${id}`, { body: { name }, token: tokens.admin }));

describe('the name the activity log shows and searches', () => {
  it('follows a rename: every event of the asset shows the new name and is found by it, none by the old', async () => {
    const id = await newAsset('Names Quartz Hat');
    await rename(id, 'Names Basalt Hat');
    const events = await activity(`recordId=${id}`);
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (const row of events) expect(row.subject.name).toBe('Names Basalt Hat');
    const found = await activity('search=basalt%20hat');
    expect(found.map((row) => row.id).sort()).toEqual(events.map((row) => row.id).sort());
    expect(await activity('search=quartz%20hat')).toEqual([]);
  });

  it('keeps the last name of an asset deleted for good on all its events, and finds them by it', async () => {
    const id = await newAsset('Names Pumice Boots');
    await rename(id, 'Names Obsidian Boots');
    dataOf(await t.request('DELETE', `/v1/assets/${id}`, { token: tokens.admin }));
    dataOf(await t.request('DELETE', `/v1/trash/asset/${id}`, { token: tokens.admin }));
    const events = await activity(`recordId=${id}`);
    expect(events.map((row) => row.routingKey)).toContain('asset.created.v1');
    expect(events.map((row) => row.routingKey)).toContain('asset.purged.v1');
    for (const row of events) {
      expect(row.subject).toMatchObject({ state: 'gone', name: 'Names Obsidian Boots' });
    }
    const found = await activity('search=obsidian%20boots');
    expect(found.map((row) => row.id).sort()).toEqual(events.map((row) => row.id).sort());
  });

  it('names an event after a rename that commits while the event is being recorded', async () => {
    const id = await newAsset('Names Slate Gloves');
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM applications LIMIT 1');
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let renamed = () => undefined as void;
    const didRename = new Promise<void>((resolve) => (renamed = resolve));
    const renaming = t.db.transaction(async (tx) => {
      await tx.query("UPDATE assets SET name = 'Names Shale Gloves' WHERE id = $1", [id]);
      renamed();
      // PGlite runs one transaction at a time: there the rename commits first.
      if (onPostgres) await released;
    });
    await didRename;
    let answered = false;
    const adding = t
      .post(`/v1/assets/${id}/application`, { applicationId: rows[0]!.id }, tokens.admin)
      .finally(() => (answered = true));
    if (onPostgres) {
      // The rename commits once the event is recorded, or once the event waits for the asset.
      for (;;) {
        const { rows: waiting } = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (answered || waiting[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    release();
    await renaming;
    expect((await adding).status).toBe(200);
    const events = await activity(`recordId=${id}`);
    expect(events.map((row) => row.routingKey)).toContain('asset.added-to-application.v1');
    for (const row of events) expect(row.subject.name).toBe('Names Shale Gloves');
  });

  it('finds a tag by its name with a kind filter, and nothing for a name no record has', async () => {
    const tag = dataOf(await t.post('/v1/tags', { name: 'Names Garnet' }, tokens.admin)) as {
      id: string;
    };
    const found = await activity('search=garnet&kind=tag');
    expect(found.map((row) => row.subject.id)).toEqual([tag.id]);
    expect(await activity('search=garnet&kind=asset')).toEqual([]);
    expect(await activity('search=no%20record%20is%20called%20this')).toEqual([]);
  });
});

describe('migration 036 on a database with events', () => {
  let testDb: TestDb;
  const before = loadMigrations().filter((m) => m.name < '036');
  beforeAll(async () => {
    testDb = await createTestDb({ migrated: false });
    await migrate(testDb.db, before);
  });
  afterAll(async () => {
    await testDb.close();
  });

  it('names every event written before it (more than one batch): live, in the Trash, or gone as its data said', async () => {
    const { db } = testDb;
    await db.exec(`
      INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
      SELECT 'mig-asset-' || i, 'Migrated asset ' || i, 'hair', 'male', i, now(), now()
      FROM generate_series(1, 3) i;
      INSERT INTO tags (id, name, created_at, updated_at) VALUES ('mig-tag', 'Migrated tag', now(), now());
      INSERT INTO trash (kind, id, name, data, deleted_at)
      VALUES ('asset', 'mig-trashed', 'Trashed asset', '{}'::jsonb, now());
      INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at)
      SELECT 'mig-event-' || i, 'mig-asset-' || (1 + i % 3), 'asset.updated.v1', NULL, '{}'::jsonb, now()
      FROM generate_series(1, 10050) i;
      INSERT INTO asset_events (id, tag_id, routing_key, actor_id, data, created_at)
      VALUES ('mig-tag-event', 'mig-tag', 'tag.created.v1', NULL, '{"name": "Old tag name"}', now());
      INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at)
      VALUES ('mig-trashed-event', 'mig-trashed', 'asset.deleted.v1', NULL, '{}', now()),
        ('mig-gone-event', 'mig-gone', 'asset.purged.v1', NULL, '{"name": "Gone asset"}', now());`);

    expect(await migrate(db)).toContain('036_event_subject_names');

    const { rows } = await db.query<{ name: string | null; n: number }>(
      `SELECT subject_name AS name, count(*)::int AS n FROM asset_events
       WHERE id LIKE 'mig-%' GROUP BY subject_name ORDER BY subject_name`,
    );
    expect(rows).toEqual([
      { name: 'Gone asset', n: 1 },
      { name: 'Migrated asset 1', n: 3350 },
      { name: 'Migrated asset 2', n: 3350 },
      { name: 'Migrated asset 3', n: 3350 },
      { name: 'Migrated tag', n: 1 },
      { name: 'Trashed asset', n: 1 },
    ]);

    // From now on the triggers keep them: a rename, and a new event.
    await db.exec(`UPDATE tags SET name = 'Renamed tag' WHERE id = 'mig-tag';
      INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at)
      VALUES ('mig-new-event', 'mig-asset-1', 'asset.locked.v1', NULL, '{}', now());`);
    const { rows: kept } = await db.query<{ id: string; name: string }>(
      `SELECT id, subject_name AS name FROM asset_events
       WHERE id IN ('mig-tag-event', 'mig-new-event') ORDER BY id`,
    );
    expect(kept).toEqual([
      { id: 'mig-new-event', name: 'Migrated asset 1' },
      { id: 'mig-tag-event', name: 'Renamed tag' },
    ]);
  });
});

/**
 * Migration 040 on a database with tag links and assignments: it copies each link's asset keys
 * in batches (each committed on its own on PostgreSQL), leaves the columns NOT NULL, the list's
 * indexes valid and the triggers keeping the copies, and counts each user's assignments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from './migrate';
import { createTestDb, type TestDb } from './test-db';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb({ migrated: false });
  await migrate(
    testDb.db,
    loadMigrations().filter((m) => m.name < '040'),
  );
});
afterAll(async () => {
  await testDb.close();
});

describe('migration 040 on a database with tag links', () => {
  it('copies the keys of every link made before it (more than one batch), then keeps them', async () => {
    const { db } = testDb;
    await db.exec(`
      INSERT INTO assets (id, name, type, gender, position, rank, created_at, updated_at)
      SELECT 'keys-asset-' || i, 'Keys asset ' || i, CASE WHEN i % 2 = 0 THEN 'hair' ELSE 'top' END,
        CASE WHEN i % 3 = 0 THEN 'female' ELSE 'male' END, i, 'a' || (i % 7),
        timestamptz '2030-01-01' + i * interval '1 minute', timestamptz '2030-02-01' - i * interval '1 minute'
      FROM generate_series(1, 100) i;
      INSERT INTO tags (id, name, created_at, updated_at)
      SELECT 'keys-tag-' || i, 'Keys tag ' || i, now(), now() FROM generate_series(1, 25) i;
      INSERT INTO asset_tags (asset_id, tag_id, created_at)
      SELECT 'keys-asset-' || a, 'keys-tag-' || t, now()
      FROM generate_series(1, 100) a, generate_series(1, 25) t;
      INSERT INTO users (id, email, role, created_at)
      SELECT 'keys-user-' || i, 'keys' || i || '@example.test', 'user', now()
      FROM generate_series(1, 3) i;
      INSERT INTO user_assets (user_id, asset_id, created_at)
      SELECT 'keys-user-' || u, 'keys-asset-' || a, now()
      FROM generate_series(1, 3) u, generate_series(1, 100) a WHERE a % u = 0;`);

    expect(
      await migrate(
        db,
        loadMigrations().filter((m) => m.name < '041'),
      ),
    ).toEqual(['040_tag_keys_user_counts']);

    const wrong = async () =>
      (
        await db.query<{ n: number; wrong: number }>(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE
             x.asset_position IS DISTINCT FROM a.position OR x.asset_rank IS DISTINCT FROM a.rank
             OR x.asset_name IS DISTINCT FROM a.name OR x.asset_type IS DISTINCT FROM a.type
             OR x.asset_gender IS DISTINCT FROM a.gender
             OR x.asset_created_at IS DISTINCT FROM a.created_at
             OR x.asset_updated_at IS DISTINCT FROM a.updated_at)::int AS wrong
           FROM asset_tags x JOIN assets a ON a.id = x.asset_id`,
        )
      ).rows[0];
    expect(await wrong()).toEqual({ n: 2_500, wrong: 0 });
    const { rows: columns } = await db.query<{ name: string; nullable: string }>(
      `SELECT column_name AS name, is_nullable AS nullable FROM information_schema.columns
       WHERE table_name = 'asset_tags' AND column_name LIKE 'asset\\_%' ORDER BY column_name`,
    );
    expect(columns).toEqual(
      [
        'asset_created_at',
        'asset_gender',
        'asset_id',
        'asset_name',
        'asset_position',
        'asset_rank',
        'asset_type',
        'asset_updated_at',
      ].map((name) => ({ name, nullable: 'NO' })),
    );
    const { rows: indexes } = await db.query<{ name: string; valid: boolean }>(
      `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'asset_tags'::regclass ORDER BY c.relname`,
    );
    expect(indexes).toEqual(
      [
        'asset_tags_created_at_idx',
        'asset_tags_gender_idx',
        'asset_tags_name_idx',
        'asset_tags_order_idx',
        'asset_tags_pkey',
        'asset_tags_tag_idx',
        'asset_tags_type_idx',
        'asset_tags_updated_at_idx',
      ].map((name) => ({ name, valid: true })),
    );
    const { rows: counts } = await db.query<{ user_id: string; n: number }>(
      `SELECT user_id, sum(n)::int AS n FROM user_asset_counts GROUP BY user_id ORDER BY user_id`,
    );
    expect(counts).toEqual([
      { user_id: 'keys-user-1', n: 100 },
      { user_id: 'keys-user-2', n: 50 },
      { user_id: 'keys-user-3', n: 33 },
    ]);

    await db.exec(`UPDATE assets SET name = 'Keys renamed', position = -5, rank = 'b'
        WHERE id = 'keys-asset-7';
      INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
      VALUES ('keys-new', 'Keys new', 'hair', 'male', 1000, now(), now());
      INSERT INTO asset_tags (asset_id, tag_id, created_at) VALUES ('keys-new', 'keys-tag-1', now());`);
    expect(await wrong()).toEqual({ n: 2_501, wrong: 0 });
  });
});

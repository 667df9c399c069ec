/**
 * Migration 035 on a database with assignments: it copies each one's asset keys in batches
 * (each committed on its own on PostgreSQL), and leaves the columns NOT NULL, the list's
 * indexes valid and the triggers keeping the copies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from './migrate';
import { createTestDb, type TestDb } from './test-db';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb({ migrated: false });
  await migrate(
    testDb.db,
    loadMigrations().filter((m) => m.name < '035'),
  );
});
afterAll(async () => {
  await testDb.close();
});

describe('migration 035 on a database with assignments', () => {
  it('copies the keys of every assignment made before it (more than one batch), then keeps them', async () => {
    const { db } = testDb;
    await db.exec(`
      INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
      SELECT 'keys-asset-' || i, 'Keys asset ' || i, CASE WHEN i % 2 = 0 THEN 'hair' ELSE 'top' END,
        'male', i, timestamptz '2030-01-01' + i * interval '1 minute', now()
      FROM generate_series(1, 100) i;
      INSERT INTO users (id, email, role, created_at)
      SELECT 'keys-user-' || i, 'keys' || i || '@example.test', 'user', now()
      FROM generate_series(1, 101) i;
      INSERT INTO user_assets (user_id, asset_id, created_at)
      SELECT 'keys-user-' || u, 'keys-asset-' || a, now()
      FROM generate_series(1, 101) u, generate_series(1, 100) a;`);

    expect(
      await migrate(
        db,
        loadMigrations().filter((m) => m.name < '036'),
      ),
    ).toEqual(['035_user_asset_keys']);

    const { rows } = await db.query<{ n: number; wrong: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE x.asset_name IS DISTINCT FROM a.name
         OR x.asset_type IS DISTINCT FROM a.type
         OR x.asset_created_at IS DISTINCT FROM a.created_at)::int AS wrong
       FROM user_assets x JOIN assets a ON a.id = x.asset_id`,
    );
    expect(rows[0]).toEqual({ n: 10_100, wrong: 0 });
    const { rows: columns } = await db.query<{ name: string; nullable: string }>(
      `SELECT column_name AS name, is_nullable AS nullable FROM information_schema.columns
       WHERE table_name = 'user_assets' AND column_name LIKE 'asset\\_%' ORDER BY column_name`,
    );
    expect(columns).toEqual([
      { name: 'asset_created_at', nullable: 'NO' },
      { name: 'asset_id', nullable: 'NO' },
      { name: 'asset_name', nullable: 'NO' },
      { name: 'asset_type', nullable: 'NO' },
    ]);
    const { rows: indexes } = await db.query<{ name: string; valid: boolean }>(
      `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'user_assets'::regclass ORDER BY c.relname`,
    );
    expect(indexes).toEqual([
      { name: 'user_assets_asset_idx', valid: true },
      { name: 'user_assets_created_at_idx', valid: true },
      { name: 'user_assets_name_idx', valid: true },
      { name: 'user_assets_pkey', valid: true },
    ]);

    await db.exec(`UPDATE assets SET name = 'Keys renamed' WHERE id = 'keys-asset-7';
      INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
      VALUES ('keys-new', 'Keys new', 'hair', 'male', 1000, now(), now());
      INSERT INTO user_assets (user_id, asset_id, created_at) VALUES ('keys-user-1', 'keys-new', now());`);
    const { rows: kept } = await db.query<{ name: string; n: number }>(
      `SELECT asset_name AS name, count(*)::int AS n FROM user_assets
       WHERE asset_id IN ('keys-asset-7', 'keys-new') GROUP BY asset_name ORDER BY asset_name`,
    );
    expect(kept).toEqual([
      { name: 'Keys new', n: 1 },
      { name: 'Keys renamed', n: 101 },
    ]);
  });
});

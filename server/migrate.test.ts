import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from './migrate';
import { DEMO_USER, demoAssets, seed } from './seed';
import { ADMIN } from './test-app';
import { createTestDb, type TestDb } from './test-db';
import { findUserByEmail } from './users';
import { tempDir } from '../tests/temp-dir';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb({ migrated: false });
});
afterAll(async () => {
  await testDb.close();
});

describe('migrate', () => {
  it('applies every migration once, even when two runs race', async () => {
    const names = loadMigrations().map((m) => m.name);
    expect(names[0]).toBe('001_init');
    const [first, second] = await Promise.all([migrate(testDb.db), migrate(testDb.db)]);
    expect([...first, ...second].sort()).toEqual(names.sort());
    expect(await migrate(testDb.db)).toEqual([]);
    const { rows } = await testDb.db.query<{ name: string }>(
      'SELECT name FROM schema_migrations ORDER BY name',
    );
    expect(rows.map((r) => r.name)).toEqual(names);
  });

  it('rolls a failing migration back completely', async () => {
    const bad = [{ name: '999_broken', sql: 'CREATE TABLE half_done (id int); SELECT nope;' }];
    await expect(migrate(testDb.db, bad)).rejects.toThrow();
    const { rows } = await testDb.db.query(
      "SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'",
    );
    expect(rows).toEqual([]);
  });

  it('refuses badly named migration files', () => {
    const dir = tempDir('migrations-');
    writeFileSync(join(dir, 'add-things.sql'), 'SELECT 1;');
    expect(() => loadMigrations(dir)).toThrow(/NNN_snake_case/);
  });
});

describe('seed', () => {
  it('creates the admin and the demo assets once', async () => {
    const config = { adminEmail: ADMIN.email, adminPassword: ADMIN.password, nodeEnv: 'test' };
    expect(await seed(testDb.db, config)).toEqual({
      adminCreated: true,
      assetsSeeded: 300,
      catalogueSeeded: true,
    });
    expect(await seed(testDb.db, config)).toEqual({
      adminCreated: false,
      assetsSeeded: 0,
      catalogueSeeded: false,
    });
    const admin = await findUserByEmail(testDb.db, ADMIN.email);
    expect(admin).toMatchObject({ role: 'admin' });
    expect(admin?.verified_at).toBeInstanceOf(Date);
    const { rows } = await testDb.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM assets',
    );
    expect(rows[0]?.count).toBe(300);
    expect(await findUserByEmail(testDb.db, DEMO_USER.email)).toMatchObject({ role: 'user' });
    // No history in tests: they count the events they cause.
    const events = await testDb.db.query('SELECT 1 FROM asset_events');
    expect(events.rows).toEqual([]);
  });

  it("seeds no demo user in production (its password is published), and the catalogue's history", async () => {
    const db = await createTestDb();
    try {
      const config = {
        adminEmail: ADMIN.email,
        adminPassword: ADMIN.password,
        nodeEnv: 'production',
      };
      expect(await seed(db.db, config)).toMatchObject({
        adminCreated: true,
        catalogueSeeded: true,
      });
      expect(await findUserByEmail(db.db, DEMO_USER.email)).toBeUndefined();
      const admin = await findUserByEmail(db.db, ADMIN.email);
      const { rows } = await db.db.query<{ routing_key: string; count: number; actors: string[] }>(
        `SELECT routing_key, count(*)::int AS count, array_agg(DISTINCT actor_id) AS actors
         FROM asset_events GROUP BY routing_key ORDER BY routing_key`,
      );
      const counts = Object.fromEntries(rows.map((row) => [row.routing_key, row.count]));
      expect(counts).toMatchObject({
        'asset.created.v1': 300,
        'tag.created.v1': 12,
        'application.created.v1': 6,
        'asset.cage-mesh-updated.v1': 8,
        'asset.morph-queue-entry-created.v1': 40,
        // The admin's 12 assigned assets (no demo user in production).
        'asset.user-assets-added.v1': 12,
      });
      expect(counts['asset.added-to-application.v1']).toBeGreaterThanOrEqual(6 * 20);
      expect(new Set(rows.flatMap((row) => row.actors))).toEqual(new Set([admin?.id]));
      // Recorded in the order they happened, as the log and the stream read them.
      const order = await db.db.query<{ created_at: Date }>(
        'SELECT created_at FROM asset_events ORDER BY seq',
      );
      const times = order.rows.map((row) => row.created_at.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
    } finally {
      await db.close();
    }
  });

  it('builds the same catalogue every time', () => {
    const first = demoAssets();
    expect(demoAssets()).toEqual(first);
    expect(new Set(first.map((a) => a.id)).size).toBe(first.length);
    expect(new Set(first.map((a) => a.type)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(first.map((a) => a.gender))).toEqual(new Set(['male', 'female', 'unisex']));
  });
});

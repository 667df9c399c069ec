import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate } from './migrate';
import { DEMO_USER, demoAssets, seed } from './seed';
import { ADMIN } from './test-app';
import { createTestDb, type TestDb } from './test-db';
import { findUserByEmail } from './users';

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
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
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
  });

  it('seeds no demo user in production (its password is published)', async () => {
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

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgDb, type Db } from './db';
import { loadMigrations, migrate } from './migrate';
import { DEMO_USER, demoAssets, seed } from './seed';
import { ADMIN } from './test-app';
import { createTestDb, type TestDb } from './test-db';
import { captureLog } from './test-log';
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

const onPostgres = process.env.TEST_DATABASE_URL !== undefined;

/** Whether each named index exists and is valid (usable by reads). */
async function indexes(db: Db, names: string[]): Promise<Record<string, boolean>> {
  const { rows } = await db.query<{ name: string; valid: boolean }>(
    `SELECT c.relname AS name, i.indisvalid AS valid
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = ANY($1::text[])`,
    [names],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.valid]));
}

async function appliedNames(db: Db, prefix: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    'SELECT name FROM schema_migrations WHERE name LIKE $1 ORDER BY name',
    [`${prefix}%`],
  );
  return rows.map((row) => row.name);
}

describe('no-transaction migrations', () => {
  it('are applied once by two servers starting together, the waiting one not deadlocking the index build', async () => {
    const testDb = await createTestDb();
    // Enough rows on PostgreSQL that the second server asks for the lock while the index builds.
    const rows = onPostgres ? 200_000 : 1_000;
    // A second server: a pool of its own on PostgreSQL; PGlite has one connection.
    const other = testDb.url === undefined ? testDb.db : createPgDb(testDb.url);
    try {
      const migrations = [
        {
          name: '900_race_rows',
          sql: `CREATE TABLE race_rows AS SELECT g AS v FROM generate_series(1, ${rows}) g;
                CREATE TABLE race_log (at timestamptz NOT NULL DEFAULT clock_timestamp());`,
        },
        {
          name: '901_race_index',
          sql: `-- migrate: no-transaction
                CREATE INDEX CONCURRENTLY race_rows_v_idx ON race_rows (v);
                -- Counts the runs; a semicolon in a comment; or a string is no end:
                INSERT INTO race_log DEFAULT VALUES;
                COMMENT ON TABLE race_log IS 'one row; per run';`,
        },
      ];
      const [first, second] = await Promise.all([
        migrate(testDb.db, migrations),
        migrate(other, migrations),
      ]);
      expect([...first, ...second].sort()).toEqual(['900_race_rows', '901_race_index']);
      const runs = await testDb.db.query('SELECT 1 FROM race_log');
      expect(runs.rows).toHaveLength(1);
      expect(await indexes(testDb.db, ['race_rows_v_idx'])).toEqual({ race_rows_v_idx: true });
      const comment = await testDb.db.query<{ text: string }>(
        "SELECT obj_description('race_log'::regclass) AS text",
      );
      expect(comment.rows[0]?.text).toBe('one row; per run');
      expect(await migrate(other, migrations)).toEqual([]);
    } finally {
      if (other !== testDb.db) await other.close();
      await testDb.close();
    }
  });

  it('repairs on the next run an index build that failed part way, and records the file only then', async () => {
    const testDb = await createTestDb();
    try {
      await testDb.db.exec(`CREATE TABLE codes (id int, code text);
        INSERT INTO codes SELECT g, 'c' || g FROM generate_series(1, 1000) g;
        INSERT INTO codes VALUES (1001, 'c1')`);
      const migrations = [
        {
          name: '902_code_indexes',
          sql: `-- migrate: no-transaction
                CREATE INDEX CONCURRENTLY codes_id_idx ON codes (id);
                CREATE UNIQUE INDEX CONCURRENTLY codes_code_key ON codes (code);`,
        },
      ];
      // The duplicate code fails the unique build after its index was created.
      await expect(migrate(testDb.db, migrations)).rejects.toThrow(/duplicate|unique/i);
      expect(await appliedNames(testDb.db, '902')).toEqual([]);
      if (onPostgres) {
        // What PostgreSQL leaves of a failed CONCURRENTLY build: the first index built, the
        // second there but INVALID (never read, yet maintained by every write).
        expect(await indexes(testDb.db, ['codes_id_idx', 'codes_code_key'])).toEqual({
          codes_id_idx: true,
          codes_code_key: false,
        });
      }

      await testDb.db.exec('DELETE FROM codes WHERE id = 1001');
      const log = captureLog();
      expect(await migrate(testDb.db, migrations)).toEqual(['902_code_indexes']);
      if (onPostgres) {
        expect(log.entries()).toContainEqual(
          expect.objectContaining({ level: 'warn', index: 'codes_code_key' }),
        );
      }
      expect(await indexes(testDb.db, ['codes_id_idx', 'codes_code_key'])).toEqual({
        codes_id_idx: true,
        codes_code_key: true,
      });
      expect(await appliedNames(testDb.db, '902')).toEqual(['902_code_indexes']);
      await expect(testDb.db.exec("INSERT INTO codes VALUES (1002, 'c2')")).rejects.toThrow(
        /duplicate|unique/i,
      );
    } finally {
      await testDb.close();
    }
  });

  it.runIf(onPostgres)(
    'build their indexes while writes to the table go on',
    async () => {
      const testDb = await createTestDb();
      const gateKey = 42_424_242;
      // The test holds the build at its first row: gate() waits for an advisory lock held here.
      const holder = new pg.Client({ connectionString: testDb.url });
      await holder.connect();
      try {
        await testDb.db.exec(`CREATE TABLE gated (id serial PRIMARY KEY, v int NOT NULL);
          INSERT INTO gated (v) SELECT g FROM generate_series(1, 1000) g;
          CREATE FUNCTION gate(v int) RETURNS int IMMUTABLE LANGUAGE plpgsql AS $$
          BEGIN
            PERFORM pg_advisory_xact_lock_shared(${gateKey});
            RETURN v;
          END
          $$;`);
        await holder.query('SELECT pg_advisory_lock($1)', [gateKey]);
        const migration = {
          name: '903_gated_index',
          sql: `-- migrate: no-transaction
                CREATE INDEX CONCURRENTLY gated_gate_idx ON gated (gate(v));`,
        };
        const migrating = migrate(testDb.db, [migration]);
        migrating.catch(() => undefined);
        await vi.waitFor(
          async () => {
            const { rows } = await holder.query(
              "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted",
              [gateKey],
            );
            expect(rows).toHaveLength(1);
          },
          { timeout: 10_000, interval: 20 },
        );

        // The build is under way and held: a write to its table goes through all the same.
        const started = performance.now();
        const inserted = testDb.db
          .query<{ id: number }>('INSERT INTO gated (v) VALUES (5000) RETURNING id')
          .then(() => performance.now() - started);
        const held = new Promise<string>((resolve) => {
          setTimeout(() => resolve('still waiting after 5 s'), 5_000).unref();
        });
        const outcome = await Promise.race([inserted, held]);
        expect(outcome).toBeTypeOf('number');
        expect(outcome).toBeLessThan(1_000);

        await holder.query('SELECT pg_advisory_unlock($1)', [gateKey]);
        expect(await migrating).toEqual(['903_gated_index']);
        await inserted;
        expect(await indexes(testDb.db, ['gated_gate_idx'])).toEqual({ gated_gate_idx: true });
        // The row written during the build is in the index (read through it alone).
        const count = await testDb.db.transaction(async (tx) => {
          await tx.exec('SET LOCAL enable_seqscan = off');
          const { rows } = await tx.query<{ count: number }>(
            'SELECT count(*)::int AS count FROM gated WHERE gate(v) = 5000',
          );
          return rows[0]?.count;
        });
        expect(count).toBe(1);
      } finally {
        await holder.end();
        await testDb.close();
      }
    },
    20_000,
  );

  it('refuses a no-transaction file whose index build a later run could not recognise', async () => {
    const migrations = [
      {
        name: '904_unnamed',
        sql: '-- migrate: no-transaction\nCREATE INDEX CONCURRENTLY ON x (y);',
      },
    ];
    await expect(migrate(testDb.db, migrations)).rejects.toThrow(/plain index name/);
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

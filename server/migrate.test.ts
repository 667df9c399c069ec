import { readFileSync, writeFileSync } from 'node:fs';
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

/** The migrations up to `last`, and the rest. */
function migrationsSplitAfter(last: string) {
  const all = loadMigrations();
  return { upTo: all.filter((m) => m.name <= last), after: all.filter((m) => m.name > last) };
}

const SUBJECT_COLUMNS = [
  ['asset_id', 'asset'],
  ['cage_mesh_id', 'cage-mesh'],
  ['tag_id', 'tag'],
  ['application_id', 'application'],
  ['user_id', 'user'],
  ['morphed_asset_id', 'morphed-asset'],
  ['invitation_id', 'invitation'],
] as const;

/**
 * Writes `count` events, each of one subject (`subject-<n>`), of every kind in turn; in one
 * statement, without the stream's commit order (one more write an event), as the scale seed.
 */
async function writeEvents(db: Db, count: number, from = 1): Promise<void> {
  const subjects = SUBJECT_COLUMNS.map((_, i) => `CASE WHEN g % 7 = ${i} THEN 'subject-' || g END`);
  await db.exec(`ALTER TABLE asset_events DISABLE TRIGGER asset_events_commit_order;
    INSERT INTO asset_events (id, routing_key, data, created_at,
      ${SUBJECT_COLUMNS.map(([column]) => column).join(', ')})
    SELECT 'event-' || g, 'test.v1', jsonb_build_object('name', 'name ' || g), now(),
      ${subjects.join(', ')}
    FROM generate_series(${from}, ${from + count - 1}) g;
    ALTER TABLE asset_events ENABLE TRIGGER asset_events_commit_order`);
}

/** The events of writeEvents whose subject columns do not say their subject. */
async function eventsWithWrongSubject(db: Db): Promise<number> {
  const kinds = SUBJECT_COLUMNS.map(([, kind]) => `'${kind}'`).join(', ');
  const { rows } = await db.query<{ wrong: number }>(`SELECT count(*)::int AS wrong
    FROM asset_events
    WHERE id LIKE 'event-%' AND (subject_id IS DISTINCT FROM 'subject-' || substr(id, 7)
      OR subject_kind IS DISTINCT FROM (ARRAY[${kinds}])[substr(id, 7)::int % 7 + 1])`);
  return rows[0]?.wrong ?? -1;
}

/** The files behind the event log and its subject indexes: a rewrite gives them new ones. */
async function eventLogFiles(db: Db): Promise<Record<string, number>> {
  const { rows } = await db.query<{ name: string; file: number }>(
    `SELECT relname AS name, relfilenode::int AS file FROM pg_class
     WHERE relname IN ('asset_events', 'asset_events_subject_idx', 'asset_events_kind_idx')`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.file]));
}

/** What a schema says of a table: columns by name, constraints, indexes and triggers. */
async function tableSchema(db: Db, table: string): Promise<unknown> {
  const read = async (sql: string) => (await db.query(sql, [table])).rows;
  return {
    columns: await read(`SELECT column_name, data_type, is_nullable, column_default,
        is_generated, generation_expression
      FROM information_schema.columns WHERE table_name = $1 ORDER BY column_name`),
    constraints: await read(`SELECT conname, pg_get_constraintdef(oid) AS def, convalidated
      FROM pg_constraint WHERE conrelid = $1::regclass ORDER BY conname`),
    indexes: await read(`SELECT indexname, indexdef FROM pg_indexes
      WHERE tablename = $1 ORDER BY indexname`),
    triggers: await read(`SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger
      WHERE tgrelid = $1::regclass AND NOT tgisinternal ORDER BY tgname`),
  };
}

describe("the event log's subjects (037, 039)", () => {
  it('an installation at 036 upgrades without rewriting the event log, each event keeping its subject', async () => {
    const testDb = await createTestDb({ migrated: false });
    try {
      const { upTo, after } = migrationsSplitAfter('036_event_subject_names');
      await migrate(testDb.db, upTo);
      await writeEvents(testDb.db, 3_000);
      const files = await eventLogFiles(testDb.db);

      expect(await migrate(testDb.db, after)).toEqual(after.map((m) => m.name));
      expect(await eventLogFiles(testDb.db)).toEqual(files);
      expect(await eventsWithWrongSubject(testDb.db)).toBe(0);

      // Written after: every kind, the bulk job's progress, a subject given by the writer.
      await writeEvents(testDb.db, 70, 10_001);
      expect(await eventsWithWrongSubject(testDb.db)).toBe(0);
      await testDb.db.exec(`INSERT INTO asset_events
          (id, routing_key, data, created_at, bulk_job_id, subject_kind, subject_id)
        VALUES ('progress', 'bulk-job.progressed.v1', '{}', now(), 'job-1', 'asset', 'a-1')`);
      const { rows } = await testDb.db.query(
        "SELECT subject_kind, subject_id FROM asset_events WHERE id = 'progress'",
      );
      expect(rows).toEqual([{ subject_kind: 'bulk-job', subject_id: 'job-1' }]);
      // An event moved to another subject says so.
      await testDb.db.exec(
        "UPDATE asset_events SET asset_id = NULL, tag_id = 'tag-9' WHERE id = 'event-7'",
      );
      const moved = await testDb.db.query(
        "SELECT subject_kind, subject_id FROM asset_events WHERE id = 'event-7'",
      );
      expect(moved.rows).toEqual([{ subject_kind: 'tag', subject_id: 'tag-9' }]);
      // Still one subject an event.
      await expect(
        testDb.db
          .exec(`INSERT INTO asset_events (id, routing_key, created_at, asset_id, bulk_job_id)
          VALUES ('two', 'x.v1', now(), 'a-1', 'job-1')`),
      ).rejects.toThrow(/asset_events_one_subject/);
    } finally {
      await testDb.close();
    }
  });

  it.runIf(onPostgres)(
    "an installation at 036 upgrades while the app's events go on being written",
    async () => {
      const testDb = await createTestDb({ migrated: false });
      const writer = createPgDb(testDb.url as string);
      try {
        const { upTo, after } = migrationsSplitAfter('036_event_subject_names');
        await migrate(testDb.db, upTo);
        // Enough events that a statement reading them all under a lock that stops writes
        // (as rebuilding the subject columns did) keeps a write waiting for seconds.
        await writeEvents(testDb.db, 150_000);
        await testDb.db.exec('VACUUM ANALYZE asset_events');

        let migrating = true;
        const waits: number[] = [];
        const writing = (async () => {
          for (let n = 1; migrating; n += 1) {
            const started = performance.now();
            await writer.exec(`INSERT INTO asset_events (id, routing_key, created_at, asset_id)
              VALUES ('during-${n}', 'asset.updated.v1', now(), 'a-${n}')`);
            waits.push(performance.now() - started);
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })();
        try {
          await migrate(testDb.db, after);
        } finally {
          migrating = false;
          await writing;
        }

        expect(waits.length).toBeGreaterThan(0);
        expect(Math.max(...waits)).toBeLessThan(1_000);
        expect(await eventsWithWrongSubject(testDb.db)).toBe(0);
        const { rows } = await testDb.db.query<{ wrong: number }>(`SELECT count(*)::int AS wrong
          FROM asset_events WHERE id LIKE 'during-%'
            AND (subject_kind <> 'asset' OR subject_id IS DISTINCT FROM asset_id)`);
        expect(rows[0]?.wrong).toBe(0);
      } finally {
        await writer.close();
        await testDb.close();
      }
    },
    60_000,
  );

  it('an installation that applied 037 as it rebuilt the subject columns ends with the same schema as a new one', async () => {
    const fresh = await createTestDb();
    const testDb = await createTestDb({ migrated: false });
    try {
      const { upTo, after } = migrationsSplitAfter('037_bulk_jobs');
      const asApplied = readFileSync(
        join(import.meta.dirname, 'migrate-fixtures', '037_bulk_jobs_as_applied.sql'),
        'utf8',
      );
      await migrate(testDb.db, upTo.slice(0, -1));
      await writeEvents(testDb.db, 700);
      await migrate(testDb.db, [{ name: '037_bulk_jobs', sql: asApplied }]);
      const files = await eventLogFiles(testDb.db);
      await migrate(testDb.db, after);

      expect(await eventLogFiles(testDb.db)).toEqual(files);
      expect(await eventsWithWrongSubject(testDb.db)).toBe(0);
      for (const table of ['asset_events', 'bulk_jobs']) {
        expect(await tableSchema(testDb.db, table)).toEqual(await tableSchema(fresh.db, table));
      }
      await testDb.db.exec(`INSERT INTO asset_events (id, routing_key, created_at, bulk_job_id)
        VALUES ('progress', 'bulk-job.progressed.v1', now(), 'job-1')`);
      const { rows } = await testDb.db.query(
        "SELECT subject_kind, subject_id FROM asset_events WHERE id = 'progress'",
      );
      expect(rows).toEqual([{ subject_kind: 'bulk-job', subject_id: 'job-1' }]);
    } finally {
      await testDb.close();
      await fresh.close();
    }
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

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tests/temp-dir';
import type { Db, SqlParam } from './db';
import { createDevMailbox } from './mail';
import { createReadiness } from './readiness';
import { createLocalStorage, type Storage } from './storage';
import { testConfig, useTestApp } from './test-app';
import { failingDb } from './test-db';

const t = useTestApp();

/** An app like the test app's, on other parts. */
function appWith(parts: { db?: Db; storage?: Storage }) {
  return t.createApp({
    db: parts.db ?? t.db,
    storage: parts.storage ?? t.storage,
    mail: createDevMailbox(),
    config: testConfig(),
    now: () => new Date(t.clock.current),
  });
}

/** A later second of the test clock, so the next /readyz checks again. */
const nextSecond = () => {
  t.clock.current = new Date(t.clock.current.getTime() + 1000);
};

/** `db` counting its queries, each held until `gate` (when given) resolves. */
function countingDb(db: Db, gate?: Promise<void>) {
  const counted = {
    queries: 0,
    db: {
      ...db,
      query: async <T>(sql: string, params?: readonly SqlParam[]) => {
        counted.queries += 1;
        await gate;
        return db.query<T>(sql, params);
      },
    } satisfies Db,
  };
  return counted;
}

describe('GET /readyz', () => {
  it('answers ready when the database, the file store and the migrations are', async () => {
    nextSecond();
    const response = await t.get('/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ready',
      checks: { database: 'ok', fileStore: 'ok', migrations: 'ok' },
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 naming the database when it fails', async () => {
    const app = appWith({ db: failingDb('connection refused') });
    const response = await app.request('/readyz');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      status: 'unready',
      checks: { database: 'failed', fileStore: 'ok', migrations: 'failed' },
    });
  });

  it('answers 503 naming the file store when it cannot be used', async () => {
    // A file where the folder should be: nothing can be stored there.
    const dir = tempDir('readyz-');
    writeFileSync(join(dir, 'files'), 'not a folder');
    const app = appWith({ storage: createLocalStorage(join(dir, 'files')) });
    const response = await app.request('/readyz');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'unready',
      checks: { database: 'ok', fileStore: 'failed', migrations: 'ok' },
    });
  });

  it('answers 503 while a migration of this build is not applied', async () => {
    const [latest] = (
      await t.db.query<{ name: string }>(
        'SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1',
      )
    ).rows;
    await t.db.query('DELETE FROM schema_migrations WHERE name = $1', [latest!.name]);
    try {
      nextSecond();
      const response = await t.get('/readyz');
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ checks: { database: 'ok', migrations: 'pending' } });
    } finally {
      await t.db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [latest!.name]);
    }
    nextSecond();
    expect((await t.get('/readyz')).status).toBe(200);
  });

  it('costs the database one check a second however many probes come', async () => {
    const counted = countingDb(t.db);
    const app = appWith({ db: counted.db });
    nextSecond();
    const answers = await Promise.all(
      Array.from({ length: 50 }, async () => app.request('/readyz')),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(200));
    // SELECT 1 and the migrations' names.
    expect(counted.queries).toBe(2);
    nextSecond();
    expect((await app.request('/readyz')).status).toBe(200);
    expect(counted.queries).toBe(4);
  });
});

describe('the readiness checks', () => {
  it('time out on a database that does not answer, without piling up queries on it', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Nothing here waits on real input and output, so only the hung queries meet the short limit.
    let queries = 0;
    const hungDb: Db = {
      ...t.db,
      query: async <T>() => {
        queries += 1;
        await gate;
        return { rows: [] as T[] };
      },
    };
    const clock = { at: 0 };
    const readiness = createReadiness({
      db: hungDb,
      storage: { ...t.storage, check: () => Promise.resolve() },
      now: () => new Date(clock.at),
      migrationNames: () => [],
      timeoutMs: 50,
    });
    expect(await readiness()).toEqual({
      status: 'unready',
      checks: { database: 'timeout', fileStore: 'ok', migrations: 'timeout' },
    });
    clock.at += 1000;
    expect((await readiness()).checks.database).toBe('timeout');
    // The hung queries are waited on again, not sent again.
    expect(queries).toBe(2);
    release();
    clock.at += 1000;
    expect((await readiness()).status).toBe('ready');
  });
});

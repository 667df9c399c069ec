/**
 * A database outage is a clear 503 with Retry-After, logged once, and the server answers again
 * by itself when the database is back. On PostgreSQL the test database really refuses
 * connections for a while (its backends ended, new ones refused); everywhere a database whose
 * calls fail as a lost PostgreSQL connection does stands in.
 */
import { createServer, type Socket } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../contract/schemas';
import { createPgDb, DatabaseUnavailableError, type Db } from './db';
import { createDevMailbox } from './mail';
import { testConfig, useTestApp, type JsonResponse } from './test-app';
import { captureLog } from './test-log';

const t = useTestApp();
const serverUrl = process.env.TEST_DATABASE_URL;

/** Runs `sql` as the server's superuser, from outside the test database. */
async function asSuperuser(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A database whose every call fails as a PostgreSQL pool does when connections are refused. */
function refusingDb(): Db {
  const refuse = () =>
    Promise.reject(
      new DatabaseUnavailableError(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ),
    );
  return {
    query: refuse,
    exec: refuse,
    transaction: refuse,
    listen: refuse,
    close: async () => {},
  };
}

function expectUnavailable(response: JsonResponse) {
  expect(response.status, JSON.stringify(response.body)).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  const body = apiErrorSchema.parse(response.body);
  expect(body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(body.message).toMatch(/database is unavailable/i);
}

describe('a database outage', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After: 5 when the database refuses connections', async () => {
    const app = t.createApp({ db: refusingDb(), mail: createDevMailbox(), config: testConfig() });
    const response = await app.request('/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com', password: 'a-password-of-some-length' }),
    });
    expectUnavailable({
      status: response.status,
      body: await response.json(),
      headers: response.headers,
    });
  });

  it('answers 503 within the connection timeout when PostgreSQL accepts but never answers', async () => {
    // A server that takes the connection and says nothing, as a hung or unreachable one.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const db = createPgDb(`postgres://nobody@127.0.0.1:${port}/nothing`);
    try {
      const app = t.createApp({ db, mail: createDevMailbox(), config: testConfig() });
      const started = performance.now();
      const response = await app.request('/v1/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'someone@example.com',
          password: 'a-password-of-some-length',
        }),
      });
      expect(performance.now() - started).toBeLessThan(8000);
      expectUnavailable({
        status: response.status,
        body: await response.json(),
        headers: response.headers,
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
      await db.close();
    }
  }, 15_000);

  it.runIf(serverUrl !== undefined)(
    'while PostgreSQL refuses: reads answer 503 with Retry-After, logged once; then 200 again without a restart',
    async () => {
      const { token } = await t.loginAs('admin');
      const read = () => t.get('/v1/assets?limit=5', token);
      expect((await read()).status).toBe(200);
      const { rows } = await t.db.query<{ name: string }>('SELECT current_database() AS name');
      const name = rows[0]!.name;
      const log = captureLog();
      // Every connection of the test database ends (as PostgreSQL does when it stops) and new
      // ones are refused until it is "started" again.
      await asSuperuser(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      try {
        await asSuperuser(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
        );
        const during: { status: number; ms: number }[] = [];
        for (let i = 0; i < 25; i += 1) {
          const started = performance.now();
          const response = await read();
          during.push({ status: response.status, ms: performance.now() - started });
          expectUnavailable(response);
        }
        expect(
          during.every(({ ms }) => ms < 3000),
          JSON.stringify(during),
        ).toBe(true);
      } finally {
        await asSuperuser(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      }
      const after = await read();
      expect(after.status, JSON.stringify(after.body)).toBe(200);
      const outageLines = log
        .entries()
        .filter((entry) => /database is unavailable/i.test(String(entry.msg)));
      expect(outageLines).toHaveLength(1);
      expect(
        log.entries().some((entry) => /database is available again/i.test(String(entry.msg))),
      ).toBe(true);
      expect(log.entries().filter((entry) => entry.status === 500)).toEqual([]);
    },
  );

  it.runIf(serverUrl !== undefined)(
    'a connection lost between two statements of a transaction fails that transaction, not the process',
    async () => {
      // Were the checked-out connection's error left unheard, Node would end the process.
      const failed = t.db.transaction(async (tx) => {
        const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        const pid = rows[0]!.pid;
        await asSuperuser(`SELECT pg_terminate_backend(${pid})`);
        // Until the backend is gone: its goodbye has reached the idle connection by then.
        for (;;) {
          const client = new pg.Client({ connectionString: serverUrl });
          await client.connect();
          const { rowCount } = await client
            .query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])
            .finally(() => client.end());
          if (rowCount === 0) break;
        }
        await tx.query('SELECT 1');
      });
      await expect(failed).rejects.toBeInstanceOf(DatabaseUnavailableError);
      const { token } = await t.loginAs('admin');
      expect((await t.get('/v1/assets?limit=1', token)).status).toBe(200);
    },
  );

  it.runIf(serverUrl !== undefined)(
    'a stream of creates retried with their Idempotency-Key through a PostgreSQL restart: each exists exactly once',
    async () => {
      const { token } = await t.loginAs('admin');
      const { rows } = await t.db.query<{ name: string }>('SELECT current_database() AS name');
      const database = rows[0]!.name;
      const names = Array.from({ length: 40 }, (_, i) => `Restart ${process.pid} ${i}`);
      const answers = new Map<string, { id: string; statuses: number[] }>();
      let done = 0;
      // As a client does: the same key on every try, again after a 503 or a 409 (in use).
      const create = async (name: string) => {
        const statuses: number[] = [];
        for (;;) {
          const response = await t.request('POST', '/v1/assets', {
            token,
            body: { name, type: 'top', gender: 'male' },
            headers: { 'idempotency-key': `create-${name.replaceAll(' ', '-')}` },
          });
          statuses.push(response.status);
          if (response.status === 200) {
            answers.set(name, {
              id: (response.body as { data: { id: string } }).data.id,
              statuses,
            });
            done += 1;
            return;
          }
          expect([409, 503], JSON.stringify(response.body)).toContain(response.status);
          expect(statuses.length).toBeLessThan(400);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const queue = [...names];
      const worker = async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) await create(name);
      };
      const restart = async () => {
        while (done < 8) await new Promise((resolve) => setTimeout(resolve, 10));
        // PostgreSQL stops (every connection ends, none accepted) for a second, then starts.
        await asSuperuser(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
        try {
          await asSuperuser(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = '${database}' AND pid <> pg_backend_pid()`,
          );
          await new Promise((resolve) => setTimeout(resolve, 1000));
        } finally {
          await asSuperuser(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
        }
      };
      const log = captureLog();
      await Promise.all([worker(), worker(), worker(), worker(), restart()]);
      const stored = await t.db.query<{ id: string; name: string }>(
        'SELECT id, name FROM assets WHERE name = ANY($1) ORDER BY name',
        [names],
      );
      expect(stored.rows.map((row) => row.name).sort()).toEqual([...names].sort());
      for (const row of stored.rows) expect(answers.get(row.name)?.id).toBe(row.id);
      const retried = [...answers.values()].filter(({ statuses }) => statuses.length > 1);
      expect(retried.length, 'creates that met the outage').toBeGreaterThan(0);
      expect(log.entries().filter((entry) => entry.status === 500)).toEqual([]);
    },
    120_000,
  );
});

/**
 * A pool whose every connection is in use while PostgreSQL answers is a busy server, not a
 * database outage: its own 503 with Retry-After, counted and logged at most once a minute; a
 * database that hangs (and so fills the pool too) still reads as unavailable.
 */
import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../contract/schemas';
import { createPgDb, type Db } from './db';
import { createDevMailbox } from './mail';
import { metrics } from './metrics';
import { testConfig, useTestApp } from './test-app';
import { captureLog, type CapturedLog } from './test-log';

const t = useTestApp();
const serverUrl = process.env.TEST_DATABASE_URL;

async function urlOf(db: Db): Promise<string> {
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  const url = new URL(serverUrl!);
  url.pathname = `/${rows[0]!.name}`;
  return url.toString();
}

/** A request that needs the database (a sign-in looks the user up). */
async function signIn(db: Db) {
  const app = t.createApp({ db, mail: createDevMailbox(), config: testConfig() });
  const response = await app.request('/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'someone@example.com', password: 'a-password-of-some-length' }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: apiErrorSchema.parse(await response.json()),
  };
}

async function refusals(): Promise<number> {
  const metric = await metrics.getSingleMetric('db_pool_refusals_total')?.get();
  return metric?.values[0]?.value ?? 0;
}

/**
 * A TCP relay in front of PostgreSQL that can hang: once frozen it passes nothing either way and
 * new connections are taken and never answered, as a database that stopped answering.
 */
async function freezableRelay(target: URL) {
  let frozen = false;
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    if (frozen) return;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (frozen || client.write(chunk)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as { port: number };
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

describe.runIf(serverUrl !== undefined)('a full connection pool', () => {
  let log: CapturedLog | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    log?.restore();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('answers 503 SERVER_BUSY with Retry-After while PostgreSQL answers, counted and logged once with the pool size and waiting count', async () => {
    const db = createPgDb(await urlOf(t.db), { max: 2, connectTimeoutMs: 300 });
    cleanups.push(() => db.close());
    // Both connections are held by work that takes long (as slow requests under load do).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const holders = Array.from({ length: 2 }, () =>
      db.transaction(async (tx) => {
        await tx.query('SELECT 1');
        holding += 1;
        await held;
      }),
    );
    cleanups.push(async () => {
      release();
      await Promise.all(holders);
    });
    await expect.poll(() => holding).toBe(2);
    log = captureLog();
    const before = await refusals();

    const answers = await Promise.all([signIn(db), signIn(db), signIn(db)]);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('SERVER_BUSY');
      expect(answer.body.message).toMatch(/server is busy/i);
      expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
    }
    expect((await refusals()) - before).toBe(3);
    const messages = log.entries().map((entry) => String(entry.msg));
    expect(messages.filter((message) => /database is unavailable/i.test(message))).toEqual([]);
    const busy = log.entries().filter((entry) => /server is busy/i.test(String(entry.msg)));
    expect(busy).toHaveLength(1);
    expect(busy[0]).toMatchObject({ poolSize: 2, inUse: 2 });
    expect(busy[0]!.waiting).toEqual(expect.any(Number));
    expect(String(busy[0]!.msg)).toMatch(/all 2 database connections are in use/);

    // A connection free again: the next request is served.
    release();
    await Promise.all(holders);
    expect((await signIn(db)).status).toBe(401);
  });

  it('a database that hangs fills the pool too, and reads as unavailable, not busy', async () => {
    const relay = await freezableRelay(new URL(await urlOf(t.db)));
    const db = createPgDb(relay.url, { max: 2, connectTimeoutMs: 300 });
    cleanups.push(() => db.close());
    // Closing the relay ends the hung statements, so the pool can close.
    cleanups.push(() => relay.close());
    expect((await signIn(db)).status).toBe(401);
    log = captureLog();
    const before = await refusals();
    relay.freeze();
    // Two statements that never come back hold both connections.
    for (let i = 0; i < 2; i += 1) void db.query('SELECT 1').catch(() => undefined);

    const answers = await Promise.all([signIn(db), signIn(db)]);
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(answer.body.message).toMatch(/database is unavailable/i);
    }
    expect((await refusals()) - before).toBe(0);
    const messages = log.entries().map((entry) => String(entry.msg));
    expect(messages.filter((message) => /server is busy/i.test(message))).toEqual([]);
    expect(messages.filter((message) => /database is unavailable/i.test(message))).toHaveLength(1);
  });
});

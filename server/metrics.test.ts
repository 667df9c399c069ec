import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from './config';
import { createPgDb } from './db';
import { createDevMailbox } from './mail';
import { queueMail } from './mail-outbox';
import { MAX_STREAMS_PER_USER } from './routes/events';
import { captureLog } from './test-log';
import { expectError, testConfig, uniqueEmail, useTestApp } from './test-app';

const TOKEN = 'operator-metrics-token-0123456789abcdef';
const t = useTestApp({ METRICS_TOKEN: TOKEN });

const scrape = async () => {
  const response = await t.request('GET', '/metrics', { token: TOKEN });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return String(response.body);
};

/** The value of one sample (`name{labels}`) of a scrape, 0 when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  it('answers only the operator token, before reading anything', async () => {
    for (const token of [undefined, 'wrong', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const response = await t.request('GET', '/metrics', { token });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(JSON.stringify(response.body)).not.toContain('http_requests');
    }
  });

  it('counts requests and their time by method, route pattern and status', async () => {
    const before = await scrape();
    const series = 'http_requests_total{method="GET",route="/v1/users/email/:email",status="200"}';
    const email = uniqueEmail();
    await t.get(`/v1/users/email/${email}`);
    await t.get(`/v1/users/email/${uniqueEmail()}`);
    const after = await scrape();
    expect(sample(after, series) - sample(before, series)).toBe(2);
    expect(
      sample(
        after,
        'http_request_duration_seconds_count{method="GET",route="/v1/users/email/:email",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    // Addresses are not labels.
    expect(after).not.toContain(email);
  });

  it('has the process: memory, event-loop lag, and the live streams', async () => {
    const text = await scrape();
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^event_stream_clients \d+$/m);
  });

  it('counts refusals by the limit that refused', async () => {
    const series = 'rate_limit_refusals_total{limit="accountLookupsPerClient"}';
    const before = sample(await scrape(), series);
    const client = t.from();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i += 1) {
      statuses.push((await client.get(`/v1/users/email/${uniqueEmail()}`)).status);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    expect(sample(await scrape(), series) - before).toBe(2);
  });

  it("counts the event stream's refusals by its limit", async () => {
    const series = 'rate_limit_refusals_total{limit="eventStreamsPerUser"}';
    const before = sample(await scrape(), series);
    const { token } = await t.loginAs('user');
    const open = () =>
      t.app.request('/v1/events', {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      });
    const streams: Response[] = [];
    try {
      for (let i = 0; i < MAX_STREAMS_PER_USER; i += 1) streams.push(await open());
      expect(streams.map((stream) => stream.status)).toEqual(streams.map(() => 200));
      expect((await open()).status).toBe(429);
      expect(sample(await scrape(), series) - before).toBe(1);
    } finally {
      for (const stream of streams) await stream.body!.cancel();
    }
  });

  it("times database statements by their first keyword, never by the statement's text", async () => {
    const count = (text: string, keyword: string) =>
      sample(text, `db_query_duration_seconds_count{statement="${keyword}"}`);
    const before = await scrape();
    const email = uniqueEmail();
    // A look-up takes an attempt under its limit: an INSERT.
    await t.get(`/v1/users/email/${email}`);
    const after = await scrape();
    expect(count(after, 'insert') - count(before, 'insert')).toBeGreaterThanOrEqual(1);
    expect(count(after, 'select')).toBeGreaterThan(count(before, 'select'));
    expect(sample(after, 'db_query_duration_seconds_sum{statement="insert"}')).toBeGreaterThan(0);
    const labels = [...after.matchAll(/^db_query_duration_seconds_count\{(.*)\} /gm)].map(
      (match) => match[1],
    );
    expect(labels.length).toBeGreaterThan(1);
    for (const label of labels) expect(label).toMatch(/^statement="[a-z]+"$/);
    expect(after).not.toContain(email);
  });

  it('shows the PostgreSQL pool: connections open and queries waiting for one', async () => {
    // A server that takes connections and never answers: each query holds its connection.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const db = createPgDb(`postgres://nobody@127.0.0.1:${port}/nothing`);
    // Its outage is logged; not this file's concern.
    const log = captureLog();
    // The pool holds 10 connections; 2 more queries wait for one.
    const queries = Array.from({ length: 12 }, () => db.query('SELECT 1').catch(() => undefined));
    try {
      await vi.waitFor(() => expect(sockets.size).toBe(10));
      const text = await scrape();
      expect(sample(text, 'db_pool_clients{state="total"}')).toBeGreaterThanOrEqual(10);
      expect(sample(text, 'db_pool_clients{state="waiting"}')).toBeGreaterThanOrEqual(2);
    } finally {
      // Refused from now on: the queries fail at once.
      const closed = new Promise<void>((resolve) => silent.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await Promise.all(queries);
      await db.close();
      await closed;
      log.restore();
    }
  });

  it('reads the mail outbox and the morph queue when scraped', async () => {
    const before = sample(await scrape(), 'mail_outbox_depth');
    await queueMail(
      { db: t.db, now: () => t.clock.current },
      {
        to: uniqueEmail(),
        kind: 'notice',
        subject: 's',
        text: 't',
      },
    );
    const text = await scrape();
    expect(sample(text, 'mail_outbox_depth')).toBe(before + 1);
    expect(text).toMatch(/^mail_outbox_oldest_age_seconds \d/m);
    expect(text).toMatch(/^morph_queue_depth\{status="queued"\} \d+$/m);
    await t.deliverMail();
  });
});

describe('without METRICS_TOKEN', () => {
  it('there is no /metrics (a JSON 404, not the app page)', async () => {
    const app = t.createApp({ db: t.db, mail: createDevMailbox(), config: testConfig() });
    const response = await app.request('/metrics');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
  });

  it('refuses a token too short to resist guessing', () => {
    expect(() => testConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => testConfig({ METRICS_TOKEN: `${'x'.repeat(31)} ` + 'y' })).toThrow(ConfigError);
  });
});

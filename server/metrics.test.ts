import { describe, expect, it } from 'vitest';
import { createApp } from './app';
import { ConfigError } from './config';
import { createDevMailbox } from './mail';
import { queueMail } from './mail-outbox';
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
    const app = createApp({ db: t.db, mail: createDevMailbox(), config: testConfig() });
    const response = await app.request('/metrics');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
  });

  it('refuses a token too short to resist guessing', () => {
    expect(() => testConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => testConfig({ METRICS_TOKEN: `${'x'.repeat(31)} ` + 'y' })).toThrow(ConfigError);
  });
});

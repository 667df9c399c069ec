/**
 * A client flooding the server is refused before the app runs, with 429 and Retry-After, while
 * every other client is served; the budget's memory stays bounded whatever a stranger sends.
 */
import { request, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { metrics } from '../metrics';
import { budgetedServer, createRequestBudget, requestBudgetOf } from './request-budget';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A server behind a budget of `burst` requests at once, refilled at `rate` a second. */
async function listening(rate: number, burst: number, trustProxy = false) {
  let served = 0;
  const app = new Hono().get('/healthz', (c) => {
    served += 1;
    return c.json({ status: 'ok' });
  });
  const budget = createRequestBudget({ rate, burst });
  const listener = getRequestListener(app.fetch);
  const server = budgetedServer(budget, { trustProxy })({}, (req, res) => void listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { port, served: () => served };
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

function get(
  port: number,
  from: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/healthz', method, localAddress: from, headers },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            retryAfter: res.headers['retry-after'],
            body,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function refusals(): Promise<number> {
  const counter = (await metrics.getSingleMetric('rate_limit_refusals_total')?.get())?.values;
  return counter?.find((value) => value.labels.limit === 'clientRequests')?.value ?? 0;
}

describe('the per-client request budget', () => {
  it('refuses a flood from one address with 429 and Retry-After, before the app, and serves another address', async () => {
    const { port, served } = await listening(0.001, 20);
    const before = await refusals();
    const flood = await Promise.all(Array.from({ length: 50 }, () => get(port, '127.0.0.1')));
    const ok = flood.filter((answer) => answer.status === 200);
    const refused = flood.filter((answer) => answer.status === 429);
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(30);
    expect(served()).toBe(20);
    expect(refused[0]!.retryAfter).toBe('1000');
    expect(JSON.parse(refused[0]!.body)).toEqual({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringContaining('Too many requests') as string,
    });
    expect(await refusals()).toBe(before + 30);

    expect((await get(port, '127.0.0.2')).status).toBe(200);
    expect((await get(port, '127.0.0.1')).status).toBe(429);
  });

  it('asks a client to wait until its budget has a request again', async () => {
    const { port } = await listening(0.25, 1);
    expect((await get(port, '127.0.0.1')).status).toBe(200);
    expect(await get(port, '127.0.0.1')).toMatchObject({ status: 429, retryAfter: '4' });
  });

  it('holds a refusal for a second, so a flood waiting for each answer slows to its connections', async () => {
    const { port } = await listening(0.001, 1);
    expect((await get(port, '127.0.0.1')).status).toBe(200);
    const started = performance.now();
    expect((await get(port, '127.0.0.1')).status).toBe(429);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    // Another client is served meanwhile, at once.
    const other = get(port, '127.0.0.2');
    const flood = get(port, '127.0.0.1');
    const first = await Promise.race([other.then(() => 'other'), flood.then(() => 'flood')]);
    expect(first).toBe('other');
    await flood;
  });

  it('holds at most 256 refusals of one client: past them it answers at once', async () => {
    const { port } = await listening(0.001, 1);
    await get(port, '127.0.0.1');
    const started = performance.now();
    const times = await Promise.all(
      Array.from({ length: 300 }, () =>
        get(port, '127.0.0.1').then((answer) => {
          expect(answer.status).toBe(429);
          return performance.now() - started;
        }),
      ),
    );
    expect(times.filter((ms) => ms < 900)).toHaveLength(44);
  });

  it('closes a refused connection whose body it did not read', async () => {
    const { port } = await listening(0.001, 1);
    await get(port, '127.0.0.1');
    const answer = await new Promise<string | undefined>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/healthz', method: 'POST', localAddress: '127.0.0.1' },
        (res) => {
          res.resume();
          resolve(res.headers.connection);
        },
      );
      req.on('error', reject);
      req.end('x'.repeat(10_000));
    });
    expect(answer).toBe('close');
  });

  it('behind a proxy, counts each client by the address the proxy added', async () => {
    const { port } = await listening(0.001, 3, true);
    const from = (client: string) =>
      get(port, '127.0.0.1', { 'x-forwarded-for': `10.9.9.9, ${client}` });
    const a = await Promise.all(Array.from({ length: 5 }, () => from('203.0.113.7')));
    expect(a.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429]);
    expect((await from('203.0.113.8')).status).toBe(200);
    // The client's own first entries change nothing.
    const forged = await get(port, '127.0.0.1', { 'x-forwarded-for': '1.2.3.4, 203.0.113.7' });
    expect(forged.status).toBe(429);
  });

  it('keeps at most maxClients buckets, and a flooding client stays refused meanwhile', () => {
    let now = 0;
    const budget = createRequestBudget({ rate: 1, burst: 2, maxClients: 100, now: () => now });
    expect([budget.take('flood'), budget.take('flood'), budget.take('flood')]).toEqual([0, 0, 1]);
    for (let i = 0; i < 10_000; i += 1) {
      now += 0.01;
      expect(budget.take(`10.0.${i >> 8}.${i & 255}`)).toBe(0);
      if (i % 50 === 0) expect(budget.take('flood')).toBeGreaterThan(0);
    }
    expect(budget.size).toBeLessThanOrEqual(100);
    expect(budget.take('flood')).toBeGreaterThan(0);
  });

  it('forgets a client whose budget has refilled', () => {
    let now = 0;
    const budget = createRequestBudget({ rate: 10, burst: 10, maxClients: 3, now: () => now });
    for (const client of ['a', 'b', 'c']) budget.take(client);
    now += 2000;
    budget.take('d');
    expect(budget.size).toBe(1);
  });

  it('is off when CLIENT_REQUEST_RATE is 0', () => {
    expect(requestBudgetOf({ clientRequestRate: 0 })).toBeUndefined();
    expect(requestBudgetOf({ clientRequestRate: 5 })?.take('a')).toBe(0);
  });
});

/**
 * A production start (NODE_ENV=production, mail over SMTP to a local sink) attacked from
 * outside, as a stranger on the network would: what it refuses to start with, what it does
 * not serve, and the account attacks (takeover, parallel guessing, code floods).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink } from '../helpers/smtp-sink';
import { startServer, type TestServer } from '../helpers/server';

const ADMIN = { email: 'ops@example.com', password: 'a-production-admin-password' };
const PRODUCTION = {
  NODE_ENV: 'production',
  ADMIN_EMAIL: ADMIN.email,
  PUBLIC_URL: 'https://avatars.example',
};

/** Requests a second each client may make; four seconds' worth at once. */
const RATE = 25;

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: TestServer;
const mailedCodes: string[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
  server = await startServer({
    ...PRODUCTION,
    ADMIN_PASSWORD: ADMIN.password,
    SMTP_URL: sink.url,
    // A budget the file's tests stay within (100 requests at once) and its flood does not.
    CLIENT_REQUEST_RATE: String(RATE),
  });
});
afterAll(async () => {
  await server?.stop();
  await sink?.close();
});

async function call(path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json().catch(() => null)) as {
    data?: { refreshToken?: string };
    code?: string;
  } | null;
  return { status: response.status, json, headers: response.headers };
}

async function codeMailedTo(email: string, pattern: RegExp): Promise<string> {
  const text = await sink.waitFor(email, pattern);
  const code = /code is (\d{6})/.exec(text)?.[1];
  if (!code) throw new Error(`no code in the mail to ${email}`);
  mailedCodes.push(code);
  return code;
}

let counter = 0;
const address = (name: string) => `${name}.${(counter += 1)}.${process.pid}@example.com`;

describe('a production start', () => {
  it('refuses the published admin password and says how to set one', async () => {
    const { PUBLIC_URL: _, ...withoutAddress } = PRODUCTION;
    // Three starts at once: each fails on its configuration before it opens a database.
    await Promise.all([
      expect(startServer({ ...PRODUCTION, SMTP_URL: sink.url })).rejects.toThrow(
        /ADMIN_PASSWORD must be set to a password of your own/,
      ),
      expect(
        startServer({ ...PRODUCTION, ADMIN_PASSWORD: 'short-pass', SMTP_URL: sink.url }),
      ).rejects.toThrow(/at least 12 characters/),
      expect(
        startServer({ ...withoutAddress, ADMIN_PASSWORD: ADMIN.password, SMTP_URL: sink.url }),
      ).rejects.toThrow(/PUBLIC_URL must be set with NODE_ENV=production/),
    ]);
  });

  it('serves no /dev route, no demo user and no source map', async () => {
    expect((await call('/dev/mailbox')).status).toBe(404);
    const demo = await call('/v1/auth/login', {
      email: 'demo@avatar.studio',
      password: 'avatar-studio-demo',
    });
    expect(demo.status).toBe(401);
    const html = await (await fetch(server.url)).text();
    // The app's entry, whose map the build wrote beside it (the page's loader is inline).
    const script = /<link[^>]+href="(\/assets\/[^"]+\.js)"[^>]*data-entry/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${server.url}${script}`)).status).toBe(200);
    for (const map of [`${script}.map`, `${script}.map.br`, `${script}.map.gz`]) {
      expect((await fetch(`${server.url}${map}`)).status, map).toBe(404);
    }
    // The admin signs in with the password the operator set.
    expect((await call('/v1/auth/login', ADMIN)).status).toBe(200);
  });

  it('answers with security headers: pages unframeable but /embed, API answers never cached', async () => {
    const page = await fetch(`${server.url}/assets`);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get('content-security-policy')).not.toMatch(
      /'unsafe-inline'[^;]*;.*script/,
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const embed = await fetch(`${server.url}/embed`);
    expect(embed.headers.get('content-security-policy')).toMatch(/frame-ancestors \*/);
    const api = await call('/v1/users/me');
    expect(api.status).toBe(401);
    expect(api.headers.get('cache-control')).toBe('no-store');
  });

  it("takes a stranger's password away once the owner proves the address with a code", async () => {
    const email = address('owner');
    const stranger = await call('/v1/auth/signup', { email, password: 'strangers-password' });
    expect(stranger.status).toBe(200);
    expect((await call('/v1/auth/request-login-code', { email })).status).toBe(200);
    const code = await codeMailedTo(email, /sign-in code/);
    expect((await call('/v1/auth/login', { email, code })).status).toBe(200);
    const login = await call('/v1/auth/login', { email, password: 'strangers-password' });
    expect(login.status).toBe(401);
    const refresh = await call('/v1/auth/refresh', {
      refreshToken: stranger.json?.data?.refreshToken,
    });
    expect(refresh.status).toBe(401);
    await sink.waitFor(email, /password was removed/);
  });

  it('checks five parallel password guesses for an address from one client and refuses the rest', async () => {
    const email = address('target');
    expect((await call('/v1/auth/signup', { email, password: 'the-real-password' })).status).toBe(
      200,
    );
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('/v1/auth/login', { email, password: `guess-number-${i}` }),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    // docs/api.md "Sessions": 5 wrong passwords for one address from one client a day.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });

  it('caps wrong one-time codes from one client', async () => {
    const email = address('codes');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      statuses.push((await call('/v1/auth/login', { email, code: String(100000 + i) })).status);
    }
    // docs/api.md "Sessions": 10 wrong codes from one client a day, then back-off.
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('limits mail per client; a forged X-Forwarded-For does not buy more', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const forged = { 'x-forwarded-for': `203.0.113.${i}` };
      statuses.push(
        (await call('/v1/users/reset-password', { email: address('r') }, forged)).status,
      );
    }
    // Earlier tests of this file sent mail from this client too: the limit comes sooner.
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(20);
  });

  it('writes no password and no one-time code to its log', () => {
    const log = server.output();
    expect(log).toContain('listening');
    for (const secret of [
      ADMIN.password,
      'strangers-password',
      'the-real-password',
      ...mailedCodes,
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  // Last: the flood spends this address's budget for any test after it.
  it('answers a flood from one address 429 with Retry-After before the app, and serves another address', async () => {
    const { port } = new URL(server.url);
    const get = (from: string) =>
      new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
        const req = request({ port, path: '/healthz', localAddress: from }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const logged = server.output().length;
    const started = Date.now();
    const flood = await Promise.all(Array.from({ length: 400 }, () => get('127.0.0.1')));
    const seconds = (Date.now() - started) / 1000;
    const refused = flood.filter((answer) => answer.status === 429);
    // At most the budget at once and what it refilled meanwhile were served.
    expect(flood.length - refused.length).toBeLessThanOrEqual(RATE * (4 + seconds + 1));
    expect(refused.length).toBeGreaterThan(0);
    expect(Number(refused[0]!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(refused[0]!.body)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect((await get('127.0.0.2')).status).toBe(200);
    // The requests served are logged one by one, the refused ones are not.
    const log = server.output().slice(logged);
    expect(log).toMatch(/"status":200/);
    expect(log).not.toMatch(/"status":429/);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiErrorSchema, devMailSchema } from '../contract/schemas';
import { failingDb } from './test-db';
import { createDevMailbox } from './mail';
import { expectError, testConfig, uniqueEmail, useTestApp } from './test-app';
import { captureLog } from './test-log';

const t = useTestApp();

const JSON_ROUTES: [method: string, path: string][] = [
  ['POST', '/v1/auth/signup'],
  ['POST', '/v1/auth/signup/passwordless'],
  ['POST', '/v1/auth/request-login-code'],
  ['POST', '/v1/auth/login'],
  ['POST', '/v1/auth/refresh'],
  ['POST', '/v1/auth/logout'],
  ['POST', '/v1/users/reset-password'],
  ['PATCH', '/v1/users/password-by-code'],
  ['POST', '/v1/users/verify'],
];

describe('bad input never causes a 500', () => {
  it('answers 400 INVALID_JSON for malformed JSON', async () => {
    for (const [method, path] of JSON_ROUTES) {
      for (const raw of ['{', '{"email":', "{'a':1}", '', 'undefined', '{"a":1}}']) {
        const response = await t.request(method, path, {
          raw,
          headers: { 'content-type': 'application/json' },
        });
        expectError(response, 400, 'INVALID_JSON');
      }
    }
  });

  it('answers 415 for a body that is not declared as JSON', async () => {
    for (const [method, path] of JSON_ROUTES) {
      const body = JSON.stringify({ email: uniqueEmail() });
      const variants: Record<string, string>[] = [
        {},
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/jsonx' },
      ];
      for (const headers of variants) {
        expectError(
          await t.request(method, path, { raw: body, headers }),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        );
      }
    }
  });

  it('answers 413 for an oversized body, whatever the method that may carry one', async () => {
    const raw = JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) });
    // GET and HEAD skip the check (no handler of theirs reads a body); every other method keeps it,
    // before any token is asked for.
    for (const [method, path] of [
      ['POST', '/v1/auth/login'],
      ['PUT', '/v1/tags/x'],
      ['PATCH', '/v1/assets/x'],
      ['DELETE', '/v1/assets/x/application'],
    ] as const) {
      const response = await t.request(method, path, {
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    }
  });

  it('answers a readable 400 for wrong types and missing fields', async () => {
    const body = expectError(
      await t.post('/v1/auth/login', { email: 42 }),
      400,
      'VALIDATION_ERROR',
    );
    expect(body.message).toMatch(/^email: /);
    const missing = expectError(await t.post('/v1/users/reset-password', {}), 400);
    expect(missing.message).toMatch(/email/);
  });

  it('survives a fuzz loop of hostile bodies on every JSON route', async () => {
    const values: unknown[] = [
      null,
      true,
      0,
      -1,
      1e308,
      '',
      'x'.repeat(5000),
      [],
      [1, 2],
      {},
      { $gt: '' },
      '\u0000',
      "'; DROP TABLE users; --",
      '../../etc/passwd',
      'fuzz@example.com',
      '123456',
      'password-123',
      { nested: { deep: [{}] } },
    ];
    const fields = ['email', 'password', 'code', 'refreshToken', 'token', 'verificationId'];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const bodies: unknown[] = [...values];
    for (let i = 0; i < 40; i += 1) {
      const body: Record<string, unknown> = {};
      for (const field of fields) {
        if (random() < 0.5) body[field] = values[Math.floor(random() * values.length)];
      }
      bodies.push(body);
    }
    for (const [method, path] of JSON_ROUTES) {
      for (const body of bodies) {
        const response = await t.request(method, path, { body });
        expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        if (response.status >= 400) apiErrorSchema.parse(response.body);
      }
    }
  });

  it('answers 404 NOT_FOUND for unknown routes and 405 for a method a route lacks', async () => {
    expectError(await t.get('/v1/auth/login'), 405, 'METHOD_NOT_ALLOWED');
    expectError(await t.request('PUT', '/v1/users/me'), 405, 'METHOD_NOT_ALLOWED');
    expectError(await t.get('/v1'), 404, 'NOT_FOUND');
  });
});

describe('GET /healthz', () => {
  it('answers ok', async () => {
    const response = await t.get('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });
});

describe('GET /dev/mailbox', () => {
  it('lists the mails sent to an address, newest first', async () => {
    const email = uniqueEmail();
    await t.post('/v1/auth/signup/passwordless', { email });
    await t.post('/v1/auth/request-login-code', { email: email.toUpperCase() });
    await t.deliverMail();
    const response = await t.get(`/dev/mailbox?to=${encodeURIComponent(email)}`);
    expect(response.status).toBe(200);
    const data = z.array(devMailSchema).parse((response.body as { data: unknown }).data);
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ to: email, kind: 'login', verificationId: null });
    expect(data[0]!.code).toMatch(/^\d{6}$/);
    expect(data[0]!.sentAt).toBe(t.clock.current.toISOString());
  });

  it('rejects a malformed address', async () => {
    expectError(await t.get('/dev/mailbox?to=nope'), 400, 'VALIDATION_ERROR');
  });

  it('does not exist in production', async () => {
    const mailbox = createDevMailbox();
    const app = t.createApp({
      db: t.db,
      mail: mailbox,
      mailbox,
      config: testConfig({
        NODE_ENV: 'production',
        ADMIN_PASSWORD: 'a-long-production-password',
        SMTP_URL: 'smtp://127.0.0.1:2525',
        PUBLIC_URL: 'https://avatars.example',
      }),
    });
    const response = await app.request('/dev/mailbox');
    expect(response.status).toBe(404);
    apiErrorSchema.parse(await response.json());
  });
});

describe('unexpected failures', () => {
  it('answer a generic 500 without details and log the cause', async () => {
    const failing = failingDb('secret internal detail');
    const log = captureLog();
    try {
      const mailbox = createDevMailbox();
      const app = t.createApp({ db: failing, mail: mailbox, config: testConfig() });
      const response = await app.request(`/v1/users/email/${uniqueEmail()}`);
      expect(response.status).toBe(500);
      const body = apiErrorSchema.parse(await response.json());
      expect(body).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
      expect(JSON.stringify(body)).not.toMatch(/secret internal detail|at /);
      expect(log.text()).toMatch(/secret internal detail/);
      expect((await app.request('/healthz')).status).toBe(503);
    } finally {
      log.restore();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { log, prettyLine } from './log';
import { createDevMailbox } from './mail';
import { captureLog } from './test-log';
import { ADMIN, testConfig, uniqueEmail, useTestApp } from './test-app';
import { failingDb } from './test-db';

const t = useTestApp();

/** The request lines logged so far. */
const requestLines = (captured: ReturnType<typeof captureLog>) =>
  captured.entries().filter((entry) => entry.msg === 'request');

describe('the request log', () => {
  it('writes one line per request: its id, method, route pattern, status, time and caller', async () => {
    const session = await t.loginAs('admin');
    const captured = captureLog();
    const response = await t.request('GET', `/private/v1/users/${session._id}/sessions`, {
      token: session.token,
      headers: { 'x-request-id': 'proxy-7f3a.2' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('proxy-7f3a.2');
    const lines = requestLines(captured);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      reqId: 'proxy-7f3a.2',
      method: 'GET',
      route: '/private/v1/users/:id/sessions',
      status: 200,
      userId: session._id,
      role: 'admin',
    });
    expect(lines[0]!.durationMs).toEqual(expect.any(Number));
  });

  it('names the route by its pattern, never by the address (an e-mail here)', async () => {
    const captured = captureLog();
    const email = uniqueEmail();
    const response = await t.get(`/v1/users/email/${email}`);
    expect(requestLines(captured)).toMatchObject([
      { method: 'GET', route: '/v1/users/email/:email', status: response.status },
    ]);
    expect(captured.text()).not.toContain(email);
  });

  it('makes an id of its own when the caller sends none or one that is not a plain token', async () => {
    const captured = captureLog();
    const ids: string[] = [];
    for (const sent of [undefined, 'a'.repeat(129), 'has spaces', 'semi;colon', 'ünïcode']) {
      const response = await t.request('GET', '/healthz', {
        headers: sent === undefined ? {} : { 'x-request-id': sent },
      });
      const id = response.headers.get('x-request-id') ?? '';
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(requestLines(captured).map((line) => line.reqId)).toEqual(ids);
    expect(requestLines(captured)[0]).toMatchObject({ route: '/healthz', status: 200 });
    expect(requestLines(captured)[0]).not.toHaveProperty('userId');
  });

  it('never shows a password, a token or a code a request carried', async () => {
    const password = 'correct-horse-battery-staple-41';
    const email = uniqueEmail('secret');
    const session = await t.signUp(email, password);
    const captured = captureLog();
    await t.post('/v1/auth/login', { email, password });
    await t.post('/v1/auth/login', { email: ADMIN.email, password: 'wrong-password-for-the-log' });
    await t.post('/v1/auth/refresh', { refreshToken: session.refreshToken });
    await t.get('/v1/users/me', session.token);
    await t.post('/v1/invitations/lookup', { token: 'invitation-token-in-a-body-0001' });
    await t.get('/v1/activity?token=invitation-token-in-a-query-0002&lastEventId=99');
    await t.request('GET', '/invitation?token=invitation-token-in-a-page-0003');
    await t.post('/v1/users/me/second-factor/confirm', { code: '914283' }, session.token);
    // What a request logged: a line each, and nothing it carried.
    expect(requestLines(captured).length).toBeGreaterThanOrEqual(8);
    const text = captured.text();
    for (const secret of [
      password,
      'wrong-password-for-the-log',
      session.refreshToken,
      session.token,
      'invitation-token-in-a',
      'lastEventId',
      '914283',
      email,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('ties what a request logs to its id (an unexpected failure)', async () => {
    const app = t.createApp({
      db: failingDb('secret internal detail'),
      mail: createDevMailbox(),
      config: testConfig(),
    });
    const captured = captureLog();
    const response = await app.request(`/v1/users/email/${uniqueEmail()}`, {
      headers: { 'x-request-id': 'trace-500' },
    });
    expect(response.status).toBe(500);
    const failure = captured.entries().find((entry) => entry.msg === 'Unhandled error');
    expect(failure).toMatchObject({ level: 'error', reqId: 'trace-500' });
    expect(failure!.err).toMatchObject({ message: 'secret internal detail' });
  });
});

describe('the logger', () => {
  it('replaces values under the names of secrets, whoever logs them', () => {
    const captured = captureLog();
    log.child({ job: 'mail' }).warn(
      {
        password: 'p-1',
        token: 't-1',
        code: '123456',
        body: { refreshToken: 'r-1', newPassword: 'p-2', recoveryCode: 'rc-1', email: 'kept' },
        headers: { authorization: 'Bearer a-1', cookie: 'c-1' },
      },
      'A line',
    );
    const [entry] = captured.entries();
    expect(entry).toMatchObject({
      level: 'warn',
      job: 'mail',
      password: '[redacted]',
      token: '[redacted]',
      code: '[redacted]',
      body: { refreshToken: '[redacted]', newPassword: '[redacted]', email: 'kept' },
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
    });
    expect(captured.text()).not.toMatch(/p-1|t-1|123456|r-1|p-2|rc-1|a-1|c-1/);
  });

  it('replaces secrets at any depth, and keeps the codes of errors', () => {
    const captured = captureLog();
    log.error(
      {
        err: Object.assign(new Error('Insert failed'), { code: '23505' }),
        upstream: { attempt: { code: 'ECONNREFUSED' } },
        request: { body: { user: { password: 'deep-p', token: 'deep-t', code: '654321' } } },
        recovery: { one: { two: { code: 'abcde-12345', secret: 'deep-s', attempts: 3 } } },
      },
      'A deep line',
    );
    const text = captured.text();
    expect(text).not.toMatch(/deep-p|deep-t|654321|abcde-12345|deep-s/);
    const [entry] = captured.entries();
    expect(entry).toMatchObject({
      err: { code: '23505' },
      upstream: { attempt: { code: 'ECONNREFUSED' } },
      request: {
        body: { user: { password: '[redacted]', token: '[redacted]', code: '[redacted]' } },
      },
      recovery: { one: { two: { code: '[redacted]', secret: '[redacted]', attempts: 3 } } },
    });
  });

  it('masks every e-mail address, in the message and at any depth, keeping the line readable', () => {
    const captured = captureLog();
    const victim = 'victim.person@private-domain.example';
    const refusal = Object.assign(new Error(`550 5.1.1 <${victim}>: Recipient address rejected`), {
      recipient: victim,
    });
    const failure = Object.assign(new Error("Can't send mail - all recipients were rejected"), {
      code: 'EENVELOPE',
      rejected: [victim, 'Zoë.Ünïcode@exämple.example'],
      rejectedErrors: [refusal],
    });
    log.error(
      {
        err: failure,
        deep: { a: { b: { c: { d: [`"${victim}"`, `line one\n${victim}`, `\t${victim}`] } } } },
        [victim]: 'an address as a key',
      },
      `Mail to ${victim} failed`,
    );
    const text = captured.text();
    expect(text).not.toMatch(/private-domain|victim|Zoë|exämple/);
    const [entry] = captured.entries();
    expect(entry).toMatchObject({
      msg: 'Mail to [email] failed',
      err: { rejected: ['[email]', '[email]'], rejectedErrors: [{ recipient: '[email]' }] },
      deep: { a: { b: { c: { d: ['"[email]"', 'line one\n[email]', '\t[email]'] } } } },
    });
    // What is not an address stays: package versions, scoped paths, a bare @.
    log.info('nodemailer@6.9.1 at /app/node_modules/@hono/node-server/dist/index.js, @ noon');
    expect(captured.entries()[1]!.msg).toBe(
      'nodemailer@6.9.1 at /app/node_modules/@hono/node-server/dist/index.js, @ noon',
    );
  });

  it('writes a readable line in the pretty format', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 'warn',
        time: '2030-01-01T12:34:56.789Z',
        msg: 'Mail failed',
        job: 'mail',
        attempts: 2,
        err: { message: 'refused', stack: 'Error: refused\n    at send' },
      }),
    );
    expect(line).toBe(
      '12:34:56.789 WARN  Mail failed job=mail attempts=2\nError: refused\n    at send\n',
    );
  });
});

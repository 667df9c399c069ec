/**
 * Sessions end when they are ended: signing out, ending a session from the list, a password
 * reset, disabling the user and a role change reach the access tokens at the next request, on
 * every server of the database; and the sessions API (server/routes/sessions.ts).
 */
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  authResultSchema,
  sessionInfoSchema,
  sessionsEndedSchema,
  type AuthResult,
} from '../contract/schemas';
import { createSessionCheck } from './auth/session-check';
import { createPgDb, type Db } from './db';
import { createDevMailbox } from './mail';
import { newId } from './ids';
import { dataOf, expectError, uniqueEmail, useTestApp, type JsonResponse } from './test-app';
import { captureLog } from './test-log';

const t = useTestApp();
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const PASSWORD = 'password-123';
const sessionListSchema = z.array(sessionInfoSchema);

const me = (token: string) => t.get('/v1/users/me', token);
const refresh = (refreshToken: string) => t.post('/v1/auth/refresh', { refreshToken });
const sessionsOf = async (token: string) =>
  sessionListSchema.parse(dataOf(await t.get('/v1/users/me/sessions', token)));
const endedOf = (response: JsonResponse) => sessionsEndedSchema.parse(dataOf(response)).ended;

async function expectEnded(token: string) {
  expect(expectError(await me(token), 401, 'UNAUTHORIZED').message).toBe(
    'This session has ended: sign in again',
  );
}

/** Signs in `email` from a client of its own (address and user agent). */
async function loginFrom(email: string, client: string, userAgent: string): Promise<AuthResult> {
  const response = await t.request('POST', '/v1/auth/login', {
    body: { email, password: PASSWORD },
    headers: { 'x-forwarded-for': client, 'user-agent': userAgent },
  });
  return authResultSchema.parse(dataOf(response));
}

async function someAssetId(): Promise<string> {
  const id = newId();
  await t.db.query(
    `INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
     VALUES ($1, 'Session test asset', 'outfit', 'female', 1, $2, $2)`,
    [id, t.clock.current],
  );
  return id;
}

describe('access tokens end with their session', () => {
  it('names the session in a sid claim, the same across refreshes', async () => {
    const session = await t.signUp();
    const { sid } = decodeJwt(session.token);
    expect(typeof sid).toBe('string');
    const next = authResultSchema.parse(dataOf(await refresh(session.refreshToken)));
    expect(decodeJwt(next.token).sid).toBe(sid);
    // Anonymous users have sessions too.
    const guest = await t.signUpAnonymous();
    dataOf(await me(guest.token));
    dataOf(await t.post('/v1/auth/logout', { refreshToken: guest.refreshToken }));
    await expectEnded(guest.token);
  });

  it('refuses a signed-out access token at the very next request, and every replay of it', async () => {
    const session = await t.signUp();
    dataOf(await me(session.token));
    dataOf(await t.post('/v1/auth/logout', { refreshToken: session.refreshToken }));
    await expectEnded(session.token);
    await expectEnded(session.token);
    expectError(await t.get('/v1/assets?limit=1', session.token), 401, 'UNAUTHORIZED');
    expectError(await refresh(session.refreshToken), 401, 'REFRESH_TOKEN_REVOKED');
  });

  it('refuses every access token of the user after a password reset', async () => {
    const email = uniqueEmail();
    const first = await t.signUp(email, PASSWORD);
    const second = await t.login(email, PASSWORD);
    const refreshed = authResultSchema.parse(dataOf(await refresh(second.refreshToken)));
    for (const token of [first.token, second.token, refreshed.token]) dataOf(await me(token));
    dataOf(await t.post('/v1/users/reset-password', { email }));
    const code = (await t.lastMail(email, 'reset')).code!;
    dataOf(
      await t.patch('/v1/users/password-by-code', { email, code, password: 'new-password-456' }),
    );
    for (const token of [first.token, second.token, refreshed.token]) await expectEnded(token);
  });

  it('refuses a disabled user: sessions, sign-in and refresh', async () => {
    const email = uniqueEmail();
    const session = await t.signUp(email, PASSWORD);
    dataOf(await me(session.token));
    // Behind the servers' back (no admin route yet): the notification alone reaches them.
    await t.db.query('UPDATE users SET disabled_at = $2 WHERE id = $1', [
      session._id,
      t.clock.current,
    ]);
    await within(1000, async () => (await me(session.token)).status === 401);
    await expectEnded(session.token);
    expectError(await refresh(session.refreshToken), 403, 'ACCOUNT_DISABLED');
    expectError(
      await t.post('/v1/auth/login', { email, password: PASSWORD }),
      403,
      'ACCOUNT_DISABLED',
    );
    // A wrong password still says only that.
    expectError(await t.post('/v1/auth/login', { email, password: 'wrong-password' }), 401);
    await t.db.query('UPDATE users SET disabled_at = NULL WHERE id = $1', [session._id]);
    dataOf(await me((await t.login(email, PASSWORD)).token));
  });

  it('refuses a token once its session has expired, whatever the token says', async () => {
    const session = await t.signUp();
    await t.db.query('UPDATE sessions SET expires_at = $2 WHERE id = $1', [
      decodeJwt(session.token).sid as string,
      t.clock.current,
    ]);
    await expectEnded(session.token);
  });

  it('still refuses tampered, expired and sid-less tokens', async () => {
    const session = await t.signUp();
    const [header, payload, signature] = session.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const otherSession = decodeJwt((await t.signUp()).token).sid;
    const bad = [
      // Another (live) session's id in this token: the signature no longer matches.
      `${header}.${encode({ ...claims, sid: otherSession })}.${signature}`,
      `${header}.${encode({ ...claims, sid: undefined })}.${signature}`,
    ];
    for (const token of bad) {
      expect(expectError(await me(token), 401, 'UNAUTHORIZED').message).toBe(
        'Invalid access token',
      );
    }
    t.advance(t.config.accessTokenTtl * 1000 + 1);
    expect(expectError(await me(session.token), 401, 'UNAUTHORIZED').message).toBe(
      'Access token expired',
    );
  });
});

describe('a role change applies at the next request', () => {
  it('refuses the old token of a demoted developer; the refreshed one gets 403 on updates', async () => {
    const admin = await t.loginAs('admin');
    const developer = await t.loginAs('developer');
    const asset = await someAssetId();
    const lock = (token: string) =>
      t.request('PUT', `/v1/assets/${asset}/lock`, { body: {}, token });
    dataOf(await lock(developer.token));
    dataOf(await t.patch(`/private/v1/users/${developer._id}`, { role: 'user' }, admin.token));
    const stale = expectError(await lock(developer.token), 401, 'UNAUTHORIZED');
    expect(stale.message).toBe('Your role has changed: refresh the access token');
    const next = authResultSchema.parse(dataOf(await refresh(developer.refreshToken)));
    expect(next.role).toBe('user');
    expectError(await lock(next.token), 403, 'FORBIDDEN');
    // Promoted again: the same at once, the other way.
    dataOf(await t.patch(`/private/v1/users/${developer._id}`, { role: 'developer' }, admin.token));
    expectError(await lock(next.token), 401, 'UNAUTHORIZED');
    const promoted = authResultSchema.parse(dataOf(await refresh(next.refreshToken)));
    dataOf(await lock(promoted.token));
  });
});

describe('the sessions API', () => {
  it('lists the live sessions with where they started; ending one leaves the other working', async () => {
    const email = uniqueEmail();
    const first = await t.signUp(email, PASSWORD);
    const phone = await loginFrom(email, '10.200.0.1', 'Phone browser/1.0');
    const laptop = await loginFrom(email, '10.200.0.2', 'Laptop browser/2.0');
    t.advance(60_000);
    const refreshed = authResultSchema.parse(dataOf(await refresh(phone.refreshToken)));
    const list = await sessionsOf(laptop.token);
    const phoneId = decodeJwt(phone.token).sid as string;
    const laptopId = decodeJwt(laptop.token).sid as string;
    expect(list.map((s) => s.id)).toEqual([phoneId, expect.any(String), expect.any(String)]);
    expect(list.find((s) => s.id === phoneId)).toMatchObject({
      clientAddress: '10.200.0.1',
      userAgent: 'Phone browser/1.0',
      current: false,
      lastUsedAt: t.clock.current.toISOString(),
    });
    expect(list.find((s) => s.id === laptopId)).toMatchObject({
      clientAddress: '10.200.0.2',
      userAgent: 'Laptop browser/2.0',
      current: true,
    });
    expect(list.filter((s) => s.current)).toHaveLength(1);

    expect(
      endedOf(
        await t.request('DELETE', `/v1/users/me/sessions/${phoneId}`, { token: laptop.token }),
      ),
    ).toBe(1);
    await expectEnded(refreshed.token);
    await expectEnded(phone.token);
    expectError(await refresh(refreshed.refreshToken), 401, 'REFRESH_TOKEN_REVOKED');
    dataOf(await me(laptop.token));
    dataOf(await me(first.token));
    expect((await sessionsOf(laptop.token)).map((s) => s.id)).not.toContain(phoneId);
    // Ending it again: it is no longer live.
    expectError(
      await t.request('DELETE', `/v1/users/me/sessions/${phoneId}`, { token: laptop.token }),
      404,
      'NOT_FOUND',
    );
  });

  it("ends all other sessions, or all with ?all=true; never another user's", async () => {
    const email = uniqueEmail();
    const first = await t.signUp(email, PASSWORD);
    const second = await t.login(email, PASSWORD);
    const third = await t.login(email, PASSWORD);
    const stranger = await t.signUp();
    const strangerSid = decodeJwt(stranger.token).sid as string;
    // Someone else's session id answers like an unknown one, and stays live.
    for (const id of [strangerSid, 'no-such-session']) {
      expectError(
        await t.request('DELETE', `/v1/users/me/sessions/${id}`, { token: first.token }),
        404,
      );
    }
    dataOf(await me(stranger.token));
    expectError(
      await t.request('DELETE', '/v1/users/me/sessions?all=yes', { token: first.token }),
      400,
      'VALIDATION_ERROR',
    );
    expect(
      endedOf(await t.request('DELETE', '/v1/users/me/sessions', { token: first.token })),
    ).toBe(2);
    await expectEnded(second.token);
    await expectEnded(third.token);
    dataOf(await me(first.token));
    expect(
      endedOf(await t.request('DELETE', '/v1/users/me/sessions?all=true', { token: first.token })),
    ).toBe(1);
    await expectEnded(first.token);
    expectError(await refresh(first.refreshToken), 401, 'REFRESH_TOKEN_REVOKED');
    dataOf(await me(stranger.token));
    expectError(await t.get('/v1/users/me/sessions'), 401, 'UNAUTHORIZED');
  });

  it('lets an administrator (manage User) list and end the sessions of a user', async () => {
    const admin = await t.loginAs('admin');
    const developer = await t.loginAs('developer');
    const email = uniqueEmail();
    const first = await t.signUp(email, PASSWORD);
    const second = await t.login(email, PASSWORD);
    const base = `/private/v1/users/${first._id}/sessions`;
    for (const token of [developer.token, first.token]) {
      expectError(await t.get(base, token), 403, 'FORBIDDEN');
      expectError(await t.request('DELETE', base, { token }), 403, 'FORBIDDEN');
    }
    const list = sessionListSchema.parse(dataOf(await t.get(base, admin.token)));
    expect(list).toHaveLength(2);
    expect(list.every((s) => !s.current)).toBe(true);
    const secondId = decodeJwt(second.token).sid as string;
    expect(endedOf(await t.request('DELETE', `${base}/${secondId}`, { token: admin.token }))).toBe(
      1,
    );
    await expectEnded(second.token);
    dataOf(await me(first.token));
    // A session of another user is not found under this one.
    const adminSid = decodeJwt(admin.token).sid as string;
    expectError(await t.request('DELETE', `${base}/${adminSid}`, { token: admin.token }), 404);
    dataOf(await me(admin.token));
    expect(endedOf(await t.request('DELETE', base, { token: admin.token }))).toBe(1);
    await expectEnded(first.token);
    expectError(await t.get(`/private/v1/users/${newId()}/sessions`, admin.token), 404);
  });
});

/** Polls `check` until it holds, failing after `ms`: what another server sees takes a moment. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('two servers on one database', () => {
  it('a logout, a role change, disabling and a password reset through server A end the token on server B within a second', async () => {
    // On PostgreSQL, B has a connection pool of its own; on PGlite both share the database.
    const dbB: Db = onPostgres ? createPgDb(await urlOf(t.db)) : t.db;
    const sessionsB = createSessionCheck(dbB);
    const appB = t.createApp({
      db: dbB,
      sessions: sessionsB,
      config: t.config,
      mail: createDevMailbox(),
      now: () => new Date(t.clock.current),
    });
    const onB = (token: string) =>
      appB.request('/v1/users/me', { headers: { authorization: `Bearer ${token}` } });
    try {
      const session = await t.signUp();
      const role = await t.loginAs('developer');
      const admin = await t.loginAs('admin');
      // B has both sessions cached as live.
      expect((await onB(session.token)).status).toBe(200);
      expect((await onB(role.token)).status).toBe(200);
      dataOf(await t.post('/v1/auth/logout', { refreshToken: session.refreshToken }));
      await within(1000, async () => (await onB(session.token)).status === 401);
      dataOf(await t.patch(`/private/v1/users/${role._id}`, { role: 'user' }, admin.token));
      await within(1000, async () => (await onB(role.token)).status === 401);

      const disabled = await t.signUp();
      const reset = await t.signUp();
      for (const who of [disabled, reset]) expect((await onB(who.token)).status).toBe(200);
      dataOf(await t.post(`/private/v1/users/${disabled._id}/disable`, {}, admin.token));
      await within(1000, async () => (await onB(disabled.token)).status === 401);
      const email = reset.email!;
      dataOf(await t.post('/v1/users/reset-password', { email }));
      const { code } = await t.lastMail(email, 'reset');
      const password = 'a password after the reset';
      dataOf(await t.patch('/v1/users/password-by-code', { email, code, password }));
      await within(1000, async () => (await onB(reset.token)).status === 401);
    } finally {
      await sessionsB.close();
      if (dbB !== t.db) await dbB.close();
    }
  });

  it.runIf(onPostgres)(
    'a revocation made while the LISTEN connection was lost still applies',
    async () => {
      const session = await t.signUp();
      dataOf(await me(session.token));
      const log = captureLog();
      try {
        const { rows } = await t.db.query<{ cut: boolean }>(
          `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
         WHERE datname = current_database() AND query = 'LISTEN auth_sessions'`,
        );
        expect(rows.map((row) => row.cut)).toEqual([true]);
        // Revoked behind the server's back while it cannot hear: no notification reaches it.
        await t.db.query('UPDATE sessions SET revoked_at = $2 WHERE id = $1', [
          decodeJwt(session.token).sid as string,
          t.clock.current,
        ]);
        await within(1000, async () => (await me(session.token)).status === 401);
      } finally {
        log.restore();
      }
    },
  );
});

/** The address of the test database (PostgreSQL only). */
async function urlOf(db: Db): Promise<string> {
  const { rows } = await db.query<{ name: string }>('SELECT current_database() AS name');
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${rows[0]!.name}`;
  return url.toString();
}

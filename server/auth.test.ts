import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { authResultSchema, signupResultSchema, userSchema } from '../contract/schemas';
import {
  CODE_TTL_MS,
  MAX_CODES_PER_WINDOW,
  MAX_LIVE_CODES,
  RATE_WINDOW_MS,
  RESEND_INTERVAL_MS,
} from './auth/one-time-codes';
import { LIMITS, takeAttempt, type LimitCheck } from './auth/rate-limit';
import type { Db } from './db';
import { dataOf, expectError, uniqueClient, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();
const PASSWORD = 'password-123';

describe('POST /v1/auth/signup', () => {
  it('creates an unverified user, answers a token pair and mails a verification code', async () => {
    const email = uniqueEmail();
    const result = signupResultSchema.parse(
      dataOf(await t.post('/v1/auth/signup', { email, password: PASSWORD })),
    );
    expect(result).toMatchObject({
      email,
      role: 'user',
      verifiedAt: null,
      assets: [],
      wallets: [],
      settings: { isPasswordUpdated: false, isEmailVerified: false },
    });
    const claims = decodeJwt(result.token);
    expect(claims).toMatchObject({ sub: result._id, role: 'user' });
    expect(claims.exp! - claims.iat!).toBe(t.config.accessTokenTtl);
    expect(Array.isArray(claims.ability)).toBe(true);
    const mail = await t.lastMail(email, 'verify');
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain(mail.code);
    expect(mail.text).toContain(mail.verificationId);
    expect(result.verificationId).toBe(mail.verificationId);
  });

  it('answers 409 CONFLICT for a taken e-mail, whatever its case', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    expectError(await t.post('/v1/auth/signup', { email, password: PASSWORD }), 409, 'CONFLICT');
    expectError(
      await t.post('/v1/auth/signup', { email: email.toUpperCase(), password: PASSWORD }),
      409,
      'CONFLICT',
    );
  });

  it('rejects e-mail without password, password without e-mail and bad values', async () => {
    for (const body of [
      { email: uniqueEmail() },
      { password: PASSWORD },
      { email: 'not-an-email', password: PASSWORD },
      { email: uniqueEmail(), password: 'short' },
      { email: uniqueEmail(), password: 12345678 },
    ]) {
      expectError(await t.post('/v1/auth/signup', body), 400, 'VALIDATION_ERROR');
    }
  });

  it('creates an anonymous user without e-mail', async () => {
    const result = authResultSchema.parse(dataOf(await t.post('/v1/auth/signup', {})));
    expect(result).toMatchObject({ role: 'anonymous', email: null, verifiedAt: null });
    expect(decodeJwt(result.token)).toMatchObject({ sub: result._id, role: 'anonymous' });
  });

  it('upgrades the calling anonymous user in place and ends its anonymous sessions', async () => {
    const anonymous = authResultSchema.parse(dataOf(await t.post('/v1/auth/signup', {})));
    const email = uniqueEmail();
    const upgraded = authResultSchema.parse(
      dataOf(await t.post('/v1/auth/signup', { email, password: PASSWORD }, anonymous.token)),
    );
    expect(upgraded).toMatchObject({ _id: anonymous._id, email, role: 'user' });
    const refresh = await t.post('/v1/auth/refresh', { refreshToken: anonymous.refreshToken });
    expect(expectError(refresh, 401).message).toBe('Refresh token revoked');
    expect((await t.login(email, PASSWORD))._id).toBe(anonymous._id);
  });

  it('creates a separate account when the caller is a registered user', async () => {
    const first = await t.signUp();
    const second = authResultSchema.parse(
      dataOf(
        await t.post('/v1/auth/signup', { email: uniqueEmail(), password: PASSWORD }, first.token),
      ),
    );
    expect(second._id).not.toBe(first._id);
  });

  it('answers 401 for an invalid bearer token', async () => {
    const response = await t.post(
      '/v1/auth/signup',
      { email: uniqueEmail(), password: PASSWORD },
      'not.a.jwt',
    );
    expectError(response, 401, 'UNAUTHORIZED');
  });
});

describe('POST /v1/auth/login with a password', () => {
  it('answers the user and a token pair', async () => {
    const email = uniqueEmail();
    const signedUp = await t.signUp(email);
    const result = await t.login(email.toUpperCase(), PASSWORD);
    expect(result._id).toBe(signedUp._id);
    expect(result.refreshToken).not.toBe(signedUp.refreshToken);
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password or unknown user', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const wrong = expectError(
      await t.post('/v1/auth/login', { email, password: 'wrong-password' }),
      401,
      'INVALID_CREDENTIALS',
    );
    const unknown = expectError(
      await t.post('/v1/auth/login', { email: uniqueEmail(), password: PASSWORD }),
      401,
      'INVALID_CREDENTIALS',
    );
    expect(unknown.message).toBe(wrong.message);
  });

  it('answers 401 for a passwordless account', async () => {
    const email = uniqueEmail();
    dataOf(await t.post('/v1/auth/signup/passwordless', { email }));
    expectError(await t.post('/v1/auth/login', { email, password: PASSWORD }), 401);
  });

  it('counts parallel guesses before checking them: five wrong from one client, the rest refused', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const stranger = t.from();
    expect(LIMITS.passwordPerAddressClient.backoff).toMatchObject({ free: 5 });
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        stranger.post('/v1/auth/login', { email, password: `wrong-password-${i}` }),
      ),
    );
    const statuses = guesses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });

  it('a right password does not count as a failure', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    for (let i = 0; i < 15; i += 1)
      dataOf(await t.post('/v1/auth/login', { email, password: PASSWORD }));
    expect(
      await t.db.query('SELECT 1 FROM rate_limit_events WHERE key = $1', [`password:${email}`]),
    ).toMatchObject({ rows: [] });
  });

  it('backs off one client after twenty failures, whatever the addresses', async () => {
    const stranger = t.from();
    expect(LIMITS.passwordPerClient.backoff).toEqual({
      free: 20,
      firstDelayMs: 60 * 1000,
      maxDelayMs: 3600 * 1000,
    });
    const guess = (email: string, client = stranger) =>
      client.post('/v1/auth/login', { email, password: 'wrong-password' });
    for (let i = 0; i < 20; i += 1) expectError(await guess(uniqueEmail()), 401);
    expectError(await guess(uniqueEmail()), 429, 'RATE_LIMITED');
    // Another client is not affected; this one may try again after a minute.
    expectError(await guess(uniqueEmail(), t.from()), 401);
    t.advance(60 * 1000);
    expectError(await guess(uniqueEmail()), 401);
    expectError(await guess(uniqueEmail()), 429, 'RATE_LIMITED');
  });

  it('refuses a client past its own limit before taking the keys every other sign-in takes', async () => {
    const client = uniqueClient();
    // The sign-in's checks (server/routes/auth.ts), for a guess at `email`.
    const checks = (email: string): LimitCheck[] => [
      { key: `password:${email}:${client}`, limit: LIMITS.passwordPerAddressClient },
      { key: `password:${email}`, limit: LIMITS.passwordPerAddress },
      { key: `password-client:${client}`, limit: LIMITS.passwordPerClient },
      { key: 'password:*', limit: LIMITS.passwordGlobal },
    ];
    // The client's 20 free wrong passwords of the day: the next waits for its back-off.
    for (let i = 0; i < 20; i += 1) await takeAttempt(t.db, checks(uniqueEmail()), t.clock.current);
    const locked: unknown[] = [];
    const watched = (db: Db): Db => ({
      query: (sql, params) => {
        if (sql.includes('pg_advisory_xact_lock')) locked.push(params?.[0]);
        return db.query(sql, params);
      },
      exec: (sql) => db.exec(sql),
      transaction: (fn) => db.transaction((tx) => fn(watched(tx))),
      listen: (...args) => db.listen(...args),
      close: () => db.close(),
    });
    const refused = takeAttempt(watched(t.db), checks(uniqueEmail()), t.clock.current);
    await expect(refused).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // A flood of refused guesses neither waits for nor holds the server-wide key.
    expect(locked).toEqual([`limit:password-client:${client}`]);
    // Nor does a client past its own limit at one address, guessing there.
    const email = uniqueEmail();
    const other = uniqueClient();
    const atAddress: LimitCheck[] = [
      { key: `password:${email}:${other}`, limit: LIMITS.passwordPerAddressClient },
      { key: `password:${email}`, limit: LIMITS.passwordPerAddress },
      { key: `password-client:${other}`, limit: LIMITS.passwordPerClient },
      { key: 'password:*', limit: LIMITS.passwordGlobal },
    ];
    for (let i = 0; i < 5; i += 1) await takeAttempt(t.db, atAddress, t.clock.current);
    locked.length = 0;
    await expect(takeAttempt(watched(t.db), atAddress, t.clock.current)).rejects.toMatchObject({
      status: 429,
    });
    expect(locked).toEqual([`limit:password-client:${other}`, `limit:password:${email}:${other}`]);
  });

  it('has a server-wide ceiling of 1000 failures in 15 minutes', async () => {
    expect(LIMITS.passwordGlobal).toMatchObject({ max: 1000, windowMs: 15 * 60 * 1000 });
    // Up to 999 failures in the window, as if spread over many addresses and clients.
    const { rows } = await t.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM rate_limit_events
       WHERE key = 'password:*' AND created_at > $1`,
      [new Date(t.clock.current.getTime() - 15 * 60 * 1000)],
    );
    await t.db.query(
      `INSERT INTO rate_limit_events (key, created_at)
       SELECT 'password:*', $1 FROM generate_series(1, $2::int)`,
      [t.clock.current, 999 - rows[0]!.count],
    );
    const email = uniqueEmail();
    await t.signUp(email);
    const guesser = t.from();
    const wrong = (i: number) => ({ email: uniqueEmail(), password: `wrong-password-${i}` });
    expectError(await guesser.post('/v1/auth/login', wrong(0)), 401);
    // It holds a client past its own first 5 wrong passwords of the day.
    for (let i = 1; i < 5; i += 1) expectError(await guesser.post('/v1/auth/login', wrong(i)), 401);
    expectError(await guesser.post('/v1/auth/login', wrong(5)), 429, 'RATE_LIMITED');
    // Others' failures refuse no one else's right password.
    dataOf(await t.from().post('/v1/auth/login', { email, password: PASSWORD }));
    t.advance(15 * 60 * 1000 + 1000);
    expectError(await guesser.post('/v1/auth/login', wrong(6)), 401);
  });
});

describe('login codes', () => {
  // The owner's device: codes are asked for and entered from one client address.
  const owner = t.from();
  async function requestCode(email: string) {
    dataOf(await owner.post('/v1/auth/request-login-code', { email }));
    return (await t.lastMail(email, 'login')).code!;
  }

  it('passwordless sign-up creates the account and mails a code that logs in and verifies', async () => {
    const email = uniqueEmail();
    expect(dataOf(await t.post('/v1/auth/signup/passwordless', { email }))).toEqual({ sent: true });
    const code = (await t.lastMail(email, 'login')).code;
    const result = authResultSchema.parse(dataOf(await t.post('/v1/auth/login', { email, code })));
    expect(result).toMatchObject({ email, role: 'user', settings: { isEmailVerified: true } });
    expect(result.verifiedAt).toBe(t.clock.current.toISOString());
  });

  it('passwordless sign-up for an existing address only mails a code', async () => {
    const email = uniqueEmail();
    const user = await t.signUp(email);
    dataOf(await t.post('/v1/auth/signup/passwordless', { email }));
    const code = (await t.lastMail(email, 'login')).code;
    expect(userSchema.parse(dataOf(await t.post('/v1/auth/login', { email, code })))._id).toBe(
      user._id,
    );
  });

  it('answers the same for unknown addresses and mails nothing', async () => {
    const email = uniqueEmail();
    expect(dataOf(await t.post('/v1/auth/request-login-code', { email }))).toEqual({ sent: true });
    await t.deliverMail();
    expect(t.mailbox.list(email)).toEqual([]);
    expectError(await t.post('/v1/auth/login', { email, code: '000000' }), 401);
  });

  it('is single use', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const code = await requestCode(email);
    dataOf(await t.post('/v1/auth/login', { email, code }));
    expectError(await t.post('/v1/auth/login', { email, code }), 401, 'INVALID_CREDENTIALS');
  });

  it('expires after ten minutes', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const code = await requestCode(email);
    t.advance(CODE_TTL_MS + 1);
    expectError(await t.post('/v1/auth/login', { email, code }), 401, 'INVALID_CREDENTIALS');
  });

  it("survives a stranger's wrong guesses", async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const code = await requestCode(email);
    const wrong = code === '123456' ? '654321' : '123456';
    const stranger = t.from();
    for (let i = 0; i < 10; i += 1) {
      expectError(await stranger.post('/v1/auth/login', { email, code: wrong }), 401);
    }
    dataOf(await owner.post('/v1/auth/login', { email, code }));
  });

  it("a new code leaves the owner's earlier ones working: the newest three are accepted", async () => {
    expect(MAX_LIVE_CODES).toBe(3);
    const email = uniqueEmail();
    await t.signUp(email);
    const codes = [];
    for (let i = 0; i < 4; i += 1) {
      codes.push(await requestCode(email));
      t.advance(1000);
    }
    const [oldest, second, , newest] = codes as [string, string, string, string];
    if (!codes.slice(1).includes(oldest)) {
      expectError(await owner.post('/v1/auth/login', { email, code: oldest }), 401);
    }
    dataOf(await owner.post('/v1/auth/login', { email, code: second }));
    if (newest !== second) dataOf(await owner.post('/v1/auth/login', { email, code: newest }));
  });

  it('makes five codes per address a window, then mails the newest again; alike for unknown addresses', async () => {
    const known = uniqueEmail();
    await t.signUp(known);
    const unknown = uniqueEmail();
    const ask = async (email: string) =>
      expect(dataOf(await t.post('/v1/auth/request-login-code', { email }))).toEqual({
        sent: true,
      });
    for (const email of [known, unknown]) {
      for (let i = 0; i < MAX_CODES_PER_WINDOW; i += 1) {
        await ask(email);
        t.advance(1000);
      }
      // Past the limit the answer stays the same: within a minute of its mail nothing more is
      // sent, then the newest code goes out again.
      await ask(email);
      t.advance(RESEND_INTERVAL_MS);
      await ask(email);
      await ask(email);
      const { rows } = await t.db.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM one_time_codes WHERE email = $1 AND purpose = 'login'",
        [email],
      );
      expect(rows[0]!.count).toBe(MAX_CODES_PER_WINDOW);
    }
    await t.deliverMail();
    expect(t.mailbox.list(unknown)).toEqual([]);
    const codes = t.mailbox
      .list(known)
      .filter((m) => m.kind === 'login')
      .map((m) => m.code);
    expect(codes).toHaveLength(MAX_CODES_PER_WINDOW + 1);
    expect(codes[0]).toBe(codes[1]);
    dataOf(await t.post('/v1/auth/login', { email: known, code: codes[0] }));
    t.advance(RATE_WINDOW_MS);
    await ask(known);
    const { rows } = await t.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM one_time_codes WHERE email = $1 AND purpose = 'login'",
      [known],
    );
    expect(rows[0]!.count).toBe(MAX_CODES_PER_WINDOW + 1);
  });

  it('rejects malformed codes with 400', async () => {
    for (const code of ['12345', '1234567', 'abcdef', 123456]) {
      expectError(
        await t.post('/v1/auth/login', { email: uniqueEmail(), code }),
        400,
        'VALIDATION_ERROR',
      );
    }
  });
});

describe('POST /v1/auth/password-id-verification', () => {
  const path = '/v1/auth/password-id-verification';

  it('confirms the signed-in user password', async () => {
    const user = await t.signUp();
    expect(dataOf(await t.post(path, { password: PASSWORD }, user.token))).toEqual({
      verified: true,
    });
    expect(dataOf(await t.post(path, { password: 'wrong-password' }, user.token))).toEqual({
      verified: false,
    });
  });

  it('never verifies a user without a password', async () => {
    const anonymous = authResultSchema.parse(dataOf(await t.post('/v1/auth/signup', {})));
    expect(dataOf(await t.post(path, { password: PASSWORD }, anonymous.token))).toEqual({
      verified: false,
    });
  });

  it('needs a bearer token and a password', async () => {
    expectError(await t.post(path, { password: PASSWORD }), 401, 'UNAUTHORIZED');
    const user = await t.signUp();
    expectError(await t.post(path, {}, user.token), 400, 'VALIDATION_ERROR');
    expectError(await t.post(path, { password: '' }, user.token), 400, 'VALIDATION_ERROR');
  });

  it('answers 429 after too many wrong passwords', async () => {
    const user = await t.signUp();
    expect(LIMITS.reauthPerUser).toMatchObject({ max: 5, windowMs: 15 * 60 * 1000 });
    for (let i = 0; i < 5; i += 1) {
      dataOf(await t.post(path, { password: 'wrong-password' }, user.token));
    }
    expectError(await t.post(path, { password: PASSWORD }, user.token), 429, 'RATE_LIMITED');
  });
});

describe('an address proven by a code', () => {
  it("removes a password a stranger set before the owner proved it, and the stranger's sessions", async () => {
    const email = uniqueEmail();
    const stranger = await t.signUp(email, 'strangers-password');
    dataOf(await t.post('/v1/auth/request-login-code', { email }));
    const owner = authResultSchema.parse(
      dataOf(
        await t.post('/v1/auth/login', { email, code: (await t.lastMail(email, 'login')).code }),
      ),
    );
    expect(owner._id).toBe(stranger._id);
    expectError(
      await t.post('/v1/auth/login', { email, password: 'strangers-password' }),
      401,
      'INVALID_CREDENTIALS',
    );
    expectError(
      await t.post('/v1/auth/refresh', { refreshToken: stranger.refreshToken }),
      401,
      'REFRESH_TOKEN_REVOKED',
    );
    // The owner's own session goes on, and they are told what happened.
    dataOf(await t.post('/v1/auth/refresh', { refreshToken: owner.refreshToken }));
    expect((await t.lastMail(email, 'notice')).text).toMatch(/password was removed/);
    // A password set by reset works.
    dataOf(await t.post('/v1/users/reset-password', { email }));
    const code = (await t.lastMail(email, 'reset')).code;
    dataOf(
      await t.patch('/v1/users/password-by-code', { email, code, password: 'owners-password' }),
    );
    dataOf(await t.post('/v1/auth/login', { email, password: 'owners-password' }));
  });

  it('keeps the password of the ordinary flow: sign up, then verify with the mailed code', async () => {
    const email = uniqueEmail();
    const signedUp = await t.signUp(email);
    const mail = await t.lastMail(email, 'verify');
    // Entered in the session of that sign-up, as the SPA does.
    const verify = { verificationId: mail.verificationId, code: mail.code };
    dataOf(await t.post('/v1/users/verify', verify, signedUp.token));
    // Proving the address again with a login code changes nothing either.
    dataOf(await t.post('/v1/auth/request-login-code', { email }));
    dataOf(
      await t.post('/v1/auth/login', { email, code: (await t.lastMail(email, 'login')).code }),
    );
    dataOf(await t.post('/v1/auth/login', { email, password: PASSWORD }));
    dataOf(await t.post('/v1/auth/refresh', { refreshToken: signedUp.refreshToken }));
    await t.deliverMail();
    expect(t.mailbox.list(email).filter((m) => m.kind === 'notice')).toEqual([]);
  });
});

describe('per-client limits on what costs the server', () => {
  it('makes at most 20 anonymous accounts an hour from one client', async () => {
    expect(LIMITS.anonymousSignupPerClient).toMatchObject({ max: 20, windowMs: 3600 * 1000 });
    const headers = { 'x-forwarded-for': uniqueClient() };
    const signUp = (h = headers) => t.request('POST', '/v1/auth/signup', { body: {}, headers: h });
    for (let i = 0; i < 20; i += 1) dataOf(await signUp());
    expectError(await signUp(), 429, 'RATE_LIMITED');
    dataOf(await signUp({ 'x-forwarded-for': uniqueClient() }));
    t.advance(3600 * 1000 + 1000);
    dataOf(await signUp());
  });

  it('sends at most 20 mails an hour for one client, across the calls that send mail', async () => {
    expect(LIMITS.mailPerClient).toMatchObject({ max: 20, windowMs: 3600 * 1000 });
    const headers = { 'x-forwarded-for': uniqueClient() };
    const calls = [
      () =>
        t.request('POST', '/v1/auth/request-login-code', {
          body: { email: uniqueEmail() },
          headers,
        }),
      () =>
        t.request('POST', '/v1/auth/signup/passwordless', {
          body: { email: uniqueEmail() },
          headers,
        }),
      () =>
        t.request('POST', '/v1/users/reset-password', { body: { email: uniqueEmail() }, headers }),
      () => t.request('POST', '/v1/users/verify', { body: { email: uniqueEmail() }, headers }),
      () =>
        t.request('POST', '/v1/auth/signup', {
          body: { email: uniqueEmail(), password: PASSWORD },
          headers,
        }),
    ];
    for (let i = 0; i < 20; i += 1) dataOf(await calls[i % calls.length]!());
    for (const call of calls) expectError(await call(), 429, 'RATE_LIMITED');
  });

  it('takes the client address from the proxy only when TRUST_PROXY is set', async () => {
    // With TRUST_PROXY (as in these tests) the last X-Forwarded-For entry is the client: a
    // forged first entry does not give a fresh allowance.
    const proxySeen = uniqueClient();
    for (let i = 0; i < 20; i += 1) {
      dataOf(
        await t.request('POST', '/v1/auth/signup', {
          body: {},
          headers: { 'x-forwarded-for': `${uniqueClient()}, ${proxySeen}` },
        }),
      );
    }
    const forged = { 'x-forwarded-for': `${uniqueClient()}, ${proxySeen}` };
    expectError(await t.request('POST', '/v1/auth/signup', { body: {}, headers: forged }), 429);
  });
});

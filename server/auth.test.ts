import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { authResultSchema, signupResultSchema, userSchema } from '../src/api/schemas';
import {
  CODE_TTL_MS,
  MAX_ATTEMPTS,
  MAX_CODES_PER_WINDOW,
  RATE_WINDOW_MS,
} from './auth/one-time-codes';
import { LOGIN_FAILURES, REAUTH_FAILURES } from './auth/failure-limit';
import { dataOf, expectError, uniqueEmail, useTestApp } from './test-app';

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
    const mail = t.lastMail(email, 'verify');
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

  it('answers 429 after too many failures for one address, until the window passes', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    for (let i = 0; i < LOGIN_FAILURES.max; i += 1) {
      expectError(await t.post('/v1/auth/login', { email, password: 'wrong-password' }), 401);
    }
    expectError(await t.post('/v1/auth/login', { email, password: PASSWORD }), 429, 'RATE_LIMITED');
    t.advance(LOGIN_FAILURES.windowMs + 1000);
    await t.login(email, PASSWORD);
  });
});

describe('login codes', () => {
  async function requestCode(email: string) {
    dataOf(await t.post('/v1/auth/request-login-code', { email }));
    return t.lastMail(email, 'login').code!;
  }

  it('passwordless sign-up creates the account and mails a code that logs in and verifies', async () => {
    const email = uniqueEmail();
    expect(dataOf(await t.post('/v1/auth/signup/passwordless', { email }))).toEqual({ sent: true });
    const code = t.lastMail(email, 'login').code;
    const result = authResultSchema.parse(dataOf(await t.post('/v1/auth/login', { email, code })));
    expect(result).toMatchObject({ email, role: 'user', settings: { isEmailVerified: true } });
    expect(result.verifiedAt).toBe(t.clock.current.toISOString());
  });

  it('passwordless sign-up for an existing address only mails a code', async () => {
    const email = uniqueEmail();
    const user = await t.signUp(email);
    dataOf(await t.post('/v1/auth/signup/passwordless', { email }));
    const code = t.lastMail(email, 'login').code;
    expect(userSchema.parse(dataOf(await t.post('/v1/auth/login', { email, code })))._id).toBe(
      user._id,
    );
  });

  it('answers the same for unknown addresses and mails nothing', async () => {
    const email = uniqueEmail();
    expect(dataOf(await t.post('/v1/auth/request-login-code', { email }))).toEqual({ sent: true });
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

  it('dies after five wrong attempts', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const code = await requestCode(email);
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
      expectError(await t.post('/v1/auth/login', { email, code: wrong }), 401);
    }
    expectError(await t.post('/v1/auth/login', { email, code }), 401, 'INVALID_CREDENTIALS');
  });

  it('is superseded by a newer code', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const first = await requestCode(email);
    const second = await requestCode(email);
    if (first !== second) expectError(await t.post('/v1/auth/login', { email, code: first }), 401);
    dataOf(await t.post('/v1/auth/login', { email, code: second }));
  });

  it('is rate-limited per address, alike for known and unknown addresses', async () => {
    const known = uniqueEmail();
    await t.signUp(known);
    const unknown = uniqueEmail();
    for (const email of [known, unknown]) {
      for (let i = 0; i < MAX_CODES_PER_WINDOW; i += 1) {
        dataOf(await t.post('/v1/auth/request-login-code', { email }));
      }
      expectError(await t.post('/v1/auth/request-login-code', { email }), 429, 'RATE_LIMITED');
    }
    expect(t.mailbox.list(known).filter((m) => m.kind === 'login')).toHaveLength(
      MAX_CODES_PER_WINDOW,
    );
    t.advance(RATE_WINDOW_MS + 1000);
    dataOf(await t.post('/v1/auth/request-login-code', { email: known }));
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
    for (let i = 0; i < REAUTH_FAILURES.max; i += 1) {
      dataOf(await t.post(path, { password: 'wrong-password' }, user.token));
    }
    expectError(await t.post(path, { password: PASSWORD }, user.token), 429, 'RATE_LIMITED');
  });
});

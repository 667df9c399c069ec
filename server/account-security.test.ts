/**
 * Account security: what an outsider could try against sign-in, as an outsider would
 * try it (over HTTP, from client addresses of their own).
 */
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { authResultSchema, userSchema } from '../contract/schemas';
import { hashPassword } from './auth/password';
import { GUESSES_PER_CODE } from './auth/one-time-codes';
import { LIMITS } from './auth/rate-limit';
import { ADMIN, dataOf, expectError, uniqueEmail, useTestApp } from './test-app';
import { createUser } from './users';

const t = useTestApp();
const PASSWORD = 'password-123';
const MINUTE = 60 * 1000;

function otherCode(code: string) {
  return code === '111111' ? '222222' : '111111';
}

/** Signs up `email` with `password` and answers the session and its verification mail. */
async function signUpWithMail(email: string, password = PASSWORD) {
  const session = await t.signUp(email, password);
  const mail = await t.lastMail(email, 'verify');
  return { session, verify: { verificationId: mail.verificationId, code: mail.code } };
}

describe('proving an address through any flow', () => {
  it("removes a stranger's password and sessions when the owner opens the verification code", async () => {
    const email = uniqueEmail();
    const { session: stranger, verify } = await signUpWithMail(email, 'strangers-password');
    // The owner enters the code from their mailbox, signed in nowhere.
    const user = userSchema.parse(dataOf(await t.post('/v1/users/verify', verify)));
    expect(user.settings.isEmailVerified).toBe(true);
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
    expect((await t.lastMail(email, 'notice')).text).toMatch(/password was removed/);
  });

  it("removes it too when the proof carries someone else's session", async () => {
    for (const other of [await t.signUpAnonymous(), await t.loginAs('user')]) {
      const email = uniqueEmail();
      const { verify } = await signUpWithMail(email, 'strangers-password');
      dataOf(await t.post('/v1/users/verify', verify, other.token));
      expectError(await t.post('/v1/auth/login', { email, password: 'strangers-password' }), 401);
      expect((await t.lastMail(email, 'notice')).kind).toBe('notice');
    }
  });

  it('keeps the password when the proof comes from a session signed in with it', async () => {
    // Right after sign-up, and from a later password sign-in (another device, same person).
    for (const later of [false, true]) {
      const email = uniqueEmail();
      const { session, verify } = await signUpWithMail(email);
      t.advance(2000);
      const prover = later ? await t.login(email, PASSWORD) : session;
      dataOf(await t.post('/v1/users/verify', verify, prover.token));
      dataOf(await t.post('/v1/auth/login', { email, password: PASSWORD }));
      dataOf(await t.post('/v1/auth/refresh', { refreshToken: session.refreshToken }));
      await t.deliverMail();
      expect(t.mailbox.list(email).filter((m) => m.kind === 'notice')).toEqual([]);
    }
  });

  it('answers 401 for a bad bearer on a proof, without spending the code', async () => {
    const email = uniqueEmail();
    const { session, verify } = await signUpWithMail(email);
    expectError(await t.post('/v1/users/verify', verify, `${session.token}x`), 401);
    dataOf(await t.post('/v1/users/verify', verify, session.token));
    dataOf(await t.post('/v1/auth/login', { email, password: PASSWORD }));
  });
});

describe('wrong codes cannot lock an owner out', () => {
  it("a stranger's 30 wrong codes for the admin leave the admin's sign-in working", async () => {
    const stranger = t.from();
    const email = ADMIN.email;
    const statuses = [];
    for (let i = 0; i < 30; i += 1) {
      const code = String(100000 + i);
      statuses.push((await stranger.post('/v1/auth/login', { email, code })).status);
      statuses.push(
        (
          await stranger.patch('/v1/users/password-by-code', {
            email,
            code,
            password: 'a-new-admin-password',
          })
        ).status,
      );
    }
    // The stranger is backed off after ten wrong codes.
    expect(LIMITS.codeGuessesPerClient.backoff).toMatchObject({ free: 10 });
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    // The admin, on their own device: a code, a reset and the password all work at once.
    const admin = t.from();
    dataOf(await admin.post('/v1/auth/request-login-code', { email }));
    const code = (await t.lastMail(email, 'login')).code;
    dataOf(await admin.post('/v1/auth/login', { email, code }));
    dataOf(await admin.post('/v1/auth/login', { email, password: ADMIN.password }));
    dataOf(await admin.post('/v1/users/reset-password', { email }));
    const reset = (await t.lastMail(email, 'reset')).code;
    const password = 'the-admins-new-passphrase';
    dataOf(await admin.patch('/v1/users/password-by-code', { email, code: reset, password }));
    dataOf(await admin.post('/v1/auth/login', { email, password }));
  });

  it('backs a guessing client off, one minute doubling per guess', async () => {
    const stranger = t.from();
    const guess = () =>
      stranger
        .post('/v1/auth/login', { email: uniqueEmail(), code: '123456' })
        .then((r) => r.status);
    for (let i = 0; i < 10; i += 1) expect(await guess()).toBe(401);
    expect(await guess()).toBe(429);
    t.advance(MINUTE);
    expect(await guess()).toBe(401);
    t.advance(MINUTE);
    expect(await guess()).toBe(429);
    t.advance(MINUTE);
    expect(await guess()).toBe(401);
    t.advance(3 * MINUTE);
    expect(await guess()).toBe(429);
    t.advance(MINUTE);
    expect(await guess()).toBe(401);
  });

  it('a code dies after five wrong guesses from its own client; a fresh one starts fresh', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const owner = t.from();
    dataOf(await owner.post('/v1/auth/request-login-code', { email }));
    const code = (await t.lastMail(email, 'login')).code!;
    for (let i = 0; i < GUESSES_PER_CODE; i += 1) {
      expectError(await owner.post('/v1/auth/login', { email, code: otherCode(code) }), 401);
    }
    expectError(await owner.post('/v1/auth/login', { email, code }), 401);
    dataOf(await owner.post('/v1/auth/request-login-code', { email }));
    dataOf(
      await owner.post('/v1/auth/login', { email, code: (await t.lastMail(email, 'login')).code }),
    );
  });

  it('caps a distributed guesser per address once each client has used its free guesses', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const owner = t.from();
    expect(LIMITS.codeForeignGuessesPerAddress).toMatchObject({ max: 10 });
    dataOf(await owner.post('/v1/auth/request-login-code', { email }));
    const code = (await t.lastMail(email, 'login')).code!;
    // Four clients, three wrong guesses each: their free ones, so all are compared.
    const strangers = [t.from(), t.from(), t.from(), t.from()];
    for (const stranger of strangers) {
      for (let i = 0; i < 3; i += 1) {
        expectError(await stranger.post('/v1/auth/login', { email, code: otherCode(code) }), 401);
      }
    }
    // Twelve wrong guesses from other clients today: a client past its free guesses gets no
    // more, the right one included...
    const right = { email, code };
    expectError(await strangers[0]!.post('/v1/auth/login', right), 429, 'TOO_MANY_ATTEMPTS');
    // ...while the owner signs in, on the device that asked or on any other network.
    dataOf(await owner.post('/v1/auth/login', right));
    dataOf(await owner.post('/v1/auth/request-login-code', { email }));
    dataOf(
      await t
        .from()
        .post('/v1/auth/login', { email, code: (await t.lastMail(email, 'login')).code }),
    );
  });

  it('has a server-wide ceiling on wrong codes, holding clients past their own first 3', async () => {
    expect(LIMITS.codeGuessesGlobal).toMatchObject({ max: 500, windowMs: 3600 * 1000 });
    await t.db.query(
      `INSERT INTO rate_limit_events (key, created_at)
       SELECT 'code:*', $1 FROM generate_series(1, 500)`,
      [t.clock.current],
    );
    const email = uniqueEmail();
    await t.signUp(email);
    const guesser = t.from();
    for (let i = 0; i < 3; i += 1) {
      expectError(await guesser.post('/v1/auth/login', { email, code: '000000' }), 401);
    }
    const guess = await guesser.post('/v1/auth/login', { email, code: '000000' });
    expectError(guess, 429, 'TOO_MANY_ATTEMPTS');
    // Strangers filling it refuse no one else: the owner's right code works.
    const owner = t.from();
    dataOf(await owner.post('/v1/auth/request-login-code', { email }));
    const code = (await t.lastMail(email, 'login')).code;
    dataOf(await owner.post('/v1/auth/login', { email, code }));
  });
});

describe('wrong passwords cannot lock an owner out', () => {
  it("a stranger's 30 wrong passwords leave the owner's sign-in working from elsewhere", async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const stranger = t.from();
    const statuses = [];
    for (let i = 0; i < 30; i += 1) {
      const body = { email, password: `wrong-password-${i}` };
      statuses.push((await stranger.post('/v1/auth/login', body)).status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    dataOf(await t.from().post('/v1/auth/login', { email, password: PASSWORD }));
  });

  it('slows a distributed guesser at one address, never the owner on a network of their own', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    expect(LIMITS.passwordPerAddress.backoff).toEqual({
      free: 50,
      firstDelayMs: MINUTE,
      maxDelayMs: 5 * MINUTE,
    });
    for (let i = 0; i < 60; i += 1) {
      await t.post('/v1/auth/login', { email, password: `wrong-password-${i}` });
      t.advance(1000);
    }
    // A network that has not been guessing signs in at once.
    dataOf(await t.from().post('/v1/auth/login', { email, password: PASSWORD }));
    // One past its five free wrong passwords waits for the address's back-off too (its own is a
    // minute): five minutes after the last wrong password of anyone.
    const guesser = t.from();
    for (let i = 0; i < 5; i += 1) {
      expectError(await guesser.post('/v1/auth/login', { email, password: 'wrong' }), 401);
    }
    t.advance(MINUTE);
    const right = { email, password: PASSWORD };
    expectError(await guesser.post('/v1/auth/login', right), 429, 'RATE_LIMITED');
    t.advance(4 * MINUTE);
    dataOf(await guesser.post('/v1/auth/login', right));
  });
});

describe('who has an account', () => {
  it('limits look-ups per client, shared with the conflicts of sign-up', async () => {
    const taken = uniqueEmail();
    await t.signUp(taken);
    const prober = t.from();
    expect(LIMITS.accountLookupsPerClient).toMatchObject({ max: 30, windowMs: 3600 * 1000 });
    for (let i = 0; i < 10; i += 1) {
      expectError(
        await prober.post('/v1/auth/signup', { email: taken, password: PASSWORD }),
        409,
        'CONFLICT',
      );
    }
    for (let i = 0; i < 20; i += 1) {
      dataOf(await prober.get(`/v1/users/email/${encodeURIComponent(uniqueEmail())}`));
    }
    const lookup = `/v1/users/email/${encodeURIComponent(taken)}`;
    expectError(await prober.get(lookup), 429, 'RATE_LIMITED');
    expectError(
      await prober.post('/v1/auth/signup', { email: taken, password: PASSWORD }),
      429,
      'RATE_LIMITED',
    );
    expect(dataOf(await t.get(lookup))).toEqual({ exists: true });
    t.advance(3600 * 1000 + 1000);
    expect(dataOf(await prober.get(lookup))).toEqual({ exists: true });
  });
});

describe('weak passwords', () => {
  const refusals: [string, RegExp][] = [
    ['qwerty123456', /password: is one of the most common passwords/],
    ['QWERTY123456', /password: is one of the most common passwords/],
    ['leavemealone', /password: is one of the most common passwords/],
    ['short', /password: must be at least 12 characters/],
    ['x'.repeat(257), /password: /],
  ];

  it('refuses common, short and over-long passwords at sign-up, and says why', async () => {
    for (const [password, message] of refusals) {
      const email = uniqueEmail();
      const refused = expectError(
        await t.post('/v1/auth/signup', { email, password }),
        400,
        'VALIDATION_ERROR',
      );
      expect(refused.message).toMatch(message);
      dataOf(await t.post('/v1/auth/signup', { email, password: 'x'.repeat(256) }));
    }
    const email = uniqueEmail('someone');
    const own = await t.post('/v1/auth/signup', { email, password: email.toUpperCase() });
    expect(expectError(own, 400, 'VALIDATION_ERROR').message).toBe(
      'password: must not be your e-mail address',
    );
    dataOf(await t.post('/v1/auth/signup', { email, password: 'correct horse battery staple' }));
  });

  it('refuses them when a guest upgrades, and the guest stays a guest', async () => {
    const guest = await t.signUpAnonymous();
    const email = uniqueEmail();
    const refused = await t.post(
      '/v1/auth/signup',
      { email, password: '1qaz2wsx3edc' },
      guest.token,
    );
    expectError(refused, 400, 'VALIDATION_ERROR');
    dataOf(await t.post('/v1/auth/refresh', { refreshToken: guest.refreshToken }));
    expect(dataOf(await t.get(`/v1/users/email/${encodeURIComponent(email)}`))).toEqual({
      exists: false,
    });
  });

  it('refuses them at a reset without spending the code', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const owner = t.from();
    dataOf(await owner.post('/v1/users/reset-password', { email }));
    const code = (await t.lastMail(email, 'reset')).code;
    const weak = await owner.patch('/v1/users/password-by-code', {
      email,
      code,
      password: 'unbelievable',
    });
    expect(expectError(weak, 400, 'VALIDATION_ERROR').message).toMatch(/most common/);
    const password = 'a-perfectly-fine-one';
    dataOf(await owner.patch('/v1/users/password-by-code', { email, code, password }));
    dataOf(await t.post('/v1/auth/login', { email, password }));
  });

  it('asks twelve characters of an administrator too, before the code is looked at', async () => {
    const email = uniqueEmail('admin');
    await createUser(t.db, {
      email,
      passwordHash: await hashPassword('an-admin-password'),
      role: 'admin',
      verifiedAt: t.clock.current,
      now: t.clock.current,
    });
    const owner = t.from();
    dataOf(await owner.post('/v1/users/reset-password', { email }));
    const code = (await t.lastMail(email, 'reset')).code!;
    // One rule for every role: a short password is refused whatever the code, unspent.
    const guess = { email, code: otherCode(code), password: 'eleven-char' };
    const refusal = 'password: must be at least 12 characters';
    const wrong = await t.patch('/v1/users/password-by-code', guess);
    expect(expectError(wrong, 400, 'VALIDATION_ERROR').message).toBe(refusal);
    const short = await owner.patch('/v1/users/password-by-code', { ...guess, code });
    expect(expectError(short, 400, 'VALIDATION_ERROR').message).toBe(refusal);
    const password = 'twelve-chars';
    dataOf(await owner.patch('/v1/users/password-by-code', { email, code, password }));
    dataOf(await t.post('/v1/auth/login', { email, password }));
  });
});

describe('unverified accounts', () => {
  async function unverified(role: 'admin' | 'developer' | 'user') {
    const email = uniqueEmail(role);
    await createUser(t.db, {
      email,
      passwordHash: await hashPassword(PASSWORD),
      role,
      now: t.clock.current,
    });
    return t.login(email, PASSWORD);
  }

  it('get no role powers until the address is proven', async () => {
    for (const role of ['admin', 'developer'] as const) {
      const session = await unverified(role);
      expect(decodeJwt(session.token)).toMatchObject({ role });
      expectError(await t.get('/private/v1/users', session.token), 403, 'FORBIDDEN');
      expectError(await t.get('/v1/tags', session.token), 403, 'FORBIDDEN');
      expectError(
        await t.post('/v1/assets', { name: 'x', type: 'top', gender: 'male' }, session.token),
        403,
      );
    }
  });

  it('may read their own profile and assets, read assets like a guest, and verify', async () => {
    const session = await unverified('user');
    expect(userSchema.parse(dataOf(await t.get('/v1/users/me', session.token)))._id).toBe(
      session._id,
    );
    dataOf(await t.get(`/v1/user-assets/${session._id}`, session.token));
    dataOf(await t.get('/v1/assets?limit=1', session.token));
    expectError(await t.get('/v1/tags', session.token), 403, 'FORBIDDEN');
    // Proving the address (here by a login code) gives the role's rules from the next token.
    const owner = t.from();
    dataOf(await owner.post('/v1/auth/request-login-code', { email: session.email }));
    const code = (await t.lastMail(session.email!, 'login')).code;
    const proven = authResultSchema.parse(
      dataOf(await owner.post('/v1/auth/login', { email: session.email, code })),
    );
    dataOf(await t.get('/v1/tags', proven.token));
  });

  it('a verified developer keeps the back office', async () => {
    const session = await t.loginAs('developer');
    dataOf(await t.get('/private/v1/users?limit=1', session.token));
  });
});

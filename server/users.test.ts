import { describe, expect, it } from 'vitest';
import {
  authResultSchema,
  listResponseSchema,
  userRowSchema,
  userSchema,
  verifyRequestResultSchema,
} from '../contract/schemas';
import { CODE_TTL_MS, GUESSES_PER_CODE } from './auth/one-time-codes';
import { dataOf, expectError, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();
const PASSWORD = 'password-123';
const NEW_PASSWORD = 'new-password-456';

function otherCode(code: string) {
  return code === '111111' ? '222222' : '111111';
}

describe('password reset', () => {
  async function requestReset(email: string) {
    expect(dataOf(await t.post('/v1/users/reset-password', { email }))).toEqual({ sent: true });
    return (await t.lastMail(email, 'reset')).code!;
  }

  it('sets the new password, marks it updated and signs out every session', async () => {
    const email = uniqueEmail();
    const first = await t.signUp(email, PASSWORD);
    const second = await t.login(email, PASSWORD);
    const code = await requestReset(email);
    const user = userSchema.parse(
      dataOf(await t.patch('/v1/users/password-by-code', { email, code, password: NEW_PASSWORD })),
    );
    expect(user).toMatchObject({
      _id: first._id,
      settings: { isPasswordUpdated: true, isEmailVerified: true },
    });
    for (const session of [first, second]) {
      const refresh = await t.post('/v1/auth/refresh', { refreshToken: session.refreshToken });
      expect(expectError(refresh, 401).message).toBe('Refresh token revoked');
    }
    expectError(await t.post('/v1/auth/login', { email, password: PASSWORD }), 401);
    await t.login(email, NEW_PASSWORD);
  });

  it('answers the same for an unknown address, mails nothing, and no code works', async () => {
    const email = uniqueEmail();
    expect(dataOf(await t.post('/v1/users/reset-password', { email }))).toEqual({ sent: true });
    await t.deliverMail();
    expect(t.mailbox.list(email)).toEqual([]);
    expectError(
      await t.patch('/v1/users/password-by-code', {
        email,
        code: '123456',
        password: NEW_PASSWORD,
      }),
      400,
      'INVALID_CODE',
    );
  });

  it('uses a code once', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const code = await requestReset(email);
    dataOf(await t.patch('/v1/users/password-by-code', { email, code, password: NEW_PASSWORD }));
    const again = await t.patch('/v1/users/password-by-code', { email, code, password: PASSWORD });
    expectError(again, 400, 'INVALID_CODE');
  });

  it("rejects wrong and expired codes; other clients' guesses spend only their budget", async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const owner = t.from();
    const requestFrom = async () => {
      dataOf(await owner.post('/v1/users/reset-password', { email }));
      return (await t.lastMail(email, 'reset')).code!;
    };
    let code = await requestFrom();
    t.advance(CODE_TTL_MS + 1);
    const expired = await owner.patch('/v1/users/password-by-code', {
      email,
      code,
      password: NEW_PASSWORD,
    });
    expect(expectError(expired, 400, 'INVALID_CODE').message).toMatch(/expired/);

    code = await requestFrom();
    expect(GUESSES_PER_CODE).toBe(5);
    const stranger = t.from();
    for (let i = 0; i < GUESSES_PER_CODE; i += 1) {
      const wrong = { email, code: otherCode(code), password: NEW_PASSWORD };
      expectError(await stranger.patch('/v1/users/password-by-code', wrong), 400, 'INVALID_CODE');
    }
    // The code is spent for the stranger, past its free guesses, the right guess included...
    const right = { email, code, password: NEW_PASSWORD };
    expectError(await stranger.patch('/v1/users/password-by-code', right), 400, 'INVALID_CODE');
    // ...and still works from a network that has not been guessing.
    dataOf(await t.from().patch('/v1/users/password-by-code', right));
    await t.login(email, NEW_PASSWORD);
  });

  it('validates its inputs', async () => {
    const email = uniqueEmail();
    for (const body of [
      { email, code: '123456' },
      { email, code: '123456', password: 'short' },
      { email, code: '12345', password: NEW_PASSWORD },
      { email: 'nope', code: '123456', password: NEW_PASSWORD },
    ]) {
      expectError(await t.patch('/v1/users/password-by-code', body), 400, 'VALIDATION_ERROR');
    }
    expectError(
      await t.post('/v1/users/reset-password', { email: 'nope' }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('POST /v1/users/verify', () => {
  it('completes the verification mailed at sign-up', async () => {
    const email = uniqueEmail();
    const signedUp = await t.signUp(email);
    const mail = await t.lastMail(email, 'verify');
    const verify = { verificationId: mail.verificationId, code: mail.code };
    const user = userSchema.parse(dataOf(await t.post('/v1/users/verify', verify, signedUp.token)));
    expect(user).toMatchObject({ _id: signedUp._id, settings: { isEmailVerified: true } });
    expect(user.verifiedAt).toBe(t.clock.current.toISOString());
    // Used up.
    const again = await t.post('/v1/users/verify', {
      verificationId: mail.verificationId,
      code: mail.code,
    });
    expectError(again, 400, 'INVALID_CODE');
    // A later login shows the verified state.
    expect((await t.login(email, PASSWORD)).settings.isEmailVerified).toBe(true);
  });

  it('re-sends a code whose id matches the mail; the earlier mail keeps working', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const first = await t.lastMail(email, 'verify');
    const { verificationId } = verifyRequestResultSchema.parse(
      dataOf(await t.post('/v1/users/verify', { email })),
    );
    const second = await t.lastMail(email, 'verify');
    expect(second.verificationId).toBe(verificationId);
    expect(verificationId).not.toBe(first.verificationId);
    dataOf(
      await t.post('/v1/users/verify', { verificationId: first.verificationId, code: first.code }),
    );
  });

  it('rejects wrong codes and unknown verification ids with 400', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const mail = await t.lastMail(email, 'verify');
    expectError(
      await t.post('/v1/users/verify', {
        verificationId: mail.verificationId,
        code: otherCode(mail.code!),
      }),
      400,
      'INVALID_CODE',
    );
    expectError(
      await t.post('/v1/users/verify', { verificationId: 'no-such-id', code: '123456' }),
      400,
      'INVALID_CODE',
    );
  });

  it('answers a verification id for unknown addresses without mailing', async () => {
    const email = uniqueEmail();
    verifyRequestResultSchema.parse(dataOf(await t.post('/v1/users/verify', { email })));
    await t.deliverMail();
    expect(t.mailbox.list(email)).toEqual([]);
  });

  it('validates its inputs', async () => {
    for (const body of [
      {},
      { email: 'nope' },
      { verificationId: 'x' },
      { verificationId: 'x', code: 'abc' },
    ]) {
      expectError(await t.post('/v1/users/verify', body), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('GET /v1/users/email/:email', () => {
  it('tells whether an account uses the address, ignoring case', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    expect(dataOf(await t.get(`/v1/users/email/${encodeURIComponent(email)}`))).toEqual({
      exists: true,
    });
    expect(dataOf(await t.get(`/v1/users/email/${email.toUpperCase()}`))).toEqual({ exists: true });
    expect(dataOf(await t.get(`/v1/users/email/${uniqueEmail()}`))).toEqual({ exists: false });
  });

  it('answers 400 for a malformed address', async () => {
    expectError(await t.get('/v1/users/email/not-an-email'), 400, 'VALIDATION_ERROR');
    expectError(await t.get('/v1/users/email/%E0%A4%A'), 400);
  });
});

describe('GET /v1/users/me', () => {
  it('answers the signed-in user', async () => {
    const session = await t.signUp();
    const me = userSchema.parse(dataOf(await t.get('/v1/users/me', session.token)));
    expect(me).toMatchObject({ _id: session._id, email: session.email, role: 'user' });
  });

  it('needs a bearer token', async () => {
    expectError(await t.get('/v1/users/me'), 401, 'UNAUTHORIZED');
  });
});

describe('/private/v1/users', () => {
  it('finds users by e-mail for the back office, without secrets', async () => {
    const admin = await t.loginAs('admin');
    const email = uniqueEmail('findme');
    await t.signUp(email);
    const page = listResponseSchema(userRowSchema).parse(
      await t
        .get(`/private/v1/users?search=${encodeURIComponent(email)}`, admin.token)
        .then((r) => r.body),
    );
    expect(page.data).toEqual([expect.objectContaining({ email, role: 'user', verifiedAt: null })]);
    expect(JSON.stringify(page.data)).not.toMatch(/password|hash|token/i);
    // The picker finds a chosen user again by id (an admin also learns of their second factor).
    const found = dataOf(await t.get(`/private/v1/users/${page.data[0]!.id}`, admin.token));
    expect(found).toEqual({ ...page.data[0], secondFactor: false });
    expectError(await t.get('/private/v1/users/nobody', admin.token), 404, 'NOT_FOUND');
    const developers = await t.get('/private/v1/users?role=developer', admin.token);
    expect(
      listResponseSchema(userRowSchema)
        .parse(developers.body)
        .data.every((u) => u.role === 'developer'),
    ).toBe(true);
  });

  it('lets only an admin give a role, never to themselves, and the next refresh carries it', async () => {
    const admin = await t.loginAs('admin');
    const developer = await t.loginAs('developer');
    const user = await t.loginAs('user');
    const path = `/private/v1/users/${user._id}`;
    expectError(await t.patch(path, { role: 'developer' }, developer.token), 403, 'FORBIDDEN');
    expectError(await t.patch(path, { role: 'developer' }, user.token), 403, 'FORBIDDEN');
    expectError(
      await t.patch(`/private/v1/users/${admin._id}`, { role: 'user' }, admin.token),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await t.patch(path, { role: 'emperor' }, admin.token), 400, 'VALIDATION_ERROR');
    expectError(
      await t.patch('/private/v1/users/nobody', { role: 'developer' }, admin.token),
      404,
      'NOT_FOUND',
    );
    expect(dataOf(await t.patch(path, { role: 'developer' }, admin.token))).toMatchObject({
      id: user._id,
      role: 'developer',
    });
    const refreshed = authResultSchema.parse(
      dataOf(await t.post('/v1/auth/refresh', { refreshToken: user.refreshToken })),
    );
    expect(refreshed.role).toBe('developer');
    dataOf(await t.get('/private/v1/users?limit=1', refreshed.token));
  });

  it('is closed to users and guests', async () => {
    const user = await t.signUp();
    expectError(await t.get('/private/v1/users', user.token), 403, 'FORBIDDEN');
    expectError(await t.get('/private/v1/users'), 401, 'UNAUTHORIZED');
  });
});

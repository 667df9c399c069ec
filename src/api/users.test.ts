import { describe, expect, it } from 'vitest';
import { jsonResponse, serveApi } from './testing';
import * as users from './users';

const user = {
  _id: 'u1',
  email: 'ada@example.com',
  verifiedAt: '2025-01-01T00:00:00.000Z',
  role: 'user',
  assets: ['a1'],
  wallets: [],
  settings: { isPasswordUpdated: false, isEmailVerified: true },
};

describe('users resource', () => {
  it('asks whether an e-mail exists, escaping it in the path', async () => {
    const { calls } = serveApi({
      'GET v1/users/email/a%2Bb%40example.com': () => jsonResponse(200, { data: { exists: true } }),
    });

    expect(await users.emailExists('a+b@example.com')).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('starts and completes an e-mail verification', async () => {
    const { calls } = serveApi({
      'POST v1/users/verify': ({ body }) =>
        jsonResponse(
          200,
          'code' in (body as object) ? { data: user } : { data: { verificationId: 'ver-1' } },
        ),
    });

    expect(await users.verify({ email: 'ada@example.com' })).toEqual({ verificationId: 'ver-1' });
    expect(await users.verify({ verificationId: 'ver-1', code: '123456' })).toEqual(user);
    expect(calls.map((call) => call.body)).toEqual([
      { email: 'ada@example.com' },
      { verificationId: 'ver-1', code: '123456' },
    ]);
  });

  it('resets a password by mailed code', async () => {
    const { calls } = serveApi({
      'POST v1/users/reset-password': () => jsonResponse(200, { data: { sent: true } }),
      'PATCH v1/users/password-by-code': () => jsonResponse(200, { data: user }),
    });

    await users.resetPassword({ email: 'ada@example.com' });
    const updated = await users.passwordByCode({
      email: 'ada@example.com',
      code: '123456',
      password: 'correct horse',
    });

    expect(updated).toEqual(user);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST v1/users/reset-password',
      'PATCH v1/users/password-by-code',
    ]);
  });
});

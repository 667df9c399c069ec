/**
 * The length of a new password (server/auth/password-policy.ts, contract/schemas.ts
 * passwordSchema): 12 characters for every role, wherever a password is set; signing in takes
 * any length, so an account whose password predates the rule keeps signing in.
 */
import { describe, expect, it } from 'vitest';
import { authResultSchema } from '../contract/schemas';
import { hashPassword } from './auth/password';
import { dataOf, expectError, uniqueEmail, useRoleTokens, useTestApp } from './test-app';
import { createUser } from './users';

const t = useTestApp();
const tokens = useRoleTokens(t);
/** 11 characters, in no list of common passwords. */
const ELEVEN = 'ovfw-kzq-ra';
const TWELVE = 'ovfw-kzq-rab';
const TOO_SHORT = 'password: must be at least 12 characters';

describe('a new password', () => {
  it('needs 12 characters at a user’s sign-up and a guest’s upgrade', async () => {
    const email = uniqueEmail('user');
    const refused = await t.post('/v1/auth/signup', { email, password: ELEVEN });
    expect(expectError(refused, 400, 'VALIDATION_ERROR').message).toBe(TOO_SHORT);
    const guest = await t.signUpAnonymous();
    const upgrade = await t.post('/v1/auth/signup', { email, password: ELEVEN }, guest.token);
    expect(expectError(upgrade, 400, 'VALIDATION_ERROR').message).toBe(TOO_SHORT);
    dataOf(await t.post('/v1/auth/signup', { email, password: TWELVE }));
  });

  it('needs 12 characters at a change and a reset of a user’s password', async () => {
    const email = uniqueEmail('user');
    const user = await t.signUp(email);
    const change = await t.request('PUT', '/v1/users/me/password', {
      body: { currentPassword: 'password-123', password: ELEVEN },
      token: user.token,
    });
    expect(expectError(change, 400, 'VALIDATION_ERROR').message).toBe(TOO_SHORT);

    const owner = t.from();
    dataOf(await owner.post('/v1/users/reset-password', { email }));
    const code = (await t.lastMail(email, 'reset')).code;
    const reset = await owner.patch('/v1/users/password-by-code', {
      email,
      code,
      password: ELEVEN,
    });
    expect(expectError(reset, 400, 'VALIDATION_ERROR').message).toBe(TOO_SHORT);
    // The refusal left the code unused.
    dataOf(await owner.patch('/v1/users/password-by-code', { email, code, password: TWELVE }));
    dataOf(await t.post('/v1/auth/login', { email, password: TWELVE }));
  });

  it('needs 12 characters when a developer’s invitation is accepted', async () => {
    const email = uniqueEmail('invitee');
    const sent = await t.post(
      '/private/v1/invitations',
      { email, role: 'developer' },
      tokens.admin,
    );
    expect(sent.status).toBe(201);
    const token = new URL((await t.lastMail(email, 'invitation')).link ?? '').searchParams.get(
      'token',
    );
    const refused = await t.post('/v1/invitations/accept', { token, password: ELEVEN });
    expect(expectError(refused, 400, 'VALIDATION_ERROR').message).toBe(TOO_SHORT);
    const session = dataOf(await t.post('/v1/invitations/accept', { token, password: TWELVE }));
    expect(authResultSchema.parse(session).role).toBe('developer');
  });
});

describe('signing in', () => {
  it('takes a password set before the rule, however short', async () => {
    for (const role of ['user', 'admin'] as const) {
      const email = uniqueEmail(role);
      await createUser(t.db, {
        email,
        passwordHash: await hashPassword('older-8c'),
        role,
        verifiedAt: t.clock.current,
        now: t.clock.current,
      });
      expect((await t.login(email, 'older-8c')).role).toBe(role);
    }
  });
});

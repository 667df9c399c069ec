/**
 * A passkey as the second step of a sign-in, as the second factor REQUIRE_ADMIN_2FA asks of
 * admins, and what an administrator's reset does to passkeys.
 */
import { describe, expect, it } from 'vitest';
import { secondFactorChallengeSchema, signInResultSchema } from '../contract/account-schemas';
import { passkeyCeremonySchema, passkeySchema } from '../contract/passkey-schemas';
import { authResultSchema } from '../contract/schemas';
import { hashPassword } from './auth/password';
import { dataOf, expectError, uniqueEmail, useTestApp } from './test-app';
import { softPasskey } from './test-passkeys';
import { createUser } from './users';

const t = useTestApp({ REQUIRE_ADMIN_2FA: 'true' });
const PASSWORD = 'password-123';

async function account(role: 'admin' | 'user') {
  const email = uniqueEmail(`passkey-${role}`);
  await createUser(t.db, {
    email,
    passwordHash: await hashPassword(PASSWORD),
    role,
    verifiedAt: t.clock.current,
    now: t.clock.current,
  });
  const session = await t.login(email, PASSWORD);
  return { email, id: session._id, token: session.token };
}

async function addPasskey(token: string) {
  const key = softPasskey(t.config.publicUrl);
  const { ceremony, options } = passkeyCeremonySchema.parse(
    dataOf(await t.post('/v1/users/me/passkeys/options', { password: PASSWORD }, token)),
  );
  const body = { ceremony, name: 'Security key', response: key.register(options) };
  passkeySchema.parse(dataOf(await t.post('/v1/users/me/passkeys', body, token)));
  return key;
}

/** Signs in with the password: the second step's challenge. */
async function challengeOf(email: string) {
  const first = signInResultSchema.parse(
    dataOf(await t.post('/v1/auth/login', { email, password: PASSWORD })),
  );
  return secondFactorChallengeSchema.parse(first);
}

describe('a passkey as the second factor', () => {
  it('is asked for after the password, and answers it', async () => {
    const who = await account('user');
    const key = await addPasskey(who.token);
    const step = await challengeOf(who.email);
    expect(step.secondFactor).toBe('passkey');
    expect(step.passkey).toMatchObject({ allowCredentials: [{ id: key.id }] });

    const session = authResultSchema.parse(
      dataOf(
        await t.post('/v1/auth/second-factor', {
          challenge: step.challenge,
          passkey: key.answer(step.passkey!),
        }),
      ),
    );
    expect(session._id).toBe(who.id);
  });

  it("refuses another account's passkey, and a code the account has no authenticator for", async () => {
    const who = await account('user');
    await addPasskey(who.token);
    const stranger = await account('user');
    const theirs = await addPasskey(stranger.token);
    const step = await challengeOf(who.email);
    expectError(
      await t.post('/v1/auth/second-factor', {
        challenge: step.challenge,
        passkey: theirs.answer(step.passkey!),
      }),
      401,
      'PASSKEY_UNKNOWN',
    );
    expectError(
      await t.post('/v1/auth/second-factor', { challenge: step.challenge, code: '123456' }),
      401,
      'INVALID_SECOND_FACTOR',
    );
  });

  it("gives an admin their powers under REQUIRE_ADMIN_2FA, and an admin's reset takes the passkeys", async () => {
    const admin = await account('admin');
    // Without a second factor, an admin's token has a guest's rules.
    expectError(await t.get('/private/v1/users', admin.token), 403);
    const key = await addPasskey(admin.token);
    const step = await challengeOf(admin.email);
    const session = authResultSchema.parse(
      dataOf(
        await t.post('/v1/auth/second-factor', {
          challenge: step.challenge,
          passkey: key.answer(step.passkey!),
        }),
      ),
    );
    expect((await t.get('/private/v1/users', session.token)).status).toBe(200);

    const other = await account('admin');
    const otherKey = await addPasskey(other.token);
    const otherStep = await challengeOf(other.email);
    const otherSession = authResultSchema.parse(
      dataOf(
        await t.post('/v1/auth/second-factor', {
          challenge: otherStep.challenge,
          passkey: otherKey.answer(otherStep.passkey!),
        }),
      ),
    );
    const reset = await t.request('DELETE', `/private/v1/users/${admin.id}/second-factor`, {
      token: otherSession.token,
    });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    const { ceremony, options } = passkeyCeremonySchema.parse(
      dataOf(await t.post('/v1/auth/passkey/options', {})),
    );
    expectError(
      await t.post('/v1/auth/passkey', { ceremony, response: key.answer(options) }),
      401,
      'PASSKEY_UNKNOWN',
    );
  });
});

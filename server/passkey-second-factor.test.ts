/**
 * A passkey as the second step of a sign-in, as the second factor REQUIRE_ADMIN_2FA asks of
 * admins, and what an administrator's reset does to passkeys.
 */
import { describe, expect, it } from 'vitest';
import { secondFactorChallengeSchema, signInResultSchema } from '../contract/account-schemas';
import { passkeyCeremonySchema, passkeySchema } from '../contract/passkey-schemas';
import { authResultSchema } from '../contract/schemas';
import { dataOf, expectError, useTestApp } from './test-app';
import { softPasskey } from './test-passkeys';

const t = useTestApp({ REQUIRE_ADMIN_2FA: 'true' });
const PASSWORD = 'password-123';

/** A verified account with `role`, signed in with PASSWORD (t.loginAs's). */
async function account(role: 'admin' | 'user') {
  const { email, _id: id, token } = await t.loginAs(role);
  return { email: email!, id, token };
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

/** Signs in with the password, then answers the second step with passkey `key`. */
async function signInWithPasskeyStep(email: string, key: ReturnType<typeof softPasskey>) {
  const step = await challengeOf(email);
  const answer = { challenge: step.challenge, passkey: key.answer(step.passkey!) };
  return authResultSchema.parse(dataOf(await t.post('/v1/auth/second-factor', answer)));
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
    const session = await signInWithPasskeyStep(admin.email, key);
    expect((await t.get('/private/v1/users', session.token)).status).toBe(200);

    const other = await account('admin');
    const otherSession = await signInWithPasskeyStep(other.email, await addPasskey(other.token));
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

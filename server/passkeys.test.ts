/**
 * Passkeys (server/auth/passkeys.ts): adding one with fresh proof, naming and removing it, and
 * signing in with it, against a software authenticator's real WebAuthn responses.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { passkeyCeremonySchema, passkeySchema } from '../contract/passkey-schemas';
import { authResultSchema } from '../contract/schemas';
import { dataOf, expectError, useTestApp } from './test-app';
import { softPasskey } from './test-passkeys';

const t = useTestApp();
const PASSWORD = 'password-123';

/** A verified user, signed in with PASSWORD (t.loginAs's). */
async function account() {
  const { email, _id: id, token } = await t.loginAs('user');
  return { email: email!, id, token };
}

/** Adds a new software passkey named `name` to the account of `token`. */
async function addPasskey(token: string, name = 'Laptop') {
  const key = softPasskey(t.config.publicUrl);
  const { ceremony, options } = passkeyCeremonySchema.parse(
    dataOf(await t.post('/v1/users/me/passkeys/options', { password: PASSWORD }, token)),
  );
  const added = await t.post(
    '/v1/users/me/passkeys',
    { ceremony, name, response: key.register(options) },
    token,
  );
  return { key, passkey: passkeySchema.parse(dataOf(added)) };
}

const signInOptions = async () =>
  passkeyCeremonySchema.parse(dataOf(await t.post('/v1/auth/passkey/options', {})));

const del = (path: string, body: unknown, token: string) =>
  t.request('DELETE', path, { body, token });

describe('passkeys', () => {
  it('are added with the password, listed by name, and sign in without one', async () => {
    const who = await account();
    const { key, passkey } = await addPasskey(who.token, 'Work laptop');
    expect(passkey).toMatchObject({ name: 'Work laptop', lastUsedAt: null });

    const { ceremony, options } = await signInOptions();
    const signedIn = await t.post('/v1/auth/passkey', { ceremony, response: key.answer(options) });
    const session = authResultSchema.parse(dataOf(signedIn));
    expect(session._id).toBe(who.id);
    expect((await t.get('/v1/users/me', session.token)).status).toBe(200);

    const listed = z
      .array(passkeySchema)
      .parse(dataOf(await t.get('/v1/users/me/passkeys', session.token)));
    expect(listed).toEqual([{ ...passkey, lastUsedAt: t.clock.current.toISOString() }]);
  });

  it('ask for the password before one is added, and refuse a wrong one', async () => {
    const who = await account();
    expectError(await t.post('/v1/users/me/passkeys/options', {}, who.token), 400);
    expectError(
      await t.post('/v1/users/me/passkeys/options', { password: 'not-it-at-all' }, who.token),
      403,
      'WRONG_PASSWORD',
    );
  });

  it('accept an answer once: the same sign-in sent again is refused', async () => {
    const who = await account();
    const { key } = await addPasskey(who.token);
    const { ceremony, options } = await signInOptions();
    const body = { ceremony, response: key.answer(options) };
    expect((await t.post('/v1/auth/passkey', body)).status).toBe(200);
    expectError(await t.post('/v1/auth/passkey', body), 401, 'CEREMONY_EXPIRED');
  });

  it('refuse an answer made for another site, without user verification, or with a counter that went back', async () => {
    const who = await account();
    const key = softPasskey(t.config.publicUrl);
    const opened = passkeyCeremonySchema.parse(
      dataOf(await t.post('/v1/users/me/passkeys/options', { password: PASSWORD }, who.token)),
    );
    const phished = key.register(opened.options, { from: 'https://studio.evil.example' });
    expectError(
      await t.post(
        '/v1/users/me/passkeys',
        { ceremony: opened.ceremony, name: 'Phished', response: phished },
        who.token,
      ),
      400,
      'PASSKEY_REFUSED',
    );

    const { key: mine } = await addPasskey(who.token);
    let { ceremony, options } = await signInOptions();
    const unverified = mine.answer(options, { userVerified: false });
    expectError(await t.post('/v1/auth/passkey', { ceremony, response: unverified }), 400);

    ({ ceremony, options } = await signInOptions());
    expect(
      (await t.post('/v1/auth/passkey', { ceremony, response: mine.answer(options) })).status,
    ).toBe(200);
    ({ ceremony, options } = await signInOptions());
    const cloned = mine.answer(options, { counter: 1 });
    expectError(
      await t.post('/v1/auth/passkey', { ceremony, response: cloned }),
      400,
      'PASSKEY_REFUSED',
    );
  });

  it('are renamed, and removed only with the password; a removed one signs in no more', async () => {
    const who = await account();
    const { key, passkey } = await addPasskey(who.token);
    const path = `/v1/users/me/passkeys/${passkey.id}`;
    const renamed = await t.patch(path, { name: 'Phone' }, who.token);
    expect(passkeySchema.parse(dataOf(renamed)).name).toBe('Phone');

    expectError(await del(path, {}, who.token), 400);
    const other = await account();
    expectError(await del(path, { password: PASSWORD }, other.token), 404);
    expectError(await t.patch(path, { name: 'Mine now' }, other.token), 404);

    expect(dataOf(await del(path, { password: PASSWORD }, who.token))).toEqual([]);
    const { ceremony, options } = await signInOptions();
    expectError(
      await t.post('/v1/auth/passkey', { ceremony, response: key.answer(options) }),
      401,
      'PASSKEY_UNKNOWN',
    );
  });

  it('sign in no disabled account', async () => {
    const who = await account();
    const { key } = await addPasskey(who.token);
    await t.db.query('UPDATE users SET disabled_at = $2 WHERE id = $1', [who.id, t.clock.current]);
    const { ceremony, options } = await signInOptions();
    expectError(
      await t.post('/v1/auth/passkey', { ceremony, response: key.answer(options) }),
      403,
      'ACCOUNT_DISABLED',
    );
  });
});

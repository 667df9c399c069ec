/**
 * Fresh proof before a change that decides who can sign in (server/auth/fresh-proof.ts): an
 * account without a password confirms with a code mailed to its current address, so a borrowed
 * session alone can neither set up an authenticator, move the address, set a first password nor
 * delete the account; an account with a password confirms with it, as before.
 */
import { describe, expect, it } from 'vitest';
import { totpEnrolmentSchema } from '../contract/account-schemas';
import { authResultSchema } from '../contract/schemas';
import { dataOf, expectError, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();

/** An account that signs in by mailed codes only (no password), signed in. */
async function passwordless() {
  const email = uniqueEmail('codes');
  dataOf(await t.post('/v1/auth/signup/passwordless', { email }));
  const { code } = await t.lastMail(email, 'login');
  const session = authResultSchema.parse(dataOf(await t.post('/v1/auth/login', { email, code })));
  return { email, token: session.token };
}

/** Mails a code to the signed-in account's address and reads it from the mailbox. */
async function proofCode(who: { email: string; token: string }): Promise<string> {
  expect(dataOf(await t.post('/v1/users/me/proof-code', {}, who.token))).toEqual({ sent: true });
  const mail = await t.lastMail(who.email, 'proof');
  return mail.code!;
}

const enrol = (body: object, token: string, client: Pick<typeof t, 'post'> = t) =>
  client.post('/v1/users/me/second-factor/totp', body, token);

/** Another six digits than `code`. */
const other = (code: string) => (code === '000000' ? '000001' : '000000');

describe('an account without a password', () => {
  it('cannot set up an authenticator on its session alone; a code mailed to it confirms', async () => {
    const who = await passwordless();
    expect(dataOf(await t.get('/v1/users/me/proof', who.token))).toEqual({
      method: 'code',
      email: who.email,
    });
    const refused = expectError(await enrol({}, who.token), 403, 'PROOF_REQUIRED');
    expect(refused.message).toMatch(/code mailed to your address/);

    const code = await proofCode(who);
    totpEnrolmentSchema.parse(dataOf(await enrol({ code }, who.token)));
    // Used once, it confirms nothing more.
    expectError(await enrol({ code }, who.token), 400, 'INVALID_CODE');
  });

  it.each([
    ['moving the address', 'POST', '/v1/users/me/email', () => ({ email: uniqueEmail('moved') })],
    [
      'setting a first password',
      'PUT',
      '/v1/users/me/password',
      () => ({ password: 'x'.repeat(16) }),
    ],
    ['deleting the account', 'DELETE', '/v1/users/me', () => ({})],
  ])('asks the same before %s', async (_what, method, path, body) => {
    const who = await passwordless();
    expectError(
      await t.request(method, path, { body: body(), token: who.token }),
      403,
      'PROOF_REQUIRED',
    );
    const code = await proofCode(who);
    expectError(
      await t.request(method, path, { body: { ...body(), code: other(code) }, token: who.token }),
      400,
      'INVALID_CODE',
    );
    dataOf(await t.request(method, path, { body: { ...body(), code }, token: who.token }));
  });

  it('counts wrong codes against the codes’ limits: past them the right one is refused too', async () => {
    const who = await passwordless();
    const device = t.from();
    const code = await proofCode(who);
    for (let guess = 0; guess < 5; guess += 1) {
      expectError(await enrol({ code: other(code) }, who.token, device), 400, 'INVALID_CODE');
    }
    expectError(await enrol({ code }, who.token, device), 400, 'INVALID_CODE');
    // A new code takes guesses again.
    totpEnrolmentSchema.parse(
      dataOf(await enrol({ code: await proofCode(who) }, who.token, device)),
    );
  });
});

describe('an account with a password', () => {
  it('confirms with it as before, and is mailed no code', async () => {
    const who = await t.signUp();
    const token = who.token;
    expect(dataOf(await t.get('/v1/users/me/proof', token))).toEqual({
      method: 'password',
      email: who.email,
    });
    expectError(await t.post('/v1/users/me/proof-code', {}, token), 409, 'HAS_PASSWORD');
    expectError(
      await t.request('DELETE', '/v1/users/me', { body: { code: '123456' }, token }),
      400,
    );
    expectError(
      await t.request('DELETE', '/v1/users/me', { body: { password: 'not it' }, token }),
      403,
      'WRONG_PASSWORD',
    );
    dataOf(
      await t.request('DELETE', '/v1/users/me', { body: { password: 'password-123' }, token }),
    );
  });
});

describe('a guest', () => {
  it('has neither a password nor an address: its session alone deletes it', async () => {
    const { token } = await t.signUpAnonymous();
    expect(dataOf(await t.get('/v1/users/me/proof', token))).toEqual({
      method: 'none',
      email: null,
    });
    dataOf(await t.request('DELETE', '/v1/users/me', { body: {}, token }));
  });
});

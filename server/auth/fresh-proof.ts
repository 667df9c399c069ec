/**
 * Fresh proof that the owner is at the keyboard, before a change that decides who can sign in
 * (an authenticator, the address, a first password, deletion; docs/api.md "Your account"). A
 * session may be borrowed (a shared computer, a stolen token): the account's current password
 * proves more, and an account without one proves it with a code mailed to its current address
 * (POST /v1/users/me/proof-code), a one-time code like any other (one-time-codes.ts: single use,
 * its guesses limited).
 */
import type { Context } from 'hono';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { fail } from '../http/errors';
import type { UserRow } from '../users';
import { sendCode, takeMailAttempt } from './code-mail';
import { consumeCode, failCode } from './one-time-codes';
import { verifyPassword } from './password';
import { LIMITS, takeAttempt } from './rate-limit';

/** What a change's body may carry to confirm it: the password, or a mailed code. */
interface Proof {
  password?: string | undefined;
  code?: string | undefined;
}

/**
 * How the account of `user` confirms a change: its password, a mailed code, or (a guest, with
 * neither an address nor a password) nothing but its session.
 */
export function proofMethodOf(user: UserRow): 'password' | 'code' | 'none' {
  if (user.password_hash !== null) return 'password';
  return user.email === null ? 'none' : 'code';
}

/**
 * Confirms a sensitive change with the account's current password, when it has one. Wrong
 * passwords share the re-authentication limit of POST /v1/auth/password-id-verification.
 */
export async function confirmPassword(
  deps: Deps,
  user: UserRow,
  password: string | undefined,
  field: string,
): Promise<void> {
  if (user.password_hash === null) return;
  if (password === undefined) fail(400, 'VALIDATION_ERROR', `${field}: Required`);
  const attempt = await takeAttempt(
    deps.db,
    [{ key: `reauth:${user.id}`, limit: LIMITS.reauthPerUser }],
    deps.now(),
  );
  if (!(await verifyPassword(password, user.password_hash, `user:${user.id}`))) {
    fail(403, 'WRONG_PASSWORD', `${field}: This is not your current password`);
  }
  await attempt.giveBack();
}

/**
 * Confirms a change that decides who can sign in: the current password (named `passwordField`
 * in the body) of an account that has one, else a code mailed to its address, spent here. A
 * guest has neither an address nor a password: its session is all there is of it.
 */
export async function confirmOwner(
  deps: Deps,
  c: Context,
  user: UserRow,
  proof: Proof,
  passwordField = 'password',
): Promise<void> {
  const method = proofMethodOf(user);
  if (method === 'none') return;
  if (method === 'password') return confirmPassword(deps, user, proof.password, passwordField);
  if (proof.code === undefined) {
    fail(
      403,
      'PROOF_REQUIRED',
      'code: Confirm it is you with a code mailed to your address (POST /v1/users/me/proof-code)',
    );
  }
  const result = await consumeCode(deps.db, {
    lookup: { email: user.email! },
    purpose: 'proof',
    code: proof.code,
    client: clientAddress(c, deps.config),
    now: deps.now(),
    secret: deps.config.keys.codeHashing,
    // A code another account was mailed for this address (before it moved) proves nothing here.
    beforeUse: (_tx, userId) => {
      if (userId !== user.id) failCode('invalid');
      return Promise.resolve();
    },
  });
  if (!result.ok) failCode(result.reason);
}

/**
 * Mails a code that confirms a change to the signed-in account without a password (409
 * HAS_PASSWORD for one with a password: that confirms it). Past the address's limit the newest
 * code is mailed again, as for every code.
 */
export async function sendProofCode(deps: Deps, c: Context, user: UserRow): Promise<void> {
  if (proofMethodOf(user) === 'password') {
    fail(409, 'HAS_PASSWORD', 'Your account has a password: confirm changes with it');
  }
  const client = clientAddress(c, deps.config);
  await takeMailAttempt(deps, client);
  await sendCode(deps, { email: user.email!, user, purpose: 'proof', client });
}

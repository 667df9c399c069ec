/**
 * Signing in with a passkey alone (docs/api.md "Passkeys"): the browser's prompt answers the
 * server's ceremony, and the session is stored as a password sign-in's is, with no second step
 * (the passkey verified its user). A prompt closed or timed out leaves the user signed out and
 * says so.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { SignInResult } from '../../contract/account-schemas';
import type { AuthResult } from '../../contract/schemas';
import { ApiError } from '../api/errors';
import {
  isLoggedIn,
  sessionMachine,
  type CodeCredentials,
  type PasswordCredentials,
} from './session.machine';
import { deferredActor, liveCall, type Deferred } from './testing/deferred';

const SESSION: AuthResult = {
  _id: 'u1',
  email: 'ada@example.com',
  verifiedAt: '2025-01-01T00:00:00.000Z',
  role: 'developer',
  assets: ['a1'],
  wallets: [],
  settings: { isPasswordUpdated: true, isEmailVerified: true },
  token: 'token-1',
  refreshToken: 'refresh-1',
};

function start() {
  const calls: Deferred<unknown, AuthResult>[] = [];
  const logins: Deferred<PasswordCredentials | CodeCredentials, SignInResult>[] = [];
  const actor = createActor(
    sessionMachine.provide({
      actors: { passkeyLogin: deferredActor(calls), login: deferredActor(logins) },
    }),
    { input: undefined },
  ).start();
  return { actor, calls, logins };
}

const refusal = (status: ApiError['status'], code: string) =>
  new ApiError({ status, code, message: code });

describe('signing in with a passkey', () => {
  it('stores the session with no second step, as a password sign-in ends', async () => {
    const { actor, calls, logins } = start();
    actor.send({ type: 'LOGIN_PASSKEY' });
    // Busy while the browser asks for the passkey: the page shows it on the button.
    expect(actor.getSnapshot().matches({ authenticating: 'passkey' })).toBe(true);
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);

    await liveCall(calls).settle({ ok: SESSION });
    const { value, context } = actor.getSnapshot();
    expect(value).toBe('idle');
    expect(isLoggedIn(context)).toBe(true);
    expect(context.data).toMatchObject({ _id: 'u1', token: 'token-1', refreshToken: 'refresh-1' });
    expect(context.secondFactor).toBeNull();
    expect(context.isRestored).toBe(true);
    // No password or e-mail went anywhere.
    expect(logins).toEqual([]);
  });

  it('stays signed out and says so when the prompt was closed or timed out', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'LOGIN_PASSKEY' });
    await liveCall(calls).settle({ error: refusal('PASSKEY_ERROR', 'PASSKEY_CANCELLED') });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);
    expect(actor.getSnapshot().context.error?.code).toBe('PASSKEY_CANCELLED');
  });

  it('refuses a passkey of no account here, and starts the next try afresh', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'LOGIN_PASSKEY' });
    await liveCall(calls).settle({ error: refusal(401, 'PASSKEY_UNKNOWN') });
    expect(actor.getSnapshot().context.error).toEqual({
      status: 401,
      code: 'PASSKEY_UNKNOWN',
      message: 'PASSKEY_UNKNOWN',
    });

    actor.send({ type: 'LOGIN_PASSKEY' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await liveCall(calls).settle({ ok: SESSION });
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(true);
  });
});

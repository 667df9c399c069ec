/**
 * The session machine's second step of a sign-in (docs/api.md "Two-step sign-in"): an
 * account with an authenticator or a passkey answers the password or the code with a challenge,
 * and only a right code of the authenticator (or a recovery code), or one of its passkeys, makes
 * a session.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { SecondFactorChallenge, SignInResult } from '../../contract/account-schemas';
import type { AuthResult } from '../../contract/schemas';
import { ApiError } from '../api/errors';
import {
  isLoggedIn,
  sessionMachine,
  type CodeCredentials,
  type PasswordCredentials,
  type SecondStepInput,
} from './session.machine';

const CHALLENGE: SecondFactorChallenge = {
  secondFactor: 'totp',
  challenge: 'signed-challenge',
  expiresAt: '2030-01-01T00:05:00.000Z',
};
/** An account whose only second factor is a passkey: WebAuthn's request options come along. */
const PASSKEY_CHALLENGE: SecondFactorChallenge = {
  ...CHALLENGE,
  secondFactor: 'passkey',
  passkey: {
    challenge: 'webauthn-challenge',
    allowCredentials: [{ id: 'key-1', type: 'public-key' }],
  },
};
const SESSION: AuthResult = {
  _id: 'u1',
  email: 'ada@example.com',
  verifiedAt: '2025-01-01T00:00:00.000Z',
  role: 'admin',
  assets: [],
  wallets: [],
  settings: { isPasswordUpdated: true, isEmailVerified: true },
  token: 'token-1',
  refreshToken: 'refresh-1',
};

/** The machine with the server's answers given per test. */
function start(
  secondStep: (input: SecondStepInput) => Promise<AuthResult>,
  challenge: SecondFactorChallenge = CHALLENGE,
) {
  const secondFactor = vi.fn(secondStep);
  const logout = vi.fn(() => Promise.resolve({ success: true }));
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise<SignInResult, PasswordCredentials | CodeCredentials>(() =>
          Promise.resolve(challenge),
        ),
        secondFactor: fromPromise<AuthResult, SecondStepInput>(({ input }) => secondFactor(input)),
        logout: fromPromise<unknown, { refreshToken: string }>(logout),
      },
    }),
    { input: undefined },
  ).start();
  const settled = () =>
    vi.waitFor(() => expect(actor.getSnapshot().matches('authenticating')).toBe(false));
  return { actor, secondFactor, logout, settled };
}

const wrongCode = () =>
  Promise.reject(
    new ApiError({
      status: 401,
      code: 'INVALID_SECOND_FACTOR',
      message: 'code: Wrong or used code',
    }),
  );

describe('the second step of a sign-in', () => {
  it('asks for the code after the password, and signs in only with it', async () => {
    const { actor, secondFactor, settled } = start(() => Promise.resolve(SESSION));
    actor.send({ type: 'LOGIN_VERIFIED', email: 'ada@example.com', password: 'pw' });
    await settled();
    expect(actor.getSnapshot().value).toBe('secondFactor');
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);
    expect(actor.getSnapshot().context.secondFactor).toEqual(CHALLENGE);

    actor.send({ type: 'SECOND_FACTOR', code: '123456' });
    await settled();
    expect(secondFactor).toHaveBeenCalledWith({ challenge: 'signed-challenge', code: '123456' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(true);
    expect(actor.getSnapshot().context.secondFactor).toBeNull();
  });

  it('asks for it after a mailed sign-in code too', async () => {
    const { actor, settled } = start(() => Promise.resolve(SESSION));
    actor.send({ type: 'LOGIN', email: 'ada@example.com', code: '654321' });
    await settled();
    expect(actor.getSnapshot().value).toBe('secondFactor');
  });

  it('keeps the step with the error after a wrong code, and clears it on the next try', async () => {
    const { actor, secondFactor, settled } = start(wrongCode);
    actor.send({ type: 'LOGIN_VERIFIED', email: 'ada@example.com', password: 'pw' });
    await settled();
    actor.send({ type: 'SECOND_FACTOR', code: '000000' });
    await settled();
    expect(actor.getSnapshot().value).toBe('secondFactor');
    expect(actor.getSnapshot().context.error?.code).toBe('INVALID_SECOND_FACTOR');
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);

    secondFactor.mockImplementation(() => Promise.resolve(SESSION));
    actor.send({ type: 'SECOND_FACTOR', code: 'abcde-fghij' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await settled();
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(true);
  });

  it('goes back to the first step when the challenge is spent', async () => {
    const { actor, settled } = start(() =>
      Promise.reject(
        new ApiError({ status: 401, code: 'CHALLENGE_EXPIRED', message: 'sign in again' }),
      ),
    );
    actor.send({ type: 'LOGIN_VERIFIED', email: 'ada@example.com', password: 'pw' });
    await settled();
    actor.send({ type: 'SECOND_FACTOR', code: '000000' });
    await settled();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.secondFactor).toBeNull();
    expect(actor.getSnapshot().context.error?.code).toBe('CHALLENGE_EXPIRED');
  });

  it('asks for it after an invitation accepted into an account that has it', async () => {
    const { actor, secondFactor, settled } = start(() => Promise.resolve(SESSION));
    actor.send({ type: 'SESSION_STARTED', result: CHALLENGE });
    expect(actor.getSnapshot().value).toBe('secondFactor');
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'SECOND_FACTOR', code: '123456' });
    await settled();
    expect(secondFactor).toHaveBeenCalledWith({ challenge: 'signed-challenge', code: '123456' });
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(true);
  });

  it('can be left for the first step', async () => {
    const { actor, secondFactor, settled } = start(() => Promise.resolve(SESSION));
    actor.send({ type: 'LOGIN_VERIFIED', email: 'ada@example.com', password: 'pw' });
    await settled();
    actor.send({ type: 'CANCEL_SECOND_FACTOR' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.secondFactor).toBeNull();
    expect(secondFactor).not.toHaveBeenCalled();
  });

  it("answers it with the account's passkey, asked with the challenge's options", async () => {
    const { actor, secondFactor, settled } = start(
      () => Promise.resolve(SESSION),
      PASSKEY_CHALLENGE,
    );
    actor.send({ type: 'LOGIN_VERIFIED', email: 'ada@example.com', password: 'pw' });
    await settled();
    expect(actor.getSnapshot().context.secondFactor).toEqual(PASSKEY_CHALLENGE);

    actor.send({ type: 'SECOND_FACTOR_PASSKEY' });
    await settled();
    expect(secondFactor).toHaveBeenCalledWith({
      challenge: 'signed-challenge',
      passkey: PASSKEY_CHALLENGE.passkey,
    });
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(true);
    expect(actor.getSnapshot().context.secondFactor).toBeNull();
  });

  it('keeps the step when the passkey prompt was closed, and a code still answers', async () => {
    const { actor, secondFactor, settled } = start(
      () =>
        Promise.reject(
          new ApiError({ status: 'PASSKEY_ERROR', code: 'PASSKEY_CANCELLED', message: 'closed' }),
        ),
      { ...PASSKEY_CHALLENGE, secondFactor: 'totp' },
    );
    actor.send({ type: 'LOGIN_VERIFIED', email: 'ada@example.com', password: 'pw' });
    await settled();
    actor.send({ type: 'SECOND_FACTOR_PASSKEY' });
    await settled();
    expect(actor.getSnapshot().value).toBe('secondFactor');
    expect(actor.getSnapshot().context.error?.code).toBe('PASSKEY_CANCELLED');

    secondFactor.mockImplementation(() => Promise.resolve(SESSION));
    actor.send({ type: 'SECOND_FACTOR', code: '123456' });
    await settled();
    expect(secondFactor).toHaveBeenLastCalledWith({
      challenge: 'signed-challenge',
      code: '123456',
    });
    expect(isLoggedIn(actor.getSnapshot().context)).toBe(true);
  });
});

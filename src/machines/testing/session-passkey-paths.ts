/**
 * The session machine's passkey paths, for its path tests (session.machine.test.ts): signing in
 * with a passkey alone, and a passkey answering the second step of a password sign-in.
 */
import { expect } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import type { SecondFactorChallenge, SignInResult } from '../../../contract/account-schemas';
import type { AuthResult } from '../../../contract/schemas';
import { ApiError } from '../../api/errors';
import {
  isLoggedIn,
  sessionMachine,
  type CodeCredentials,
  type PasswordCredentials,
  type SecondStepInput,
} from '../session.machine';
import { deferredActor, liveCall, type Deferred } from './deferred';
import { pathSuite, type PathTools } from './path-tests';

type PasskeyError = 'PASSKEY_CANCELLED' | 'PASSKEY_UNKNOWN' | 'CHALLENGE_EXPIRED' | null;

/**
 * docs/api.md "Passkeys": a passkey signs in alone, with no second step; an account with one
 * answers a password with a challenge that the passkey answers. A prompt closed or timed out
 * changes nothing but says so: signed out on the sign-in page, still on the second step there;
 * a spent challenge goes back to the first step.
 */
const model = setup({
  types: {
    context: {} as { error: PasskeyError },
    events: {} as {
      type:
        | 'PASSKEY_LOGIN'
        | 'PASSWORD_LOGIN'
        | 'SERVER_CHALLENGE'
        | 'USE_PASSKEY'
        | 'PROMPT_CLOSED'
        | 'SERVER_OK'
        | 'SERVER_UNKNOWN'
        | 'SERVER_SPENT';
    },
  },
}).createMachine({
  id: 'passkeys',
  context: { error: null },
  initial: 'loggedOut',
  states: {
    loggedOut: {
      on: {
        PASSKEY_LOGIN: { target: 'signingIn', actions: assign({ error: null }) },
        PASSWORD_LOGIN: { target: 'loggingIn', actions: assign({ error: null }) },
      },
    },
    signingIn: {
      on: {
        SERVER_OK: 'loggedIn',
        PROMPT_CLOSED: { target: 'loggedOut', actions: assign({ error: 'PASSKEY_CANCELLED' }) },
        SERVER_UNKNOWN: { target: 'loggedOut', actions: assign({ error: 'PASSKEY_UNKNOWN' }) },
      },
    },
    loggingIn: { on: { SERVER_CHALLENGE: 'secondStep' } },
    secondStep: { on: { USE_PASSKEY: { target: 'checking', actions: assign({ error: null }) } } },
    checking: {
      on: {
        SERVER_OK: 'loggedIn',
        PROMPT_CLOSED: { target: 'secondStep', actions: assign({ error: 'PASSKEY_CANCELLED' }) },
        SERVER_SPENT: { target: 'loggedOut', actions: assign({ error: 'CHALLENGE_EXPIRED' }) },
      },
    },
    loggedIn: { type: 'final' },
  },
});

const CHALLENGE: SecondFactorChallenge = {
  secondFactor: 'passkey',
  challenge: 'signed-challenge',
  expiresAt: '2030-01-01T00:05:00.000Z',
  passkey: { challenge: 'webauthn-challenge', allowCredentials: [{ id: 'key-1' }] },
};

const SESSION: AuthResult = {
  _id: 'u-passkey',
  email: 'ada@example.com',
  verifiedAt: '2025-01-01T00:00:00.000Z',
  role: 'user',
  assets: [],
  wallets: [],
  settings: { isPasswordUpdated: true, isEmailVerified: true },
  token: 'token-passkey',
  refreshToken: 'refresh-passkey',
};

const failure = (status: ApiError['status'], code: string) => ({
  error: new ApiError({ status, code, message: code }),
});

function system({ inspect, clock }: PathTools) {
  const logins: Deferred<PasswordCredentials | CodeCredentials, SignInResult>[] = [];
  const passkeyLogins: Deferred<unknown, AuthResult>[] = [];
  const secondSteps: Deferred<SecondStepInput, AuthResult>[] = [];
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        login: deferredActor(logins),
        passkeyLogin: deferredActor(passkeyLogins),
        secondFactor: deferredActor(secondSteps),
      },
    }),
    { input: undefined, inspect, clock },
  ).start();
  /** Settles the one call in flight, whichever actor made it. */
  const settle = (outcome: { ok: SignInResult } | { error: Error }) => () => {
    const live = [...logins, ...passkeyLogins, ...secondSteps].filter((c) => !c.settled);
    expect(live).toHaveLength(1);
    return (live[0] as Deferred<unknown, SignInResult>).settle(outcome);
  };
  const expectError = (error: PasskeyError) =>
    expect(actor.getSnapshot().context.error?.code ?? null).toBe(error);
  type Snapshot = { context: { error: PasskeyError } };
  return {
    actor,
    states: {
      loggedOut: ({ context }: Snapshot) => {
        expect(actor.getSnapshot().value).toBe('idle');
        expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);
        expect(actor.getSnapshot().context.secondFactor).toBeNull();
        expectError(context.error);
      },
      signingIn: () => {
        expect(actor.getSnapshot().matches({ authenticating: 'passkey' })).toBe(true);
        expect(liveCall(passkeyLogins).input).toBeUndefined();
        expectError(null);
      },
      loggingIn: () =>
        expect(actor.getSnapshot().matches({ authenticating: 'verifiedLogin' })).toBe(true),
      secondStep: ({ context }: Snapshot) => {
        expect(actor.getSnapshot().value).toBe('secondFactor');
        expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);
        expectError(context.error);
      },
      checking: () => {
        expect(actor.getSnapshot().matches({ authenticating: 'secondStep' })).toBe(true);
        // The browser is asked with the options the challenge brought, not a code.
        expect(liveCall(secondSteps).input).toEqual({
          challenge: CHALLENGE.challenge,
          passkey: CHALLENGE.passkey,
        });
      },
      loggedIn: () => {
        expect(actor.getSnapshot().value).toBe('idle');
        expect(actor.getSnapshot().context.data.token).toBe('token-passkey');
        expect(actor.getSnapshot().context.secondFactor).toBeNull();
      },
    },
    events: {
      PASSKEY_LOGIN: () => actor.send({ type: 'LOGIN_PASSKEY' }),
      PASSWORD_LOGIN: () =>
        actor.send({ type: 'LOGIN_VERIFIED', email: 'ada@example.com', password: 'pw' }),
      SERVER_CHALLENGE: settle({ ok: CHALLENGE }),
      USE_PASSKEY: () => actor.send({ type: 'SECOND_FACTOR_PASSKEY' }),
      PROMPT_CLOSED: settle(failure('PASSKEY_ERROR', 'PASSKEY_CANCELLED')),
      SERVER_OK: settle({ ok: SESSION }),
      SERVER_UNKNOWN: settle(failure(401, 'PASSKEY_UNKNOWN')),
      SERVER_SPENT: settle(failure(401, 'CHALLENGE_EXPIRED')),
    },
  };
}

/** The passkey paths: one per modelled transition. */
export const passkeyPaths = pathSuite({
  name: 'passkeys',
  model,
  options: {
    serializeTransition: (_snapshot, event, previous) =>
      ` via ${event?.type ?? 'start'} from ${JSON.stringify(previous?.value ?? null)}`,
  },
  system,
});

/**
 * Model-based tests: a small abstract model of spec §4 (no invokes, so xstate/graph accepts it)
 * generates paths; each path drives the real session machine with fake login/signup/logout
 * actors whose promises the path's events resolve or reject.
 */
import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, setup } from 'xstate';
import { ApiError } from '../api/errors';
import type { AuthResult, SignupResult } from '../../contract/schemas';
import type { SignInResult } from '../../contract/account-schemas';
import {
  defaultSessionUser,
  defaultSessionContext,
  isAnonymous,
  isLoggedIn,
  sessionMachine,
  USER_NOT_VERIFIED,
  type CodeCredentials,
  type PasswordCredentials,
  type SessionRecord,
  type SignupCredentials,
} from './session.machine';
import { describeMachinePaths, pathSuite, type PathTools } from './testing/path-tests';
import { passkeyPaths } from './testing/session-passkey-paths';

// ---------------------------------------------------------------- the abstract model

type UserKind = 'password' | 'code' | 'verified' | 'member' | 'guest' | 'synced';
type EndedBy =
  | 'loginFailed'
  | 'unverified'
  | 'unverifiedLogoutFailed'
  | 'logout'
  | 'logoutFailed'
  | 'reset'
  | 'invalid'
  | 'sync';

interface ModelContext {
  user: UserKind | null;
  error: 'LOGIN_FAILED' | 'USER_NOT_VERIFIED' | null;
  endedBy: EndedBy | null;
  passwordUpdated: boolean;
  emailVerified: boolean;
  refreshed: boolean;
}

type ModelEvent = {
  type:
    | 'LOGIN'
    | 'LOGIN_CODE'
    | 'LOGIN_VERIFIED'
    | 'SIGNUP'
    | 'SIGNUP_GUEST'
    | 'SERVER_OK'
    | 'SERVER_UNVERIFIED'
    | 'SERVER_FAIL'
    | 'LOGOUT'
    | 'REFRESHED'
    | 'PASSWORD_UPDATED'
    | 'EMAIL_VERIFIED'
    | 'EMAIL_VERIFIED_WITHOUT_ID'
    | 'RESET'
    | 'SESSION_INVALID'
    | 'SYNC'
    | 'SYNC_NULL'
    | 'SESSION_STARTED'
    | 'CLEAR_ERROR';
};

const fresh: ModelContext = {
  user: null,
  error: null,
  endedBy: null,
  passwordUpdated: false,
  emailVerified: false,
  refreshed: false,
};

const modelSetup = setup({
  types: { context: {} as ModelContext, events: {} as ModelEvent },
  actions: {
    start: assign((_, user: UserKind) => ({ ...fresh, user })),
    end: assign(({ context }, endedBy: EndedBy) => ({
      ...fresh,
      endedBy,
      error: endedBy.startsWith('unverified') ? context.error : null,
    })),
  },
});

/** A login or sign-up the server refused: logged out, with LOGIN_FAILED to show. */
const loginFailed = {
  target: 'loggedOut',
  actions: [{ type: 'end', params: 'loginFailed' }, modelSetup.assign({ error: 'LOGIN_FAILED' })],
} as const;

const model = modelSetup.createMachine({
  id: 'model',
  context: fresh,
  initial: 'loggedOut',
  states: {
    loggedOut: {
      on: {
        LOGIN: { target: 'loggingIn', actions: { type: 'start', params: 'password' } },
        LOGIN_CODE: { target: 'loggingIn', actions: { type: 'start', params: 'code' } },
        LOGIN_VERIFIED: {
          target: 'loggingInVerified',
          actions: { type: 'start', params: 'verified' },
        },
        SIGNUP: { target: 'signingUp', actions: { type: 'start', params: 'member' } },
        SIGNUP_GUEST: { target: 'signingUp', actions: { type: 'start', params: 'guest' } },
        SYNC: { target: 'loggedIn', actions: { type: 'start', params: 'synced' } },
        // A session started elsewhere (an accepted invitation) is stored as a login's.
        SESSION_STARTED: { target: 'loggedIn', actions: { type: 'start', params: 'password' } },
        CLEAR_ERROR: {
          guard: ({ context }) => context.error !== null,
          actions: assign({ error: null }),
        },
        // Nothing to revoke: the store is reset (error included) without calling the server.
        LOGOUT: { actions: assign({ error: null }) },
      },
    },
    loggingIn: {
      on: {
        SERVER_OK: 'loggedIn',
        SERVER_FAIL: loginFailed,
      },
    },
    loggingInVerified: {
      on: {
        SERVER_OK: 'loggedIn',
        SERVER_UNVERIFIED: {
          target: 'discardingUnverified',
          actions: assign({ error: 'USER_NOT_VERIFIED' }),
        },
        SERVER_FAIL: loginFailed,
      },
    },
    discardingUnverified: {
      on: {
        SERVER_OK: { target: 'loggedOut', actions: { type: 'end', params: 'unverified' } },
        SERVER_FAIL: {
          target: 'loggedOut',
          actions: { type: 'end', params: 'unverifiedLogoutFailed' },
        },
      },
    },
    signingUp: {
      on: {
        SERVER_OK: 'loggedIn',
        SERVER_FAIL: loginFailed,
      },
    },
    loggedIn: {
      on: {
        // Logging in again starts from a reset store, like the first time.
        LOGIN: { target: 'loggingIn', actions: { type: 'start', params: 'password' } },
        LOGIN_VERIFIED: {
          target: 'loggingInVerified',
          actions: { type: 'start', params: 'verified' },
        },
        SIGNUP_GUEST: { target: 'signingUp', actions: { type: 'start', params: 'guest' } },
        // A guest's new account replaces the whole store, as a fresh login does.
        SESSION_STARTED: { target: 'loggedIn', actions: { type: 'start', params: 'password' } },
        LOGOUT: {
          target: 'loggingOut',
          actions: assign(({ context }) => ({ ...fresh, user: context.user })),
        },
        // Idempotent in the model as in the machine: a second one changes nothing.
        REFRESHED: { actions: assign({ refreshed: true }) },
        PASSWORD_UPDATED: { actions: assign({ passwordUpdated: true }) },
        EMAIL_VERIFIED: { actions: assign({ emailVerified: true }) },
        // Asking for a verification mail is not a verification: the flag stays as it was.
        EMAIL_VERIFIED_WITHOUT_ID: {
          actions: assign({ emailVerified: ({ context }) => context.emailVerified }),
        },
        RESET: { target: 'loggedOut', actions: { type: 'end', params: 'reset' } },
        SESSION_INVALID: { target: 'loggedOut', actions: { type: 'end', params: 'invalid' } },
        SYNC_NULL: { target: 'loggedOut', actions: { type: 'end', params: 'sync' } },
      },
    },
    loggingOut: {
      on: {
        SERVER_OK: { target: 'loggedOut', actions: { type: 'end', params: 'logout' } },
        SERVER_FAIL: { target: 'loggedOut', actions: { type: 'end', params: 'logoutFailed' } },
      },
    },
  },
});

// ---------------------------------------------------------------- fixtures

const EMAIL = 'ada@example.com';
const VERIFIED_AT = '2025-01-02T03:04:05.000Z';

function authResult(kind: UserKind | 'unverified'): AuthResult {
  return {
    _id: `id-${kind}`,
    email: kind === 'guest' ? null : EMAIL,
    verifiedAt: kind === 'verified' ? VERIFIED_AT : null,
    role: kind === 'guest' ? 'anonymous' : 'user',
    assets: ['a1', 'a1'],
    wallets: ['w1'],
    settings: { isPasswordUpdated: false, isEmailVerified: kind === 'verified' },
    token: `token-${kind}`,
    refreshToken: `refresh-${kind}`,
  };
}

const SYNC_RECORD: SessionRecord = {
  data: {
    ...defaultSessionUser(),
    token: 'token-other-tab',
    refreshToken: 'refresh-other-tab',
    _id: 'id-synced',
    email: EMAIL,
  },
};

const REFRESHED_DATA = {
  token: 'token-refreshed',
  refreshToken: 'refresh-refreshed',
  assets: ['a2', 'a2', 'a3'],
};

// ---------------------------------------------------------------- the system under test

interface FakeCall {
  kind: 'login' | 'signup' | 'logout';
  input: unknown;
  settle: (outcome: { ok: unknown } | { error: unknown }) => Promise<void>;
}

function harness({ inspect }: Partial<PathTools> = {}) {
  const calls: FakeCall[] = [];
  const fake =
    <I, O>(kind: FakeCall['kind']) =>
    ({ input }: { input: I }) => {
      let resolve!: (value: O) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<O>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      calls.push({
        kind,
        input,
        settle: async (outcome) => {
          if ('ok' in outcome) resolve(outcome.ok as O);
          else reject(outcome.error);
          // The actor reacts in the promise's own reaction; awaiting it afterwards is enough.
          await promise.then(
            () => undefined,
            () => undefined,
          );
        },
      });
      return promise;
    };
  const redirectToSignin = vi.fn();
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise(fake<PasswordCredentials | CodeCredentials, SignInResult>('login')),
        signup: fromPromise(fake<SignupCredentials, SignupResult>('signup')),
        logout: fromPromise(fake<{ refreshToken: string }, unknown>('logout')),
      },
      actions: { redirectToSignin },
    }),
    { input: undefined, inspect },
  ).start();
  let redirectsBeforeEvent = 0;
  let lastEvent = '';
  return {
    actor,
    calls,
    lastCall: () => {
      const call = calls.at(-1);
      if (!call) throw new Error('no actor was invoked');
      return call;
    },
    markEvent: (type: string) => {
      lastEvent = type;
      redirectsBeforeEvent = redirectToSignin.mock.calls.length;
    },
    /** The redirect runs exactly when the session is found invalid, never otherwise. */
    expectRedirectOnlyOnSessionInvalid: () =>
      expect(redirectToSignin.mock.calls.length - redirectsBeforeEvent).toBe(
        lastEvent === 'SESSION_INVALID' ? 1 : 0,
      ),
    context: () => actor.getSnapshot().context,
  };
}

type Harness = ReturnType<typeof harness>;
type ModelSnapshot = { context: ModelContext };

function expectedUser(context: ModelContext) {
  if (context.user === 'synced') return SYNC_RECORD.data;
  const result = authResult(context.user ?? 'password');
  const base = {
    token: result.token,
    refreshToken: result.refreshToken,
    _id: result._id,
    email: result.email ?? null,
    verifiedAt: result.verifiedAt ?? null,
    assets: ['a1'],
    wallets: ['w1'],
    settings: result.settings,
  };
  return {
    ...base,
    ...(context.refreshed ? { ...REFRESHED_DATA, assets: ['a2', 'a3'] } : {}),
    verifiedAt: context.emailVerified ? VERIFIED_AT : base.verifiedAt,
    settings: {
      isPasswordUpdated: context.passwordUpdated,
      isEmailVerified: context.emailVerified || base.settings.isEmailVerified,
    },
  };
}

function stateChecks(h: Harness) {
  const checks = perStateChecks(h);
  return Object.fromEntries(
    Object.entries(checks).map(([state, check]) => [
      state,
      (snapshot: ModelSnapshot) => {
        check(snapshot);
        h.expectRedirectOnlyOnSessionInvalid();
      },
    ]),
  );
}

function perStateChecks(h: Harness) {
  const expectLoggedOutStore = () => {
    const context = h.context();
    expect(context.data).toEqual(defaultSessionUser());
    expect(isLoggedIn(context)).toBe(false);
    expect(isAnonymous(context)).toBe(false);
    expect(context.isRestored).toBe(false);
    expect(context.isLoggingOut).toBe(false);
  };
  return {
    loggedOut: ({ context: model }: ModelSnapshot) => {
      expect(h.actor.getSnapshot().value).toBe('idle');
      expectLoggedOutStore();
      expect(h.context().isCreating).toBe(false);
      expect(h.context().lastVerificationId).toBeNull();
      expect(h.context().error?.code ?? null).toBe(
        model.error === 'LOGIN_FAILED' ? 'INVALID_CREDENTIALS' : model.error,
      );
    },
    loggingIn: ({ context: model }: ModelSnapshot) => {
      expect(h.actor.getSnapshot().matches({ authenticating: 'login' })).toBe(true);
      expectLoggedOutStore();
      expect(h.context().error).toBeNull();
      expect(h.lastCall()).toEqual(
        expect.objectContaining({
          kind: 'login',
          input:
            model.user === 'code'
              ? { email: EMAIL, code: '123456' }
              : { email: EMAIL, password: 'pw' },
        }),
      );
    },
    loggingInVerified: () => {
      expect(h.actor.getSnapshot().matches({ authenticating: 'verifiedLogin' })).toBe(true);
      expectLoggedOutStore();
      expect(h.lastCall()).toMatchObject({
        kind: 'login',
        input: { email: EMAIL, password: 'pw' },
      });
    },
    discardingUnverified: () => {
      expect(h.actor.getSnapshot().matches({ authenticating: 'discardingUnverified' })).toBe(true);
      // The unverified user is never stored, and its server session is revoked.
      expectLoggedOutStore();
      expect(h.context().error).toEqual(USER_NOT_VERIFIED);
      expect(h.lastCall()).toMatchObject({
        kind: 'logout',
        input: { refreshToken: 'refresh-unverified' },
      });
    },
    signingUp: ({ context: model }: ModelSnapshot) => {
      expect(h.actor.getSnapshot().matches({ authenticating: 'signup' })).toBe(true);
      expectLoggedOutStore();
      expect(h.context().isCreating).toBe(true);
      expect(h.lastCall()).toEqual(
        expect.objectContaining({
          kind: 'signup',
          input: model.user === 'guest' ? {} : { email: EMAIL, password: 'pw' },
        }),
      );
    },
    loggedIn: ({ context: model }: ModelSnapshot) => {
      const context = h.context();
      expect(h.actor.getSnapshot().value).toBe('idle');
      expect(context.data).toEqual(expectedUser(model));
      expect(isLoggedIn(context)).toBe(true);
      expect(isAnonymous(context)).toBe(model.user === 'guest');
      expect(context.isRestored).toBe(true);
      expect(context.isCreating).toBe(false);
      expect(context.error).toBeNull();
      expect(context.lastVerificationId).toBe(model.user === 'member' ? 'ver-1' : null);
    },
    loggingOut: ({ context: model }: ModelSnapshot) => {
      expect(h.actor.getSnapshot().value).toBe('loggingOut');
      expect(h.context().isLoggingOut).toBe(true);
      expect(isLoggedIn(h.context())).toBe(true);
      expect(h.lastCall()).toMatchObject({
        kind: 'logout',
        input: { refreshToken: expectedUser(model).refreshToken },
      });
    },
  };
}

function eventExecutors(h: Harness) {
  const send = (event: Parameters<Harness['actor']['send']>[0]) => () => {
    h.markEvent(event.type);
    h.actor.send(event);
  };
  const settle =
    (
      outcome: (
        kind: FakeCall['kind'],
        user: UserKind | null,
      ) => { ok: unknown } | { error: unknown },
    ) =>
    async ({ state }: { state: ModelSnapshot }) => {
      h.markEvent('server');
      const call = h.lastCall();
      await call.settle(outcome(call.kind, state.context.user));
    };
  return {
    LOGIN: send({ type: 'LOGIN', email: EMAIL, password: 'pw' }),
    LOGIN_CODE: send({ type: 'LOGIN', email: EMAIL, code: '123456' }),
    LOGIN_VERIFIED: send({ type: 'LOGIN_VERIFIED', email: EMAIL, password: 'pw' }),
    SIGNUP: send({ type: 'SIGNUP', email: EMAIL, password: 'pw' }),
    SIGNUP_GUEST: send({ type: 'SIGNUP' }),
    SERVER_OK: settle((kind, user) => {
      if (kind === 'logout') return { ok: { success: true } };
      const result = authResult(user ?? 'password');
      return {
        ok:
          kind === 'signup' && user === 'member' ? { ...result, verificationId: 'ver-1' } : result,
      };
    }),
    SERVER_UNVERIFIED: settle(() => ({ ok: authResult('unverified') })),
    SERVER_FAIL: settle((kind) => ({
      error:
        kind === 'logout'
          ? new ApiError({ status: 'FETCH_ERROR', code: 'FETCH_ERROR', message: 'offline' })
          : new ApiError({
              status: 401,
              code: 'INVALID_CREDENTIALS',
              message: 'Wrong e-mail or password',
            }),
    })),
    LOGOUT: send({ type: 'LOGOUT' }),
    REFRESHED: send({ type: 'REFRESHED', data: REFRESHED_DATA }),
    PASSWORD_UPDATED: send({ type: 'PASSWORD_UPDATED' }),
    EMAIL_VERIFIED: send({
      type: 'EMAIL_VERIFIED',
      verificationId: 'ver-1',
      user: { verifiedAt: VERIFIED_AT },
    }),
    EMAIL_VERIFIED_WITHOUT_ID: send({ type: 'EMAIL_VERIFIED', user: { verifiedAt: VERIFIED_AT } }),
    RESET: send({ type: 'RESET' }),
    SESSION_INVALID: send({ type: 'SESSION_INVALID' }),
    SYNC: send({ type: 'SYNC', record: SYNC_RECORD }),
    SYNC_NULL: send({ type: 'SYNC', record: null }),
    SESSION_STARTED: send({ type: 'SESSION_STARTED', result: authResult('password') }),
    CLEAR_ERROR: send({ type: 'CLEAR_ERROR' }),
  };
}

// ---------------------------------------------------------------- the tests

const EDITS: readonly ModelEvent['type'][] = ['REFRESHED', 'PASSWORD_UPDATED', 'EMAIL_VERIFIED'];

// ---------------------------------------------------------------- the second step of a sign-in

type SecondStepEvent = {
  type:
    | 'LOGIN'
    | 'LOGIN_VERIFIED'
    | 'SERVER_CHALLENGE'
    | 'INVITATION_CHALLENGE'
    | 'CODE'
    | 'SERVER_OK'
    | 'SERVER_WRONG'
    | 'SERVER_SPENT'
    | 'CANCEL';
};
type SecondStepError = 'INVALID_SECOND_FACTOR' | 'CHALLENGE_EXPIRED' | null;

/**
 * docs/api.md "Two-step sign-in": a right password or code of an account with an
 * authenticator answers a challenge, not a session; a right code of the authenticator makes the
 * session; a wrong one asks again; a spent challenge (expired, used, out of tries) goes back to
 * the first step; the user may leave the second step. An invitation accepted into an account
 * with an authenticator answers the same challenge (the accept page starts the session).
 */
const secondStepModel = setup({
  types: {
    context: {} as { error: SecondStepError; via: 'LOGIN' | 'LOGIN_VERIFIED' | null },
    events: {} as SecondStepEvent,
  },
}).createMachine({
  id: 'second-step',
  context: { error: null, via: null },
  initial: 'loggedOut',
  states: {
    loggedOut: {
      on: {
        LOGIN: { target: 'loggingIn', actions: assign({ error: null, via: 'LOGIN' as const }) },
        LOGIN_VERIFIED: {
          target: 'loggingIn',
          actions: assign({ error: null, via: 'LOGIN_VERIFIED' as const }),
        },
        INVITATION_CHALLENGE: { target: 'secondStep', actions: assign({ error: null, via: null }) },
      },
    },
    loggingIn: { on: { SERVER_CHALLENGE: 'secondStep' } },
    secondStep: {
      on: {
        CODE: { target: 'checking', actions: assign({ error: null }) },
        CANCEL: { target: 'loggedOut', actions: assign({ error: null }) },
      },
    },
    checking: {
      on: {
        SERVER_OK: 'loggedIn',
        SERVER_WRONG: {
          target: 'secondStep',
          actions: assign({ error: 'INVALID_SECOND_FACTOR' as const }),
        },
        SERVER_SPENT: {
          target: 'loggedOut',
          actions: assign({ error: 'CHALLENGE_EXPIRED' as const }),
        },
      },
    },
    loggedIn: { type: 'final' },
  },
});

const CHALLENGE = {
  secondFactor: 'totp',
  challenge: 'signed-challenge',
  expiresAt: '2030-01-01T00:05:00.000Z',
} as const;

function secondStepSystem({ inspect }: PathTools) {
  const pending: { settle: (outcome: { ok: unknown } | { error: unknown }) => Promise<void> }[] =
    [];
  const deferred = <O>() => {
    let resolve!: (value: O) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<O>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    pending.push({
      settle: async (outcome) => {
        if ('ok' in outcome) resolve(outcome.ok as O);
        else reject(outcome.error);
        await promise.then(
          () => undefined,
          () => undefined,
        );
      },
    });
    return promise;
  };
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise(() => deferred<SignInResult>()),
        secondFactor: fromPromise(() => deferred<AuthResult>()),
        logout: fromPromise<unknown, { refreshToken: string }>(() =>
          Promise.resolve({ success: true }),
        ),
      },
    }),
    { input: undefined, inspect },
  ).start();
  const settle = (outcome: { ok: unknown } | { error: unknown }) => async () => {
    await pending.at(-1)?.settle(outcome);
  };
  const send = (event: Parameters<typeof actor.send>[0]) => () => actor.send(event);
  const failure = (code: string) => ({ error: new ApiError({ status: 401, code, message: code }) });
  const expectError = (error: SecondStepError) =>
    expect(actor.getSnapshot().context.error?.code ?? null).toBe(error);
  type Snapshot = { context: { error: SecondStepError } };
  return {
    actor,
    states: {
      loggedOut: ({ context }: Snapshot) => {
        expect(actor.getSnapshot().value).toBe('idle');
        expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);
        expect(actor.getSnapshot().context.secondFactor).toBeNull();
        expectError(context.error);
      },
      loggingIn: () => expect(actor.getSnapshot().matches('authenticating')).toBe(true),
      secondStep: ({ context }: Snapshot) => {
        expect(actor.getSnapshot().value).toBe('secondFactor');
        // No session is stored before the second factor is right.
        expect(isLoggedIn(actor.getSnapshot().context)).toBe(false);
        expect(actor.getSnapshot().context.secondFactor).toEqual(CHALLENGE);
        expectError(context.error);
      },
      checking: () => {
        expect(actor.getSnapshot().matches({ authenticating: 'secondStep' })).toBe(true);
        expectError(null);
      },
      loggedIn: () => {
        expect(actor.getSnapshot().value).toBe('idle');
        expect(actor.getSnapshot().context.data.token).toBe('token-verified');
        expect(actor.getSnapshot().context.secondFactor).toBeNull();
      },
    },
    events: {
      LOGIN: send({ type: 'LOGIN', email: EMAIL, password: 'pw' }),
      LOGIN_VERIFIED: send({ type: 'LOGIN_VERIFIED', email: EMAIL, password: 'pw' }),
      SERVER_CHALLENGE: settle({ ok: CHALLENGE }),
      INVITATION_CHALLENGE: send({ type: 'SESSION_STARTED', result: CHALLENGE }),
      CODE: send({ type: 'SECOND_FACTOR', code: '123456' }),
      SERVER_OK: settle({ ok: authResult('verified') }),
      SERVER_WRONG: settle(failure('INVALID_SECOND_FACTOR')),
      SERVER_SPENT: settle(failure('CHALLENGE_EXPIRED')),
      CANCEL: send({ type: 'CANCEL_SECOND_FACTOR' }),
    },
  };
}

describeMachinePaths(sessionMachine, {
  allowUnreached: {
    'transition (machine): USER_CHANGED -> (no target)':
      'the server copy of the user replaces fields the model tracks separately; the hand-written test "a changed e-mail address…" checks it',
  },
  suites: [
    pathSuite({
      name: 'spec §4 model',
      model,
      options: {
        // One vertex per (source state, event, resulting snapshot): every modelled transition,
        // self-loops and ignored events included, ends up on some path.
        serializeTransition: (_snapshot, event, previous) =>
          ` via ${event?.type ?? 'start'} from ${JSON.stringify(previous?.value ?? null)}`,
        // Edits are explored on one kind of user only: the merge rules do not depend on the kind,
        // and exploring them on every kind would multiply the paths without testing anything new.
        filterEvents: (snapshot, event) =>
          !EDITS.includes(event.type) || snapshot.context.user === 'password',
      },
      system: (tools) => {
        const h = harness(tools);
        expect(h.actor.getSnapshot().value).toBe('idle');
        expect(h.context().data).toEqual(defaultSessionUser());
        return { actor: h.actor, states: stateChecks(h), events: eventExecutors(h) };
      },
    }),
    pathSuite({
      name: 'two-step sign-in',
      model: secondStepModel,
      options: {
        serializeTransition: (_snapshot, event, previous) =>
          ` via ${event?.type ?? 'start'} from ${JSON.stringify(previous?.value ?? null)}`,
      },
      system: secondStepSystem,
    }),
    passkeyPaths,
  ],
});

describe('session machine — spec rules', () => {
  it('ignores LOGOUT without a refresh token instead of calling the server', () => {
    const h = harness();
    h.actor.send({ type: 'LOGOUT' });
    expect(h.actor.getSnapshot().value).toBe('idle');
    expect(h.calls).toEqual([]);
  });

  it("keeps the earlier error when adopting another tab's record", () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
    return h
      .lastCall()
      .settle({ error: new ApiError({ status: 401, code: 'X', message: 'no' }) })
      .then(() => {
        h.actor.send({ type: 'SYNC', record: SYNC_RECORD });
        expect(h.context().data).toEqual(SYNC_RECORD.data);
        expect(h.context().error?.code).toBe('X');
      });
  });
  it('counts as logged in only with both tokens, and as anonymous with an id and no e-mail (spec §4)', () => {
    const user = (data: Partial<ReturnType<typeof defaultSessionUser>>) => ({
      data: { ...defaultSessionUser(), ...data },
    });
    expect(isLoggedIn(user({ token: 't', refreshToken: 'r' }))).toBe(true);
    expect(isLoggedIn(user({ token: 't' }))).toBe(false);
    expect(isLoggedIn(user({ refreshToken: 'r' }))).toBe(false);
    expect(isAnonymous(user({ _id: 'u1' }))).toBe(true);
    expect(isAnonymous(user({ _id: 'u1', email: EMAIL }))).toBe(false);
    expect(isAnonymous(user({ email: EMAIL }))).toBe(false);
  });

  it('a password login stores the user with both tokens, so the session counts as logged in', async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
    expect(h.lastCall()).toMatchObject({ kind: 'login', input: { email: EMAIL, password: 'pw' } });
    await h.lastCall().settle({ ok: authResult('verified') });
    expect(h.context().data).toMatchObject({
      token: 'token-verified',
      refreshToken: 'refresh-verified',
      _id: 'id-verified',
      email: EMAIL,
    });
    expect(isLoggedIn(h.context())).toBe(true);
    expect(isAnonymous(h.context())).toBe(false);
    expect(h.context().isRestored).toBe(true);
  });

  it('assets and wallets are kept without duplicates', async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, code: '123456' });
    await h.lastCall().settle({ ok: authResult('verified') });
    expect(h.context().data.assets).toEqual(['a1']);
  });

  it('a failed login leaves the user logged out and keeps the server error for the form', async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, password: 'wrong' });
    const error = new ApiError({ status: 401, code: 'INVALID_CREDENTIALS', message: 'Wrong' });
    await h.lastCall().settle({ error });
    expect(isLoggedIn(h.context())).toBe(false);
    expect(h.context().error).toEqual({
      status: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'Wrong',
    });
    h.actor.send({ type: 'CLEAR_ERROR' });
    expect(h.context().error).toBeNull();
  });

  it('a verified login without verifiedAt logs out with the refresh token and raises USER_NOT_VERIFIED', async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN_VERIFIED', email: EMAIL, password: 'pw' });
    await h.lastCall().settle({ ok: authResult('unverified') });
    expect(h.lastCall()).toMatchObject({
      kind: 'logout',
      input: { refreshToken: 'refresh-unverified' },
    });
    expect(h.context().error?.code).toBe('USER_NOT_VERIFIED');
    expect(isLoggedIn(h.context())).toBe(false);
    await h.lastCall().settle({ ok: {} });
    expect(h.actor.getSnapshot().value).toBe('idle');
    expect(h.context().data.token).toBeNull();
  });

  it('sign-up without an e-mail creates a guest: a user id and no e-mail is anonymous', async () => {
    const h = harness();
    h.actor.send({ type: 'SIGNUP' });
    expect(h.context().isCreating).toBe(true);
    await h.lastCall().settle({ ok: authResult('guest') });
    expect(isLoggedIn(h.context())).toBe(true);
    expect(isAnonymous(h.context())).toBe(true);
  });

  it('sign-up with an e-mail remembers its verificationId for the check-your-mail step', async () => {
    const h = harness();
    h.actor.send({ type: 'SIGNUP', email: EMAIL, password: 'a-long-password' });
    await h.lastCall().settle({ ok: { ...authResult('unverified'), verificationId: 'v-1' } });
    expect(h.context().lastVerificationId).toBe('v-1');
  });

  it('logout revokes the refresh token, and the record is cleared even when the server fails', async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
    await h.lastCall().settle({ ok: authResult('verified') });
    h.actor.send({ type: 'LOGOUT' });
    expect(h.context().isLoggingOut).toBe(true);
    expect(h.lastCall()).toMatchObject({
      kind: 'logout',
      input: { refreshToken: 'refresh-verified' },
    });
    await h.lastCall().settle({ error: new ApiError({ status: 500, code: 'X', message: 'down' }) });
    expect(h.context()).toEqual(defaultSessionContext());
  });

  it('a refresh stores the new tokens and keeps what the answer left out', async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
    await h.lastCall().settle({ ok: authResult('verified') });
    h.actor.send({ type: 'REFRESHED', data: REFRESHED_DATA });
    expect(h.context().data).toMatchObject({
      token: 'token-refreshed',
      refreshToken: 'refresh-refreshed',
      email: EMAIL,
      verifiedAt: VERIFIED_AT,
      assets: ['a2', 'a3'],
    });
  });

  it('completing an e-mail verification marks it verified; asking for a new mail does not', async () => {
    const h = harness();
    h.actor.send({ type: 'SIGNUP', email: EMAIL, password: 'a-long-password' });
    await h.lastCall().settle({ ok: authResult('unverified') });
    h.actor.send({ type: 'EMAIL_VERIFIED' });
    expect(h.context().data.settings.isEmailVerified).toBe(false);
    h.actor.send({
      type: 'EMAIL_VERIFIED',
      verificationId: 'v-1',
      user: { verifiedAt: VERIFIED_AT },
    });
    expect(h.context().data.settings.isEmailVerified).toBe(true);
    expect(h.context().data.verifiedAt).toBe(VERIFIED_AT);
  });

  it('a session found invalid is cleared and sends the user to sign-in', async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
    await h.lastCall().settle({ ok: authResult('verified') });
    h.markEvent('SESSION_INVALID');
    h.actor.send({ type: 'SESSION_INVALID' });
    expect(isLoggedIn(h.context())).toBe(false);
    h.expectRedirectOnlyOnSessionInvalid();
  });

  it("another tab's sign-out (an empty record) signs this tab out too", async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
    await h.lastCall().settle({ ok: authResult('verified') });
    h.actor.send({ type: 'SYNC', record: null });
    expect(h.context()).toEqual(defaultSessionContext());
  });

  it('a guest whose account was created on the account page holds the new session, registered', async () => {
    const h = harness();
    h.actor.send({ type: 'SIGNUP' });
    await h.lastCall().settle({ ok: authResult('guest') });
    h.actor.send({
      type: 'SESSION_STARTED',
      result: { ...authResult('unverified'), _id: 'id-guest' },
    });
    expect(isAnonymous(h.context())).toBe(false);
    expect(h.context().data).toMatchObject({
      _id: 'id-guest',
      email: EMAIL,
      token: 'token-unverified',
      assets: ['a1'],
    });
  });

  it('a changed e-mail address replaces the stored one and keeps the tokens', async () => {
    const h = harness();
    h.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
    await h.lastCall().settle({ ok: authResult('verified') });
    const { token: _token, refreshToken: _refreshToken, ...user } = authResult('verified');
    h.actor.send({ type: 'USER_CHANGED', user: { ...user, email: 'new@example.com' } });
    expect(h.context().data).toMatchObject({
      email: 'new@example.com',
      token: 'token-verified',
      refreshToken: 'refresh-verified',
    });
  });
});

/**
 * The user session (spec §3 record, §4 transitions). Persistence and tab coordination live in
 * session-persistence.ts and app-session.ts; this machine only knows the record and its rules.
 */
import { assertEvent, assign, fromPromise, setup, type DoneActorEvent } from 'xstate';
import { errorInfo, type ApiErrorInfo } from '../api/error-info';
import type { SecondFactorChallenge, SignInResult } from '../../contract/account-schemas';
import type { AuthResult, RefreshResult, SignupResult, User } from '../../contract/schemas';

export interface SessionSettings {
  isPasswordUpdated: boolean;
  isEmailVerified: boolean;
}

/** The `data` part of the spec §3 record. `assets` and `wallets` are set-like: no duplicates. */
export interface SessionUser {
  token: string | null;
  refreshToken: string | null;
  _id: string | null;
  email: string | null;
  verifiedAt: string | null;
  assets: string[];
  wallets: string[];
  settings: SessionSettings;
}

/** The last failure, in the plain form the UI shows (an ApiError's status, code and message). */
export type SessionError = ApiErrorInfo;

export interface SessionContext {
  data: SessionUser;
  isLoggingOut: boolean;
  isCreating: boolean;
  /** True once the record holds a user id (restored from storage or set by a login). */
  isRestored: boolean;
  error: SessionError | null;
  /** The verificationId of the last e-mail sign-up, for the "check your mail" step. Never persisted. */
  lastVerificationId: string | null;
  /**
   * A sign-in waiting for its second step (a code of the account's authenticator, or one of its
   * passkeys). Never persisted.
   */
  secondFactor: SecondFactorChallenge | null;
}

/** The persisted part of the record another tab can hand over (see session-persistence.ts). */
export interface SessionRecord {
  data: SessionUser;
}

export type PasswordCredentials = { email: string; password: string };
export type CodeCredentials = { email: string; code: string };
export type SignupCredentials = { email?: string; password?: string };
/** What answers the second step: a code, or a passkey asked with the challenge's options. */
export type SecondStepInput =
  { challenge: string; code: string } | { challenge: string; passkey: Record<string, unknown> };

export type SessionEvent =
  | ({ type: 'LOGIN' } & (PasswordCredentials | CodeCredentials))
  | ({ type: 'LOGIN_VERIFIED' } & PasswordCredentials)
  | ({ type: 'SIGNUP' } & SignupCredentials)
  /** Signing in with a passkey alone: the browser's prompt, then the session (no second step). */
  | { type: 'LOGIN_PASSKEY' }
  /** The second step of a sign-in: an authenticator's code or a recovery code. */
  | { type: 'SECOND_FACTOR'; code: string }
  /** The second step answered by a passkey of the account (the challenge carries its options). */
  | { type: 'SECOND_FACTOR_PASSKEY' }
  /** Back to the first step (another account, another way to sign in). */
  | { type: 'CANCEL_SECOND_FACTOR' }
  | { type: 'LOGOUT' }
  /**
   * A session started outside the machine (an accepted invitation, a guest's new account), or
   * the challenge of its second step (an invitation accepted into an account with a factor).
   */
  | { type: 'SESSION_STARTED'; result: SignInResult }
  /** The server's new copy of the user (a changed e-mail address). */
  | { type: 'USER_CHANGED'; user: User }
  | { type: 'REFRESHED'; data: RefreshResult }
  | { type: 'PASSWORD_UPDATED' }
  | { type: 'EMAIL_VERIFIED'; verificationId?: string; user?: Partial<User> }
  | { type: 'RESET' }
  | { type: 'SESSION_INVALID' }
  | { type: 'SYNC'; record: SessionRecord | null }
  | { type: 'CLEAR_ERROR' };

export const USER_NOT_VERIFIED: SessionError = {
  status: 403,
  code: 'USER_NOT_VERIFIED',
  message: 'This e-mail address has not been verified yet.',
};

/** The logged-out, not anonymous user. */
export function defaultSessionUser(): SessionUser {
  return {
    token: null,
    refreshToken: null,
    _id: null,
    email: null,
    verifiedAt: null,
    assets: [],
    wallets: [],
    settings: { isPasswordUpdated: false, isEmailVerified: false },
  };
}

/** The whole store after a reset. */
export function defaultSessionContext(): SessionContext {
  return {
    data: defaultSessionUser(),
    isLoggingOut: false,
    isCreating: false,
    isRestored: false,
    error: null,
    lastVerificationId: null,
    secondFactor: null,
  };
}

/** A fresh store holding `data`, as after a restore or a login. */
export function sessionContextFrom(data: SessionUser): SessionContext {
  return { ...defaultSessionContext(), data, isRestored: Boolean(data._id) };
}

/** Spec §4: logged in when both tokens are present. */
export function isLoggedIn({ data }: { data: SessionUser }): boolean {
  return Boolean(data.token && data.refreshToken);
}

/** Spec §4: anonymous (guest) when there is a user id but no e-mail. */
export function isAnonymous({ data }: { data: SessionUser }): boolean {
  return Boolean(data._id) && !data.email;
}

const unique = (values: readonly string[]) => [...new Set(values)];

type UserPatch = Partial<Omit<User, 'settings'>> & {
  settings?: Partial<SessionSettings>;
  token?: string;
  refreshToken?: string;
};

/** Merges server fields into the user; fields the server left out keep their value. */
export function mergeUser(user: SessionUser, patch: UserPatch): SessionUser {
  return {
    token: patch.token ?? user.token,
    refreshToken: patch.refreshToken ?? user.refreshToken,
    _id: patch._id ?? user._id,
    email: patch.email === undefined ? user.email : patch.email,
    verifiedAt: patch.verifiedAt === undefined ? user.verifiedAt : patch.verifiedAt,
    assets: unique(patch.assets ?? user.assets),
    wallets: unique(patch.wallets ?? user.wallets),
    settings: { ...user.settings, ...patch.settings },
  };
}

/** The request code (ky, zod schemas) loads on the first call, not with the sign-in page. */
const authApi = () => import('../api/auth');

const loginInput = (event: SessionEvent): PasswordCredentials | CodeCredentials => {
  assertEvent(event, ['LOGIN', 'LOGIN_VERIFIED']);
  return 'code' in event
    ? { email: event.email, code: event.code }
    : { email: event.email, password: event.password };
};

const signupInput = (event: SessionEvent): SignupCredentials => {
  assertEvent(event, 'SIGNUP');
  const { type: _type, ...credentials } = event;
  return credentials;
};

const secondStepInput = (context: SessionContext, event: SessionEvent): SecondStepInput => {
  assertEvent(event, ['SECOND_FACTOR', 'SECOND_FACTOR_PASSKEY']);
  const challenge = context.secondFactor?.challenge ?? '';
  return event.type === 'SECOND_FACTOR'
    ? { challenge, code: event.code }
    : { challenge, passkey: context.secondFactor?.passkey ?? {} };
};

/** The session of a sign-in answer the `needsSecondFactor` guard has let through. */
const sessionOf = (result: SignInResult): AuthResult => result as AuthResult;

/** The refresh token of a login answer that is about to be discarded. */
const refreshTokenOfDoneEvent = (event: unknown): string =>
  (event as DoneActorEvent<AuthResult>).output.refreshToken;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionContext | undefined,
  },
  actors: {
    login: fromPromise<SignInResult, PasswordCredentials | CodeCredentials>(async ({ input }) =>
      (await authApi()).login(input),
    ),
    passkeyLogin: fromPromise<AuthResult>(async () => (await authApi()).signInWithPasskey()),
    secondFactor: fromPromise<AuthResult, SecondStepInput>(async ({ input }) => {
      const api = await authApi();
      return 'code' in input
        ? api.secondFactor(input)
        : api.secondFactorByPasskey({ challenge: input.challenge, options: input.passkey });
    }),
    signup: fromPromise<SignupResult, SignupCredentials>(async ({ input }) =>
      (await authApi()).signup(input),
    ),
    logout: fromPromise<unknown, { refreshToken: string }>(async ({ input }) =>
      (await authApi()).logout(input),
    ),
  },
  actions: {
    resetStore: assign(() => defaultSessionContext()),
    setUser: assign((_, params: { result: AuthResult }) =>
      sessionContextFrom(mergeUser(defaultSessionUser(), params.result)),
    ),
    rememberVerificationId: assign((_, params: { verificationId: string | undefined }) => ({
      lastVerificationId: params.verificationId ?? null,
    })),
    rememberChallenge: assign((_, params: { result: SignInResult }) => ({
      secondFactor: 'challenge' in params.result ? params.result : null,
    })),
    forgetChallenge: assign({ secondFactor: null }),
    startCreating: assign({ isCreating: true }),
    stopCreating: assign({ isCreating: false }),
    startLoggingOut: assign({ isLoggingOut: true }),
    setError: assign((_, params: { error: SessionError }) => ({ error: params.error })),
    clearError: assign({ error: null }),
    mergeRefreshed: assign(({ context }, params: { data: RefreshResult }) => {
      const data = mergeUser(context.data, params.data);
      return { data, isRestored: Boolean(data._id) };
    }),
    mergeUser: assign(({ context }, params: { user: User }) => ({
      data: mergeUser(context.data, params.user),
    })),
    markPasswordUpdated: assign(({ context }) => ({
      data: mergeUser(context.data, { settings: { isPasswordUpdated: true } }),
    })),
    markEmailVerified: assign(({ context }, params: { user: Partial<User> | undefined }) => ({
      data: mergeUser(context.data, {
        verifiedAt: params.user?.verifiedAt,
        settings: { isEmailVerified: true },
      }),
    })),
    // Only the persisted part comes from the other tab; this tab's flags and error stay its own.
    adoptRecord: assign(({ context }, params: { record: SessionRecord | null }) =>
      params.record
        ? { ...context, data: params.record.data, isRestored: Boolean(params.record.data._id) }
        : defaultSessionContext(),
    ),
    /** Navigation to /signin?reason=login_required; the app supplies it with `.provide`. */
    redirectToSignin: () => {},
  },
  guards: {
    hasRefreshToken: ({ context }) => Boolean(context.data.refreshToken),
    isVerified: (_, params: { result: SignInResult }) =>
      !('challenge' in params.result) && Boolean(params.result.verifiedAt),
    needsSecondFactor: (_, params: { result: SignInResult }) => 'challenge' in params.result,
    /** The challenge is spent (expired, used, or out of tries): the sign-in starts again. */
    isChallengeSpent: (_, params: { error: SessionError }) =>
      params.error.code === 'CHALLENGE_EXPIRED',
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => input ?? defaultSessionContext(),
  initial: 'idle',
  on: {
    REFRESHED: {
      actions: { type: 'mergeRefreshed', params: ({ event }) => ({ data: event.data }) },
    },
    PASSWORD_UPDATED: { actions: 'markPasswordUpdated' },
    SESSION_STARTED: [
      {
        guard: { type: 'needsSecondFactor', params: ({ event }) => ({ result: event.result }) },
        target: '.secondFactor',
        actions: [
          'resetStore',
          { type: 'rememberChallenge', params: ({ event }) => ({ result: event.result }) },
        ],
      },
      {
        target: '.idle',
        actions: { type: 'setUser', params: ({ event }) => ({ result: sessionOf(event.result) }) },
      },
    ],
    USER_CHANGED: {
      actions: { type: 'mergeUser', params: ({ event }) => ({ user: event.user }) },
    },
    EMAIL_VERIFIED: {
      // Only completing a verification carries its id; asking for a mail does not.
      guard: ({ event }) => Boolean(event.verificationId),
      actions: { type: 'markEmailVerified', params: ({ event }) => ({ user: event.user }) },
    },
    SYNC: { actions: { type: 'adoptRecord', params: ({ event }) => ({ record: event.record }) } },
    CLEAR_ERROR: { actions: 'clearError' },
    RESET: { target: '.idle', actions: 'resetStore' },
    SESSION_INVALID: { target: '.idle', actions: ['resetStore', 'redirectToSignin'] },
  },
  states: {
    idle: {
      on: {
        LOGIN: { target: 'authenticating.login', actions: 'resetStore' },
        LOGIN_VERIFIED: { target: 'authenticating.verifiedLogin', actions: 'resetStore' },
        LOGIN_PASSKEY: { target: 'authenticating.passkey', actions: 'resetStore' },
        SIGNUP: { target: 'authenticating.signup', actions: ['resetStore', 'startCreating'] },
        LOGOUT: [
          { guard: 'hasRefreshToken', target: 'loggingOut' },
          // Nothing to revoke on the server: just forget the session.
          { actions: 'resetStore' },
        ],
      },
    },
    authenticating: {
      initial: 'login',
      states: {
        login: {
          invoke: {
            src: 'login',
            input: ({ event }) => loginInput(event),
            onDone: [
              {
                guard: {
                  type: 'needsSecondFactor',
                  params: ({ event }) => ({ result: event.output }),
                },
                target: '#session.secondFactor',
                actions: {
                  type: 'rememberChallenge',
                  params: ({ event }) => ({ result: event.output }),
                },
              },
              {
                target: '#session.idle',
                actions: {
                  type: 'setUser',
                  params: ({ event }) => ({ result: sessionOf(event.output) }),
                },
              },
            ],
            onError: {
              target: '#session.idle',
              actions: {
                type: 'setError',
                params: ({ event }) => ({ error: errorInfo(event.error) }),
              },
            },
          },
        },
        verifiedLogin: {
          invoke: {
            src: 'login',
            input: ({ event }) => loginInput(event),
            onDone: [
              {
                guard: {
                  type: 'needsSecondFactor',
                  params: ({ event }) => ({ result: event.output }),
                },
                target: '#session.secondFactor',
                actions: {
                  type: 'rememberChallenge',
                  params: ({ event }) => ({ result: event.output }),
                },
              },
              {
                guard: { type: 'isVerified', params: ({ event }) => ({ result: event.output }) },
                target: '#session.idle',
                actions: {
                  type: 'setUser',
                  params: ({ event }) => ({ result: sessionOf(event.output) }),
                },
              },
              { target: 'discardingUnverified' },
            ],
            onError: {
              target: '#session.idle',
              actions: {
                type: 'setError',
                params: ({ event }) => ({ error: errorInfo(event.error) }),
              },
            },
          },
        },
        /** Only a verified account holds a passkey, and it verified its user: no second step. */
        passkey: {
          invoke: {
            src: 'passkeyLogin',
            onDone: {
              target: '#session.idle',
              actions: { type: 'setUser', params: ({ event }) => ({ result: event.output }) },
            },
            onError: {
              target: '#session.idle',
              actions: {
                type: 'setError',
                params: ({ event }) => ({ error: errorInfo(event.error) }),
              },
            },
          },
        },
        discardingUnverified: {
          // The user was never stored; the server-side session it opened is revoked right away.
          entry: { type: 'setError', params: { error: USER_NOT_VERIFIED } },
          invoke: {
            src: 'logout',
            input: ({ event }) => ({ refreshToken: refreshTokenOfDoneEvent(event) }),
            onDone: { target: '#session.idle' },
            onError: { target: '#session.idle' },
          },
        },
        secondStep: {
          invoke: {
            src: 'secondFactor',
            input: ({ context, event }) => secondStepInput(context, event),
            onDone: {
              target: '#session.idle',
              actions: { type: 'setUser', params: ({ event }) => ({ result: event.output }) },
            },
            onError: [
              {
                guard: {
                  type: 'isChallengeSpent',
                  params: ({ event }) => ({ error: errorInfo(event.error) }),
                },
                target: '#session.idle',
                actions: [
                  'forgetChallenge',
                  { type: 'setError', params: ({ event }) => ({ error: errorInfo(event.error) }) },
                ],
              },
              {
                target: '#session.secondFactor',
                actions: {
                  type: 'setError',
                  params: ({ event }) => ({ error: errorInfo(event.error) }),
                },
              },
            ],
          },
        },
        signup: {
          invoke: {
            src: 'signup',
            input: ({ event }) => signupInput(event),
            onDone: {
              target: '#session.idle',
              actions: [
                { type: 'setUser', params: ({ event }) => ({ result: event.output }) },
                {
                  type: 'rememberVerificationId',
                  params: ({ event }) => ({ verificationId: event.output.verificationId }),
                },
              ],
            },
            onError: {
              target: '#session.idle',
              actions: [
                'stopCreating',
                { type: 'setError', params: ({ event }) => ({ error: errorInfo(event.error) }) },
              ],
            },
          },
        },
      },
    },
    /** The password or code was right; the account's second factor is asked for (a code or a passkey). */
    secondFactor: {
      on: {
        SECOND_FACTOR: { target: 'authenticating.secondStep', actions: 'clearError' },
        SECOND_FACTOR_PASSKEY: { target: 'authenticating.secondStep', actions: 'clearError' },
        CANCEL_SECOND_FACTOR: { target: 'idle', actions: ['forgetChallenge', 'clearError'] },
      },
    },
    loggingOut: {
      entry: 'startLoggingOut',
      invoke: {
        src: 'logout',
        input: ({ context }) => ({ refreshToken: context.data.refreshToken ?? '' }),
        // Whatever the server says, the local session is over.
        onDone: { target: 'idle', actions: 'resetStore' },
        onError: { target: 'idle', actions: 'resetStore' },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;

/** Auth endpoints (spec §7 "Auth and users"). All are public: the refresh rule never runs for them. */
import type { z } from 'zod/mini';
import { apiRequest, postRefresh, type Outcome, type SilentFlag } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import {
  secondFactorBodySchema,
  signInResultSchema,
  type SignInResult,
} from '../../contract/account-schemas';
import { passkeyCeremonySchema, passkeySignInResultSchema } from '../../contract/passkey-schemas';
import { passkeyAssertion } from './passkey-prompt';
import {
  authResultSchema,
  emailOnlyBodySchema,
  loginBodySchema,
  logoutResultSchema,
  passwordIdVerificationBodySchema,
  passwordIdVerificationResultSchema,
  sentResultSchema,
  signupBodySchema,
  signupResultSchema,
  type AuthResult,
  type SignupResult,
} from '../../contract/schemas';

export type SignupBody = z.input<typeof signupBodySchema> & SilentFlag;
export type LoginBody = z.input<typeof loginBodySchema> & SilentFlag;
export type EmailBody = z.input<typeof emailOnlyBodySchema> & SilentFlag;
export type Sent = z.output<typeof sentResultSchema>;

/** Creates an account; without an e-mail the account is anonymous (a guest). */
export function signup<B extends SignupBody>(body: B): Promise<Outcome<B, SignupResult>> {
  return apiRequest(endpoint(ENDPOINTS.signup), signupResultSchema, {
    method: 'post',
    json: body,
    auth: false,
  });
}

/** Starts a password-less sign-up: the server mails a login code. */
export function signupPasswordless<B extends EmailBody>(body: B): Promise<Outcome<B, Sent>> {
  return apiRequest(endpoint(ENDPOINTS.signupPasswordless), sentResultSchema, {
    method: 'post',
    json: body,
    auth: false,
  });
}

/** Mails a one-time login code to an existing account. */
export function requestLoginCode<B extends EmailBody>(body: B): Promise<Outcome<B, Sent>> {
  return apiRequest(endpoint(ENDPOINTS.loginCode), sentResultSchema, {
    method: 'post',
    json: body,
    auth: false,
  });
}

/**
 * Logs in with e-mail and password or e-mail and a mailed code: the session, or for an account
 * with two-step sign-in the challenge that `secondFactor` answers with a code.
 */
export function login<B extends LoginBody>(body: B): Promise<Outcome<B, SignInResult>> {
  return apiRequest(endpoint(ENDPOINTS.login), signInResultSchema, {
    method: 'post',
    json: body,
    auth: false,
  });
}

/** The second step of a sign-in: the challenge and an authenticator or recovery code, or a passkey's answer. */
export function secondFactor(body: z.input<typeof secondFactorBodySchema>): Promise<AuthResult> {
  return apiRequest(endpoint(ENDPOINTS.secondFactor), authResultSchema, {
    method: 'post',
    json: body,
    auth: false,
  });
}

/**
 * The second step answered by one of the account's passkeys: the browser's prompt for the
 * challenge's `passkey` options, then its answer with the challenge.
 */
export async function secondFactorByPasskey(input: {
  challenge: string;
  options: Record<string, unknown>;
}): Promise<AuthResult> {
  const passkey = await passkeyAssertion(input.options);
  return secondFactor({ challenge: input.challenge, passkey });
}

/**
 * Signs in with a passkey alone (docs/api.md "Passkeys"): the server opens a ceremony, the
 * browser asks for any passkey of this site, and its answer is the session. The passkey verified
 * its user, so no second step follows.
 */
export async function signInWithPasskey(): Promise<AuthResult> {
  const { ceremony, options } = await apiRequest(
    endpoint(ENDPOINTS.passkeySignInOptions),
    passkeyCeremonySchema,
    { method: 'post', auth: false },
  );
  const response = await passkeyAssertion(options);
  return apiRequest(endpoint(ENDPOINTS.passkeySignIn), passkeySignInResultSchema, {
    method: 'post',
    json: { ceremony, response },
    auth: false,
  });
}

/**
 * Rotates the token pair directly. App code should not need it: the session rule in http.ts
 * refreshes before authenticated requests, single-flighted and locked across tabs.
 */
export const refresh = postRefresh;

/** Revokes the refresh token on the server. */
export function logout(body: {
  refreshToken: string;
}): Promise<z.output<typeof logoutResultSchema>> {
  return apiRequest(endpoint(ENDPOINTS.logout), logoutResultSchema, {
    method: 'post',
    json: body,
    auth: false,
  });
}

/** Checks the signed-in user's password (before sensitive changes). */
export function passwordIdVerification(
  body: z.input<typeof passwordIdVerificationBodySchema>,
): Promise<z.output<typeof passwordIdVerificationResultSchema>> {
  return apiRequest(endpoint(ENDPOINTS.passwordCheck), passwordIdVerificationResultSchema, {
    method: 'post',
    json: body,
  });
}

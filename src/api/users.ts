/** User account endpoints (spec §7 "Auth and users"). */
import { z } from 'zod/mini';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import {
  emailExistsResultSchema,
  passwordByCodeBodySchema,
  emailOnlyBodySchema,
  userSchema,
  verifyRequestResultSchema,
  type User,
} from '../../contract/schemas';

type VerifyRequest = { email: string };
type VerifyCompletion = { verificationId: string; code: string };

// The account-recovery and verification calls must work signed out, so they are public;
// http.ts still attaches the bearer token when one exists.

/** Mails a password-reset code. */
export function resetPassword(body: z.input<typeof emailOnlyBodySchema>): Promise<unknown> {
  return apiRequest(endpoint(ENDPOINTS.resetPassword), z.unknown(), {
    method: 'post',
    json: body,
    auth: false,
  });
}

/** Sets a new password with a mailed reset code. */
export function passwordByCode(body: z.input<typeof passwordByCodeBodySchema>): Promise<User> {
  return apiRequest(endpoint(ENDPOINTS.passwordByCode), userSchema, {
    method: 'patch',
    json: body,
    auth: false,
  });
}

/** Without a code: (re)sends the verification mail. With verificationId and code: completes it. */
export function verify(body: VerifyRequest): Promise<z.output<typeof verifyRequestResultSchema>>;
export function verify(body: VerifyCompletion): Promise<User>;
export function verify(body: VerifyRequest | VerifyCompletion) {
  // A completion carries the session (refreshed when due): the server keeps a password only
  // when the proof comes from a session signed in with it (docs/api.md "Sessions").
  const options = { method: 'post', json: body, auth: 'code' in body } as const;
  return 'code' in body
    ? apiRequest(endpoint(ENDPOINTS.verify), userSchema, options)
    : apiRequest(endpoint(ENDPOINTS.verify), verifyRequestResultSchema, options);
}

/** Whether an account with this e-mail exists. */
export async function emailExists(email: string): Promise<boolean> {
  const { exists } = await apiRequest(
    endpoint(ENDPOINTS.emailExists, { email }),
    emailExistsResultSchema,
    { auth: false },
  );
  return exists;
}

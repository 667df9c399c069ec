/**
 * The account page (docs/api.md "Your account"): one's sessions, e-mail address, password,
 * deletion, how changes are confirmed, and a guest's upgrade (the spec's sign-up call with the
 * guest's token). Every failure carries `service: 'account'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  accountDeleteBodySchema,
  emailChangeBodySchema,
  emailChangeConfirmBodySchema,
  passwordChangeBodySchema,
  proofMethodSchema,
  recoveryCodesRenewBodySchema,
  recoveryCodesSchema,
  secondFactorDisableBodySchema,
  secondFactorRemovedSchema,
  secondFactorStatusSchema,
  totpEnrolmentBodySchema,
  totpEnrolmentSchema,
  type TotpEnrolment,
} from '../../contract/account-schemas';
import {
  passkeyCeremonySchema,
  passkeyDeleteBodySchema,
  passkeyOptionsBodySchema,
  passkeySchema,
  type Passkey,
} from '../../contract/passkey-schemas';
import { tagService } from './errors';
import { apiRequest, refreshSession } from './http';
import { createPasskeyCredential } from './passkey-prompt';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { queryClient } from './query';
import {
  sentResultSchema,
  sessionInfoSchema,
  sessionsEndedSchema,
  signupResultSchema,
  userSchema,
  verifyRequestResultSchema,
  type SignupResult,
  type User,
} from '../../contract/schemas';

const accountService = tagService('account');
const SESSIONS_KEY = ['me', 'sessions'] as const;

/** The signed-in user's live sessions, this one marked `current`. */
export const mySessionsQuery = () =>
  queryOptions({
    queryKey: SESSIONS_KEY,
    queryFn: ({ signal }) =>
      accountService(() =>
        apiRequest(endpoint(ENDPOINTS.mySessions), z.array(sessionInfoSchema), { signal }),
      ),
  });

async function sessionsChanged(): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
}

/** Ends one of one's other sessions (its tokens stop working at their next request). */
export function endSession(id: string): Promise<number> {
  return accountService(async () => {
    const { ended } = await apiRequest(endpoint(ENDPOINTS.mySession, { id }), sessionsEndedSchema, {
      method: 'delete',
    });
    await sessionsChanged();
    return ended;
  });
}

/** Ends every session but this one. */
export function endOtherSessions(): Promise<number> {
  return accountService(async () => {
    const { ended } = await apiRequest(endpoint(ENDPOINTS.mySessions), sessionsEndedSchema, {
      method: 'delete',
    });
    await sessionsChanged();
    return ended;
  });
}

const PROOF_KEY = ['me', 'proof'] as const;

/**
 * How the signed-in account confirms a change that decides who can sign in (its password, a
 * code mailed to `email`, or nothing: a guest).
 */
export const myProofQuery = () =>
  queryOptions({
    queryKey: PROOF_KEY,
    queryFn: ({ signal }) =>
      accountService(() => apiRequest(endpoint(ENDPOINTS.myProof), proofMethodSchema, { signal })),
  });

/** Mails a code that confirms a change to the account's address (an account without a password). */
export function requestProofCode(): Promise<unknown> {
  return accountService(() =>
    apiRequest(endpoint(ENDPOINTS.myProofCode), sentResultSchema, { method: 'post' }),
  );
}

/** Mails a code to a new address; answers the id to confirm it with. */
export function requestEmailChange(body: z.input<typeof emailChangeBodySchema>): Promise<string> {
  return accountService(async () => {
    const result = await apiRequest(endpoint(ENDPOINTS.myEmail), verifyRequestResultSchema, {
      method: 'post',
      json: body,
    });
    return result.verificationId;
  });
}

/** The mailed code makes the new address the account's; answers the changed user. */
export function confirmEmailChange(
  body: z.input<typeof emailChangeConfirmBodySchema>,
): Promise<User> {
  return accountService(async () => {
    const user = await apiRequest(endpoint(ENDPOINTS.myEmailConfirm), userSchema, {
      method: 'post',
      json: body,
    });
    // Codes that confirm changes go to the new address now.
    await queryClient.invalidateQueries({ queryKey: PROOF_KEY });
    return user;
  });
}

/** Sets a new password (the current one, or a mailed code, confirms); every other session ends. */
export function changePassword(body: z.input<typeof passwordChangeBodySchema>): Promise<User> {
  return accountService(async () => {
    const user = await apiRequest(endpoint(ENDPOINTS.myPassword), userSchema, {
      method: 'put',
      json: body,
    });
    // A first password is what confirms changes from now on.
    await Promise.all([sessionsChanged(), queryClient.invalidateQueries({ queryKey: PROOF_KEY })]);
    return user;
  });
}

/** Deletes the signed-in account; its sessions end. */
export function deleteAccount(body: z.input<typeof accountDeleteBodySchema>): Promise<unknown> {
  return accountService(() =>
    apiRequest(endpoint(ENDPOINTS.me), z.unknown(), { method: 'delete', json: body }),
  );
}

/**
 * Turns the signed-in guest into a registered user (POST v1/auth/signup with the guest's
 * token): same id, assets and wallets; the guest's sessions end and the answer is the new one.
 */
export function upgradeGuest(body: { email: string; password: string }): Promise<SignupResult> {
  return accountService(() =>
    apiRequest(endpoint(ENDPOINTS.signup), signupResultSchema, { method: 'post', json: body }),
  );
}

const SECOND_FACTOR_KEY = ['me', 'second-factor'] as const;

/** Whether one's two-step sign-in is on, the recovery codes left, and whether the role needs it. */
export const mySecondFactorQuery = () =>
  queryOptions({
    queryKey: SECOND_FACTOR_KEY,
    queryFn: ({ signal }) =>
      accountService(() =>
        apiRequest(endpoint(ENDPOINTS.mySecondFactor), secondFactorStatusSchema, { signal }),
      ),
  });

async function secondFactorChanged(): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: SECOND_FACTOR_KEY });
}

/** Starts setting up an authenticator (the password or a mailed code confirms): its secret and URI. */
export function startTotpEnrolment(
  body: z.input<typeof totpEnrolmentBodySchema>,
): Promise<TotpEnrolment> {
  return accountService(() =>
    apiRequest(endpoint(ENDPOINTS.myTotp), totpEnrolmentSchema, { method: 'post', json: body }),
  );
}

/** The authenticator's first code turns two-step sign-in on; answers the recovery codes. */
export function confirmTotpEnrolment(code: string): Promise<string[]> {
  return accountService(async () => {
    const { recoveryCodes } = await apiRequest(
      endpoint(ENDPOINTS.myTotpConfirm),
      recoveryCodesSchema,
      { method: 'post', json: { code } },
    );
    await secondFactorChanged();
    return recoveryCodes;
  });
}

/** New recovery codes (the password or a current code confirms); the old ones stop working. */
export function renewRecoveryCodes(
  body: z.input<typeof recoveryCodesRenewBodySchema>,
): Promise<string[]> {
  return accountService(async () => {
    const { recoveryCodes } = await apiRequest(
      endpoint(ENDPOINTS.myRecoveryCodes),
      recoveryCodesSchema,
      { method: 'post', json: body },
    );
    await secondFactorChanged();
    return recoveryCodes;
  });
}

/** Turns two-step sign-in off, with the password or a current code. */
export function disableSecondFactor(
  body: z.input<typeof secondFactorDisableBodySchema>,
): Promise<unknown> {
  return accountService(async () => {
    const result = await apiRequest(endpoint(ENDPOINTS.mySecondFactor), secondFactorRemovedSchema, {
      method: 'delete',
      json: body,
    });
    await secondFactorChanged();
    return result;
  });
}

const PASSKEYS_KEY = ['me', 'passkeys'] as const;

/** One's passkeys (docs/api.md "Passkeys"), oldest first. */
export const myPasskeysQuery = () =>
  queryOptions({
    queryKey: PASSKEYS_KEY,
    queryFn: ({ signal }) =>
      accountService(() =>
        apiRequest(endpoint(ENDPOINTS.myPasskeys), z.array(passkeySchema), { signal }),
      ),
  });

/**
 * A passkey or the account's last factor changed: the list, and the session, whose token
 * carries the role's rules where the role needs a second factor (REQUIRE_ADMIN_2FA).
 */
async function passkeysChanged(passkeys?: Passkey[]): Promise<void> {
  if (passkeys) queryClient.setQueryData(PASSKEYS_KEY, passkeys);
  else await queryClient.invalidateQueries({ queryKey: PASSKEYS_KEY });
  await refreshSession({ force: true }).catch(() => undefined);
}

/** A passkey the browser made, to be named and saved (`addPasskey`) within the ceremony's 5 minutes. */
export interface NewPasskey {
  ceremony: string;
  response: Record<string, unknown>;
}

/**
 * Starts adding a passkey: fresh proof (the password or a mailed code) opens the ceremony, and
 * the browser's prompt makes the passkey (rejecting with PASSKEY_CANCELLED or PASSKEY_EXISTS
 * when it does not).
 */
export function createPasskey(body: z.input<typeof passkeyOptionsBodySchema>): Promise<NewPasskey> {
  return accountService(async () => {
    const { ceremony, options } = await apiRequest(
      endpoint(ENDPOINTS.myPasskeyOptions),
      passkeyCeremonySchema,
      { method: 'post', json: body },
    );
    return { ceremony, response: await createPasskeyCredential(options) };
  });
}

/** Saves the passkey the browser made under `name`; it signs in from now on. */
export function addPasskey(passkey: NewPasskey & { name: string }): Promise<Passkey> {
  return accountService(async () => {
    const added = await apiRequest(endpoint(ENDPOINTS.myPasskeys), passkeySchema, {
      method: 'post',
      json: passkey,
    });
    await passkeysChanged();
    return added;
  });
}

/** Gives passkey `id` another name. */
export function renamePasskey(id: string, name: string): Promise<Passkey> {
  return accountService(async () => {
    const renamed = await apiRequest(endpoint(ENDPOINTS.myPasskey, { id }), passkeySchema, {
      method: 'patch',
      json: { name },
    });
    queryClient.setQueryData<Passkey[]>(PASSKEYS_KEY, (list) =>
      list?.map((passkey) => (passkey.id === id ? renamed : passkey)),
    );
    return renamed;
  });
}

/** Removes passkey `id` (the password or a mailed code confirms); it no longer signs in. */
export function removePasskey(
  id: string,
  body: z.input<typeof passkeyDeleteBodySchema>,
): Promise<Passkey[]> {
  return accountService(async () => {
    const left = await apiRequest(endpoint(ENDPOINTS.myPasskey, { id }), z.array(passkeySchema), {
      method: 'delete',
      json: body,
    });
    await passkeysChanged(left);
    return left;
  });
}

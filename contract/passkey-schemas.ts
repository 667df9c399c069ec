/**
 * Wire shapes of passkeys (WebAuthn): adding, naming and removing one's own on the account page
 * (/v1/users/me/passkeys), and signing in with one (/v1/auth/passkey). The browser's side of each
 * ceremony (its options and the authenticator's response) is WebAuthn's JSON encoding, which
 * SimpleWebAuthn writes and reads on both sides; it is carried here as an object.
 */
import { z } from 'zod/mini';
import { proof } from './account-schemas';
import { authResultSchema } from './user-schemas';

/** One passkey of the signed-in account. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  /** Synced by its provider to the owner's other devices. */
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** A passkey's name: what the owner calls the device or the provider that holds it. */
export const passkeyNameSchema = z.string().check(
  z.trim(),
  z.minLength(1, 'Give the passkey a name'),
  z.maxLength(100),
  z.refine((name) => !/\p{Cc}/u.test(name), 'A passkey name has no control characters'),
);

/** WebAuthn's options or response, as JSON (PublicKeyCredential*OptionsJSON, *ResponseJSON). */
const webAuthnJsonSchema = z.record(z.string(), z.unknown());

/**
 * A ceremony the server opened: `ceremony` (signed, single use, valid 5 minutes) goes back with
 * the authenticator's response to `options`.
 */
export const passkeyCeremonySchema = z.object({
  ceremony: z.string(),
  options: webAuthnJsonSchema,
});
export type PasskeyCeremony = z.infer<typeof passkeyCeremonySchema>;

const ceremonySchema = z.string().check(z.minLength(1), z.maxLength(4096));

/** POST /v1/users/me/passkeys/options: adding a sign-in method asks for fresh proof. */
export const passkeyOptionsBodySchema = z.strictObject(proof);
/** POST /v1/users/me/passkeys: the new passkey's response to the ceremony, and its name. */
export const passkeyCreateBodySchema = z.strictObject({
  ceremony: ceremonySchema,
  name: passkeyNameSchema,
  response: webAuthnJsonSchema,
});
/** PATCH /v1/users/me/passkeys/{id}. */
export const passkeyRenameBodySchema = z.strictObject({ name: passkeyNameSchema });
/** DELETE /v1/users/me/passkeys/{id}: removing a sign-in method asks for fresh proof. */
export const passkeyDeleteBodySchema = z.strictObject(proof);

/** POST /v1/auth/passkey: a passkey's answer to a sign-in ceremony. */
export const passkeySignInBodySchema = z.strictObject({
  ceremony: ceremonySchema,
  response: webAuthnJsonSchema,
});
export const passkeySignInResultSchema = authResultSchema;

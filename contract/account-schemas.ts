/**
 * Wire shapes of the account page (/v1/users/me/…) and invitations (/v1/invitations,
 * /private/v1/invitations), shared by the client and the reference API like schemas.ts.
 */
import { z } from 'zod/mini';
import {
  authResultSchema,
  codeSchema,
  emailSchema,
  invitedRoleSchema,
  passwordSchema,
} from './user-schemas';

const currentPasswordSchema = z.string().check(z.minLength(1), z.maxLength(256));

/**
 * What confirms a change that decides who can sign in: the current password of an account that
 * has one; of one without, `code`, mailed to its address by POST /v1/users/me/proof-code.
 */
export const proof = {
  password: z.optional(currentPasswordSchema),
  code: z.optional(codeSchema),
};
/**
 * GET /v1/users/me/proof: which of the two this account confirms changes with, and the address
 * a code goes to (`none`: a guest, which has neither and confirms nothing).
 */
export const proofMethodSchema = z.object({
  method: z.enum(['password', 'code', 'none']),
  email: z.nullable(z.string()),
});
export type ProofMethod = z.infer<typeof proofMethodSchema>;

/** POST /v1/users/me/email: mails a code to the new address, once the owner is proven. */
export const emailChangeBodySchema = z.strictObject({ email: emailSchema, ...proof });
/** POST /v1/users/me/email/confirm: the code mailed to the new address makes it count. */
export const emailChangeConfirmBodySchema = z.strictObject({
  verificationId: z.string().check(z.minLength(1), z.maxLength(64)),
  code: codeSchema,
});
/** PUT /v1/users/me/password: the current password (or a first one's mailed code) and a new one. */
export const passwordChangeBodySchema = z.strictObject({
  currentPassword: proof.password,
  code: proof.code,
  password: passwordSchema,
});
/** DELETE /v1/users/me: the current password, or the mailed code, confirms. */
export const accountDeleteBodySchema = z.strictObject(proof);

// Defined beside the roles: the invitations list's address is read by the start-up bundle,
// which must not carry this module's other schemas.
export { invitedRoleSchema };
export type InvitedRole = z.infer<typeof invitedRoleSchema>;

/** POST /private/v1/invitations. */
export const invitationBodySchema = z.strictObject({
  email: emailSchema,
  role: invitedRoleSchema,
});

/** An invitation not yet accepted nor revoked, as an admin sees it (no token). */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: invitedRoleSchema,
  invitedBy: z.nullable(z.string()),
  createdAt: z.string(),
  sentAt: z.string(),
  expiresAt: z.string(),
  /**
   * `expired`: the link no longer works; resend it. `senderCannotInvite`: its sender may no
   * longer invite (demoted, disabled, deleted), so the link does not work either; another
   * admin's resend makes it theirs.
   */
  status: z.enum(['pending', 'expired', 'senderCannotInvite']),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** Invitation links carry 32 random bytes, base64url: 43 characters. */
const invitationTokenSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/));

/** POST /v1/invitations/lookup: what the accept page shows before a password is chosen. */
export const invitationLookupBodySchema = z.strictObject({ token: invitationTokenSchema });
export const invitationLookupResultSchema = z.object({
  email: z.string(),
  role: invitedRoleSchema,
  expiresAt: z.string(),
});
/** POST /v1/invitations/accept: answers like a sign-in (authResultSchema). */
export const invitationAcceptBodySchema = z.strictObject({
  token: invitationTokenSchema,
  password: passwordSchema,
});

/**
 * Two-step sign-in (docs/api.md "Two-step sign-in"). A sign-in of an account with a second
 * factor answers this challenge instead of a session; POST /v1/auth/second-factor with it and a
 * code answers the session.
 */
export const secondFactorChallengeSchema = z.object({
  /** `totp`: an authenticator's or a recovery code answers; `passkey`: only a passkey does. */
  secondFactor: z.enum(['totp', 'passkey']),
  /** Signed, single use, valid until `expiresAt` (5 minutes), 5 wrong codes at most. */
  challenge: z.string(),
  expiresAt: z.string(),
  /** The account's passkeys may answer: WebAuthn's request options, as JSON. */
  passkey: z.optional(z.record(z.string(), z.unknown())),
});
export type SecondFactorChallenge = z.infer<typeof secondFactorChallengeSchema>;
/** What every call that signs in answers: a session, or the challenge of its second step. */
export const signInResultSchema = z.union([authResultSchema, secondFactorChallengeSchema]);
export type SignInResult = z.infer<typeof signInResultSchema>;

/** An authenticator's 6 digits, or a recovery code (`xxxxx-xxxxx`, spaces and case ignored). */
export const secondFactorCodeSchema = z.string().check(z.trim(), z.minLength(6), z.maxLength(32));
/** POST /v1/auth/second-factor. */
export const secondFactorBodySchema = z
  .strictObject({
    challenge: z.string().check(z.minLength(1), z.maxLength(2048)),
    code: z.optional(secondFactorCodeSchema),
    /** A passkey's response to the challenge's `passkey` options, instead of a code. */
    passkey: z.optional(z.record(z.string(), z.unknown())),
  })
  .check(
    z.refine(
      (body) => (body.code === undefined) !== (body.passkey === undefined),
      'code: Send a code or a passkey',
    ),
  );
/** GET /v1/users/me/second-factor. */
export const secondFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.nullable(z.string()),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number(),
  /** The account's role must have one (REQUIRE_ADMIN_2FA): its tokens are a guest's until then. */
  required: z.boolean(),
});
/** POST /v1/users/me/second-factor/totp: the current password, or the mailed code. */
export const totpEnrolmentBodySchema = z.strictObject(proof);
/** The new secret (base32, for typing in) and the otpauth:// address the QR code carries. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;
/** POST /v1/users/me/second-factor/totp/confirm: the first code turns the factor on. */
export const totpConfirmBodySchema = z.strictObject({
  code: z.string().check(z.trim(), z.regex(/^\d{6}$/, 'Enter the 6 digits')),
});
/** The recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
/** The password, or a current code (either is enough): what confirms a change of the factor. */
const passwordOrCodeSchema = () =>
  z.strictObject({
    password: z.optional(currentPasswordSchema),
    code: z.optional(secondFactorCodeSchema),
  });
/** DELETE /v1/users/me/second-factor. */
export const secondFactorDisableBodySchema = passwordOrCodeSchema();
export const secondFactorRemovedSchema = z.object({ removed: z.literal(true) });
/** POST /v1/users/me/second-factor/recovery-codes: confirmed as turning it off is. */
export const recoveryCodesRenewBodySchema = passwordOrCodeSchema();

/**
 * Wire shapes of the account page (/v1/users/me/…) and invitations (/v1/invitations,
 * /private/v1/invitations), shared by the client and the reference API like schemas.ts.
 */
import { z } from 'zod/mini';
import { codeSchema, emailSchema, passwordSchema } from './schemas';

const currentPasswordSchema = z.string().check(z.minLength(1), z.maxLength(256));

/** POST /v1/users/me/email: mails a code to the new address (the current password when set). */
export const emailChangeBodySchema = z.strictObject({
  email: emailSchema,
  password: z.optional(currentPasswordSchema),
});
/** POST /v1/users/me/email/confirm: the code mailed to the new address makes it count. */
export const emailChangeConfirmBodySchema = z.strictObject({
  verificationId: z.string().check(z.minLength(1), z.maxLength(64)),
  code: codeSchema,
});
/** PUT /v1/users/me/password: the current password (when the account has one) and a new one. */
export const passwordChangeBodySchema = z.strictObject({
  currentPassword: z.optional(currentPasswordSchema),
  password: passwordSchema,
});
/** DELETE /v1/users/me: the current password confirms (when the account has one). */
export const accountDeleteBodySchema = z.strictObject({
  password: z.optional(currentPasswordSchema),
});

/** Roles an invitation may give (a guest is never invited). */
export const invitedRoleSchema = z.enum(['admin', 'developer', 'user']);
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
  /** `expired`: the link no longer works; resend it. */
  status: z.enum(['pending', 'expired']),
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

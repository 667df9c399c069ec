/**
 * Wire shapes of users, signing in and sessions, shared by the client and the reference API
 * (contract/schemas.ts gathers every area's).
 */
import { z } from 'zod/mini';

/** Roles known to the platform; see docs/roles.md "Roles and permissions". */
export const roleSchema = z.enum(['admin', 'developer', 'user', 'anonymous']);
/** Roles an invitation may give (a guest is never invited). */
export const invitedRoleSchema = z.enum(['admin', 'developer', 'user']);
export type Role = z.infer<typeof roleSchema>;

export const emailSchema = z.email().check(z.maxLength(254));
/** A new password's length, for every role (ASVS 2.1.1); signing in takes any length. */
export const PASSWORD_MIN_LENGTH = 12;
/** Long passphrases are welcome; the bound keeps the hash's input small. */
export const PASSWORD_MAX_LENGTH = 256;
/** Password rule for every new password (the server also refuses common ones). */
export const passwordSchema = z
  .string()
  .check(
    z.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
    z.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
  );
/** One-time codes (login, verification, reset) are six digits. */
export const codeSchema = z.string().check(z.regex(/^\d{6}$/));

const userSettingsSchema = z.object({
  isPasswordUpdated: z.boolean(),
  isEmailVerified: z.boolean(),
});

export const userSchema = z.object({
  _id: z.string(),
  email: z.optional(z.nullable(z.string())),
  verifiedAt: z.optional(z.nullable(z.string())),
  role: roleSchema,
  assets: z.array(z.string()),
  wallets: z.array(z.string()),
  settings: userSettingsSchema,
});
export type User = z.infer<typeof userSchema>;

/** A user's status as the list filters it. (Invitations will add `invited`.) */
/** `invited`: a pending invitation, listed with the users (docs/api.md "Users"). */
export const userStatusSchema = z.enum(['active', 'disabled', 'invited']);

/** A user as the back office lists them: GET /private/v1/users (no secrets, no assets). */
export const userRowSchema = z.object({
  id: z.string(),
  email: z.nullable(z.string()),
  role: roleSchema,
  verifiedAt: z.nullable(z.string()),
  createdAt: z.string(),
  /** Counts changes of the role. */
  version: z.optional(z.number()),
  status: userStatusSchema,
  /** Since when an administrator has disabled the account. */
  disabledAt: z.nullable(z.string()),
  /** The last sign-in (a new session; refreshes do not count). */
  lastSignInAt: z.nullable(z.string()),
  /** Two-step sign-in is on: only GET /private/v1/users/{id}, and only to `manage User`. */
  secondFactor: z.optional(z.boolean()),
});
export type UserRow = z.infer<typeof userRowSchema>;

/** A live session (sign-in) of a user: GET /v1/users/me/sessions and the admin's list. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  startedAt: z.string(),
  /** The last token refresh. */
  lastUsedAt: z.string(),
  clientAddress: z.nullable(z.string()),
  userAgent: z.nullable(z.string()),
  /** The session of the token that asked. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
/** DELETE …/sessions: how many live sessions were ended. */
export const sessionsEndedSchema = z.object({ ended: z.number() });

/** PATCH /private/v1/users/{id}: an admin gives another user a role. */
export const userRoleBodySchema = z.strictObject({ role: roleSchema });
const userIdsSchema = z
  .array(z.string().check(z.minLength(1), z.maxLength(200)))
  .check(z.minLength(1), z.maxLength(100));
/** POST /private/v1/users/bulk-disable and /bulk-enable: 1-100 other users, all or none. */
export const userBulkBodySchema = z.strictObject({ ids: userIdsSchema });
/** POST /private/v1/users/bulk-role: one role for 1-100 other users, all or none. */
export const userBulkRoleBodySchema = z.strictObject({ ids: userIdsSchema, role: roleSchema });
/** What a bulk change did: the ids it changed (users already so are left out), and every user. */
export const userBulkResultSchema = z.object({
  changed: z.array(z.string()),
  users: z.array(userRowSchema),
});
export type UserBulkResult = z.infer<typeof userBulkResultSchema>;

/** Login and sign-up answer the user plus a token pair. */
export const authResultSchema = z.extend(userSchema, {
  token: z.string(),
  refreshToken: z.string(),
});
export type AuthResult = z.infer<typeof authResultSchema>;

// Request bodies. `silent` is a client-only flag and is stripped before sending.
export const signupBodySchema = z.object({
  email: z.optional(emailSchema),
  password: z.optional(passwordSchema),
});
export const loginBodySchema = z.union([
  z.object({ email: emailSchema, password: z.string().check(z.minLength(1), z.maxLength(256)) }),
  z.object({ email: emailSchema, code: codeSchema }),
]);
export const emailOnlyBodySchema = z.object({ email: emailSchema });
export const refreshBodySchema = z.object({
  token: z.optional(z.string()),
  refreshToken: z.string().check(z.minLength(1)),
});
export const logoutBodySchema = z.object({ refreshToken: z.string().check(z.minLength(1)) });
export const passwordByCodeBodySchema = z.object({
  email: emailSchema,
  code: codeSchema,
  password: passwordSchema,
});
/** Without a code: (re)send a verification mail. With verificationId and code: complete it. */
export const verifyBodySchema = z.union([
  z.object({ verificationId: z.string().check(z.minLength(1)), code: codeSchema }),
  z.object({ email: emailSchema }),
]);
export const passwordIdVerificationBodySchema = z.object({
  password: z.string().check(z.minLength(1), z.maxLength(256)),
});

export const verifyRequestResultSchema = z.object({ verificationId: z.string() });
export const emailExistsResultSchema = z.object({ exists: z.boolean() });
export const passwordIdVerificationResultSchema = z.object({ verified: z.boolean() });

/** Refresh failures the client must treat as "session over". */
export const REFRESH_FAILURE_MESSAGES = [
  'Refresh token expired',
  'Refresh token revoked',
  'Refresh token not found',
] as const;

// Response shapes the client reads.

/** E-mail sign-up also answers the id of the verification it started. */
export const signupResultSchema = z.extend(authResultSchema, {
  verificationId: z.optional(z.string()),
});
export type SignupResult = z.infer<typeof signupResultSchema>;

/** Refresh answers a new token pair plus whichever user fields the server chose to send. */
export const refreshResultSchema = z.extend(z.partial(userSchema), {
  token: z.string(),
  refreshToken: z.string(),
});
export type RefreshResult = z.infer<typeof refreshResultSchema>;

export const sentResultSchema = z.object({ sent: z.boolean() });
export const logoutResultSchema = z.object({ success: z.boolean() });

// Shapes only the reference API (server/) and its tests use.
/** One message of the development mailbox, GET /dev/mailbox?to=EMAIL (absent in production). */
export const devMailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  code: z.nullable(z.string()),
  verificationId: z.nullable(z.string()),
  /** A code's purpose (`email`: a new address), `notice` (no code) or `invitation` (a link). */
  kind: z.enum(['login', 'verify', 'reset', 'email', 'proof', 'notice', 'invitation']),
  /** The link an invitation carries (server/routes/invitations.ts). */
  link: z.optional(z.nullable(z.string())),
  sentAt: z.string(),
});
export type DevMail = z.infer<typeof devMailSchema>;

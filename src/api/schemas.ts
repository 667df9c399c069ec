/**
 * The one module of zod schemas shared by the client (src/) and the reference API (server/).
 * It holds wire shapes only: no runtime state, no I/O. It uses zod/mini, whose functions
 * tree-shake, so the sign-in page ships a few KB of validation instead of all of zod.
 */
import { z } from 'zod/mini';

/** Roles known to the platform; see README "Roles and permissions". */
export const roleSchema = z.enum(['admin', 'developer', 'user', 'anonymous']);
export type Role = z.infer<typeof roleSchema>;

export const emailSchema = z.email().check(z.maxLength(254));
/** Password rule for sign-up and reset: 8 to 128 characters. */
export const passwordSchema = z.string().check(z.minLength(8), z.maxLength(128));
/** One-time codes (login, verification, reset) are six digits. */
export const codeSchema = z.string().check(z.regex(/^\d{6}$/));

export const userSettingsSchema = z.object({
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
  z.object({ email: emailSchema, password: z.string().check(z.minLength(1), z.maxLength(128)) }),
  z.object({ email: emailSchema, code: codeSchema }),
]);
export const emailOnlyBodySchema = z.object({ email: emailSchema });
export const refreshBodySchema = z.object({
  token: z.optional(z.string()),
  refreshToken: z.string().check(z.minLength(1)),
});
export const logoutBodySchema = z.object({ refreshToken: z.string().check(z.minLength(1)) });
export const resetPasswordBodySchema = emailOnlyBodySchema;
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
  password: z.string().check(z.minLength(1), z.maxLength(128)),
});

export const verifyRequestResultSchema = z.object({ verificationId: z.string() });
export const emailExistsResultSchema = z.object({ exists: z.boolean() });
export const passwordIdVerificationResultSchema = z.object({ verified: z.boolean() });

export const countByTypeSchema = z.array(z.object({ type: z.string(), count: z.number() }));
export type CountByType = z.infer<typeof countByTypeSchema>;

/** Every error body of the API. */
export const apiErrorSchema = z.object({
  status: z.number(),
  code: z.string(),
  message: z.string(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** Wraps a success payload schema in the API's `{ data }` envelope. */
export const envelope = <T extends z.core.$ZodType>(data: T) => z.object({ data });

/** Refresh failures the client must treat as "session over". */
export const REFRESH_FAILURE_MESSAGES = [
  'Refresh token expired',
  'Refresh token revoked',
  'Refresh token not found',
] as const;

// Client-side response shapes (appended by the src/api owner).

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

// Appended by the reference API (server/).
/** One message of the development mailbox, GET /dev/mailbox?to=EMAIL (absent in production). */
export const devMailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  code: z.nullable(z.string()),
  verificationId: z.nullable(z.string()),
  kind: z.enum(['login', 'verify', 'reset']),
  sentAt: z.string(),
});
export type DevMail = z.infer<typeof devMailSchema>;

// ---------------------------------------------------------------------------------------------
// Lists (spec §3 list query/response, §7 "Lists"). Shared by every list endpoint and the list
// machine. Query: page (>= 1), limit (1-100), order (`field` or `-field`), plus filter fields
// (arrays repeat the parameter: ?type=hair&type=top).

export const LIST_DEFAULT_LIMIT = 10;
export const LIST_MAX_LIMIT = 100;

export const paginationSchema = z.object({
  page: z.number(),
  limit: z.number(),
  totalDocs: z.number(),
  totalPages: z.number(),
  hasNextPage: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** A list answer: `{ data: [...], pagination }`; every row has an `id`. */
export const listResponseSchema = <T extends z.core.$ZodType>(row: T) =>
  z.object({ data: z.array(row), pagination: paginationSchema });

/** Body of the order-update endpoints: the new 1-based position within the filtered list. */
export const positionBodySchema = z.object({
  position: z.number().check(z.int(), z.minimum(1)),
  filter: z.optional(z.record(z.string(), z.unknown())),
});

export const genderSchema = z.enum(['male', 'female', 'unisex']);
export type Gender = z.infer<typeof genderSchema>;

export const tagSchema = z.object({ id: z.string(), name: z.string() });
export type Tag = z.infer<typeof tagSchema>;

export const applicationSchema = z.object({ id: z.string(), name: z.string() });
export type Application = z.infer<typeof applicationSchema>;

export const assetSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  gender: genderSchema,
  iconUrl: z.nullable(z.string()),
  modelUrl: z.nullable(z.string()),
  locked: z.boolean(),
  position: z.number(),
  tags: z.array(tagSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Asset = z.infer<typeof assetSchema>;

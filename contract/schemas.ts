/**
 * The one module of zod schemas shared by the client (src/) and the reference API (server/).
 * It holds wire shapes only: no runtime state, no I/O. It uses zod/mini, whose functions
 * tree-shake, so the sign-in page ships a few KB of validation instead of all of zod.
 */
import { z } from 'zod/mini';
import { ASSET_TYPES, GENDERS, type Gender } from './assets';

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

export const countByTypeSchema = z.array(z.object({ type: z.string(), count: z.number() }));
export type CountByType = z.infer<typeof countByTypeSchema>;

/** Every error body of the API. */
export const apiErrorSchema = z.object({
  status: z.number(),
  code: z.string(),
  message: z.string(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** One field of a 409 EDIT_CONFLICT: its value now, and who changed it when (null: the system). */
export const editConflictSchema = z.object({
  field: z.string(),
  current: z.unknown(),
  changedBy: z.nullable(z.object({ id: z.string(), email: z.nullable(z.string()) })),
  changedAt: z.string(),
});
export type EditConflict = z.infer<typeof editConflictSchema>;

/** 409 EDIT_CONFLICT: a change based on an older version touched fields changed since. */
export const editConflictErrorSchema = z.extend(apiErrorSchema, {
  version: z.number(),
  conflicts: z.array(editConflictSchema),
});
export type EditConflictError = z.infer<typeof editConflictErrorSchema>;

/** Wraps a success payload schema in the API's `{ data }` envelope. */
export const envelope = <T extends z.core.$ZodType>(data: T) => z.object({ data });

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
  kind: z.enum(['login', 'verify', 'reset', 'email', 'notice', 'invitation']),
  /** The link an invitation carries (server/routes/invitations.ts). */
  link: z.optional(z.nullable(z.string())),
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
  /** Present and true when totalDocs (and so totalPages) is an estimate of a large total. */
  totalIsEstimate: z.optional(z.boolean()),
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

export const genderSchema = z.enum(GENDERS);
export type { Gender };

export const tagSchema = z.object({ id: z.string(), name: z.string() });
export type Tag = z.infer<typeof tagSchema>;

const applicationSchema = z.object({ id: z.string(), name: z.string() });

const assetTypeSchema = z.enum(ASSET_TYPES);

/**
 * The delivery version of an asset's model (docs/api.md "Delivery versions"):
 * `url` is the smaller file the studio's viewers load when `status` is `ready`; otherwise the
 * original is delivered, and `reason` says why (`original`: nothing to gain, `failed`).
 */
export const modelDeliverySchema = z.object({
  status: z.enum(['pending', 'ready', 'original', 'failed']),
  url: z.nullable(z.string()),
  originalSize: z.number(),
  size: z.nullable(z.number()),
  reason: z.nullable(z.string()),
});
export type ModelDelivery = z.infer<typeof modelDeliverySchema>;

export const assetSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  gender: genderSchema,
  description: z.string(),
  iconUrl: z.nullable(z.string()),
  modelUrl: z.nullable(z.string()),
  /** Base colour texture (PNG or JPEG). */
  textureUrl: z.nullable(z.string()),
  normalMapUrl: z.nullable(z.string()),
  /** The layered source file (.psd). */
  sourceUrl: z.nullable(z.string()),
  isTemplate: z.boolean(),
  templateId: z.nullable(z.string()),
  locked: z.boolean(),
  position: z.number(),
  tags: z.array(tagSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Raised at every change (docs/api.md "Versions and conflicts"); the ETag of a single read. */
  version: z.optional(z.number()),
  /** The model's delivery version; null before it has one (an addition to the spec's fields). */
  modelDelivery: z.optional(z.nullable(modelDeliverySchema)),
});
export type Asset = z.infer<typeof assetSchema>;

// Asset editing. Stored file addresses are the `url` an upload answered with
// (POST /v1/uploads/{kind}); null clears a file.

const assetNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(120));
const fileUrlSchema = z.nullable(z.string().check(z.minLength(1), z.maxLength(2048)));

/** POST /v1/assets. */
export const assetCreateBodySchema = z.object({
  name: assetNameSchema,
  type: assetTypeSchema,
  gender: genderSchema,
  description: z.optional(z.string().check(z.maxLength(2000))),
  iconUrl: z.optional(fileUrlSchema),
  modelUrl: z.optional(fileUrlSchema),
  textureUrl: z.optional(fileUrlSchema),
  normalMapUrl: z.optional(fileUrlSchema),
  sourceUrl: z.optional(fileUrlSchema),
  isTemplate: z.optional(z.boolean()),
  /** Tag ids; replaces the asset's tags. */
  tagIds: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(50))),
});
export type AssetCreateBody = z.infer<typeof assetCreateBodySchema>;
/** PATCH /v1/assets/{id}: any subset. 409 ASSET_LOCKED when the asset is locked. */
export const assetPatchBodySchema = z.partial(assetCreateBodySchema);
export type AssetPatchBody = z.infer<typeof assetPatchBodySchema>;
/** POST /private/v1/assets/using-template: a new asset copied from a template asset. */
export const assetFromTemplateBodySchema = z.object({
  templateId: z.string().check(z.minLength(1)),
  name: z.optional(assetNameSchema),
});

/**
 * PUT /v1/assets/{id}/lock and /unlock: an optional `reason`, recorded in the `locked` event.
 * Any other field is accepted and ignored (platform clients send their own).
 */
export const assetLockBodySchema = z.looseObject({
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
});
export type AssetLockBody = z.infer<typeof assetLockBodySchema>;

/** What an upload is for; each kind has its own size limit and accepted types (core/files). */
export const uploadKindSchema = z.enum(['model', 'icon', 'texture', 'source']);
export type UploadKind = z.infer<typeof uploadKindSchema>;
/**
 * POST /v1/uploads/{kind} answers with where the stored file is served, and the name it was
 * uploaded under (X-File-Name; the kind's default name without one). GET /v1/files/{key}
 * answers the same for a stored file (its key as the name for older files).
 */
export const uploadResultSchema = z.object({
  url: z.string(),
  name: z.string(),
  size: z.number(),
  contentType: z.string(),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

/**
 * The other side of a relation an event names (`data.applicationId`, `data.userId`), as it is
 * now; null when the event names none or it is gone. Not in the spec: a platform that does not
 * send them gets the plain wording ("Added to an application").
 */
const relatedNames = {
  applicationName: z.optional(z.nullable(z.string())),
  userEmail: z.optional(z.nullable(z.string())),
};

/** One entry of the back-office changelog (GET /v1/assets/{id}/backoffice-changelog). */
export const assetEventSchema = z.object({
  id: z.string(),
  assetId: z.string(),
  /** `asset.<event>.v<version>`, see server/events.ts. */
  routingKey: z.string(),
  actorId: z.nullable(z.string()),
  actorEmail: z.nullable(z.string()),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  ...relatedNames,
});
export type AssetEvent = z.infer<typeof assetEventSchema>;

/** The kinds of record the activity log names: the Trash's kinds, users and invitations. */
export const ACTIVITY_KINDS = [
  'asset',
  'cage-mesh',
  'tag',
  'application',
  'morphed-asset',
  'user',
  'invitation',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/**
 * One row of the activity log (GET /v1/activity): an event of any kind of record, with the
 * record it names: its name now (or as the Trash or the event last had it), and whether it is
 * still there (`live`), in the Trash (`trash`), or gone for good (`gone`; an invitation: no
 * longer pending, accepted or revoked).
 */
export const activityRowSchema = z.object({
  id: z.string(),
  routingKey: z.string(),
  subject: z.object({
    kind: z.enum(ACTIVITY_KINDS),
    id: z.string(),
    name: z.nullable(z.string()),
    state: z.enum(['live', 'trash', 'gone']),
  }),
  actorId: z.nullable(z.string()),
  actorEmail: z.nullable(z.string()),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  ...relatedNames,
});
export type ActivityRow = z.infer<typeof activityRowSchema>;

/**
 * One event of the live stream (GET /v1/events, Server-Sent Events): the `data:` line of each
 * message, whose `id:` is `seq` and whose `event:` is `routingKey`. Like a changelog entry,
 * plus the stream's order (`seq`, increasing) and the subject it names: an asset, or else a cage
 * mesh, a tag, an application, a user, a morphed asset, an invitation or a bulk job (one of them
 * is set; the last six are optional so a client reads streams of servers from before them).
 */
export const streamEventSchema = z.object({
  id: z.string(),
  seq: z.number(),
  routingKey: z.string(),
  assetId: z.nullable(z.string()),
  cageMeshId: z.nullable(z.string()),
  tagId: z.optional(z.nullable(z.string())),
  applicationId: z.optional(z.nullable(z.string())),
  userId: z.optional(z.nullable(z.string())),
  morphedAssetId: z.optional(z.nullable(z.string())),
  invitationId: z.optional(z.nullable(z.string())),
  bulkJobId: z.optional(z.nullable(z.string())),
  actorId: z.nullable(z.string()),
  actorEmail: z.nullable(z.string()),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type StreamEvent = z.infer<typeof streamEventSchema>;

/** POST /v1/assets/validate: the Khronos glTF validator's verdict on a stored model. */
export const assetValidateBodySchema = z.object({ modelUrl: z.string().check(z.minLength(1)) });
const validationMessageSchema = z.object({
  code: z.string(),
  message: z.string(),
  severity: z.number(),
  /** JSON pointer into the glTF document, for problems of the document. */
  pointer: z.optional(z.string()),
  /** Byte offset in the file, for problems of the binary container. */
  offset: z.optional(z.number()),
});
export const validationReportSchema = z.object({
  valid: z.boolean(),
  errors: z.array(validationMessageSchema),
  warnings: z.array(validationMessageSchema),
  infos: z.number(),
  hints: z.number(),
  stats: z.record(z.string(), z.unknown()),
});
export type ValidationReport = z.infer<typeof validationReportSchema>;
/**
 * POST /v1/assets/predict-texture: a base colour texture predicted for a stored model; the
 * answer is the stored texture as an `UploadResult` (501 where no predictor is configured).
 */
export const assetPredictTextureBodySchema = z.object({
  modelUrl: z.string().check(z.minLength(1)),
});

// Catalogue rows of the reference API. Timestamps are ISO strings.

/** An application's row in GET /v1/applications. */
export const applicationRowSchema = z.extend(applicationSchema, {
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.optional(z.number()),
});
export type ApplicationRow = z.infer<typeof applicationRowSchema>;

/** The part of an asset shown inside other rows (application assets). */
const assetSummarySchema = z.pick(assetSchema, {
  id: true,
  name: true,
  type: true,
  gender: true,
  iconUrl: true,
  locked: true,
});
export type AssetSummary = z.infer<typeof assetSummarySchema>;

/** An asset placed in an application, ordered by its own `position` within that application. */
export const applicationAssetSchema = z.object({
  id: z.string(),
  applicationId: z.string(),
  assetId: z.string(),
  position: z.number(),
  syncedAt: z.nullable(z.string()),
  createdAt: z.string(),
  asset: assetSummarySchema,
  version: z.optional(z.number()),
});
export type ApplicationAsset = z.infer<typeof applicationAssetSchema>;

/** A tag with the number of assets carrying it. */
export const tagRowSchema = z.extend(tagSchema, {
  assetCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.optional(z.number()),
});
export type TagRow = z.infer<typeof tagRowSchema>;

/** Tag names: trimmed, 1-60 characters, unique ignoring case. */
export const tagBodySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(60)),
});
/** Application names (create, rename): trimmed, 1-80 characters, unique ignoring case. */
export const applicationBodySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
});
/** POST /v1/tags/set-tag and /remove-tag. */
export const assetTagBodySchema = z.object({
  assetId: z.string().check(z.minLength(1)),
  tagId: z.string().check(z.minLength(1)),
});

export const cageMeshSchema = z.object({
  id: z.string(),
  name: z.string(),
  gender: genderSchema,
  bodyType: z.nullable(z.string()),
  modelUrl: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.optional(z.number()),
});
export type CageMesh = z.infer<typeof cageMeshSchema>;

const cageMeshNameSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(120));
const optionalTextSchema = z.optional(z.nullable(z.string().check(z.maxLength(2048))));
export const cageMeshCreateBodySchema = z.object({
  name: cageMeshNameSchema,
  gender: genderSchema,
  bodyType: optionalTextSchema,
  modelUrl: optionalTextSchema,
});
export const cageMeshPatchBodySchema = z.partial(cageMeshCreateBodySchema);

/** Life of a morph queue entry: queued -> processing -> completed | failed. */
export const morphStatusSchema = z.enum(['queued', 'processing', 'completed', 'failed']);
export type MorphStatus = z.infer<typeof morphStatusSchema>;

export const morphQueueEntrySchema = z.object({
  id: z.string(),
  sourceAssetId: z.string(),
  sourceAssetName: z.string(),
  bodyAssetId: z.string(),
  bodyAssetName: z.string(),
  status: morphStatusSchema,
  progress: z.number(),
  error: z.nullable(z.string()),
  morphedAssetId: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MorphQueueEntry = z.infer<typeof morphQueueEntrySchema>;

/** GET /v1/morphed-asset-queue/status?ids=...: one entry per known id. */
export const morphStatusListSchema = z.array(
  z.pick(morphQueueEntrySchema, {
    id: true,
    status: true,
    progress: true,
    error: true,
    morphedAssetId: true,
  }),
);
export type MorphStatusList = z.infer<typeof morphStatusListSchema>;

/** An asset generated by fitting a source asset onto a body asset. */
export const morphedAssetSchema = z.object({
  id: z.string(),
  sourceAssetId: z.string(),
  bodyAssetId: z.string(),
  name: z.string(),
  modelUrl: z.nullable(z.string()),
  createdAt: z.string(),
});
export type MorphedAsset = z.infer<typeof morphedAssetSchema>;

/** POST and DELETE /private/v1/user-assets/{userId}. */
export const userAssetsBodySchema = z.object({
  assetIds: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(100)),
});
/** The assets assigned to a user after a change. */
export const userAssetsResultSchema = z.object({
  userId: z.string(),
  assetIds: z.array(z.string()),
});
export type UserAssetsResult = z.infer<typeof userAssetsResultSchema>;

// ---------------------------------------------------------------------------------------------
// Morphs, asset applications, export. docs/api.md "Morph queue", "Applications".

const idSchema = z.string().check(z.minLength(1), z.maxLength(200));

/** POST /v1/assets/bulk-delete: 1-100 asset ids, deleted together or not at all. */
export const assetBulkDeleteBodySchema = z.object({
  ids: z.array(idSchema).check(z.minLength(1), z.maxLength(100)),
});
export const assetBulkDeleteResultSchema = z.object({ deleted: z.array(z.string()) });

/** POST /v1/assets/bulk-lock and /bulk-unlock: 1-100 asset ids, changed together or not at all. */
export const assetBulkLockBodySchema = z.object({
  ids: z.array(idSchema).check(z.minLength(1), z.maxLength(100)),
  /** Recorded in each changed asset's `locked` event, as the single lock records it. */
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
});
/** POST /v1/assets/bulk-set-tag and /bulk-remove-tag: one tag on or off 1-100 assets, all or none. */
export const assetBulkTagBodySchema = z.object({
  ids: z.array(idSchema).check(z.minLength(1), z.maxLength(100)),
  tagId: idSchema,
});
/** What a bulk lock or tag change did: every asset afterwards, and the ids it changed (for Undo). */
export const assetBulkChangeResultSchema = z.object({
  changed: z.array(z.string()),
  assets: z.array(assetSchema),
});
export type AssetBulkChangeResult = z.infer<typeof assetBulkChangeResultSchema>;

/** POST /v1/morphed-assets/generate: one queue entry per body asset (answers the entries). */
export const morphGenerateBodySchema = z.object({
  sourceAssetId: idSchema,
  bodyAssetIds: z.array(idSchema).check(z.minLength(1), z.maxLength(20)),
});
export const morphGenerateResultSchema = z.array(morphQueueEntrySchema);

/** A row of GET /v1/assets/{id}/application: an application holding the asset. */
export const assetApplicationSchema = z.extend(applicationAssetSchema, {
  applicationName: z.string(),
});
export type AssetApplication = z.infer<typeof assetApplicationSchema>;

/** POST /v1/assets/{id}/application: add at `position` (1-based; default and past the end: last). */
export const assetApplicationAddBodySchema = z.object({
  applicationId: idSchema,
  position: z.optional(z.number().check(z.int(), z.minimum(1))),
});
/** PATCH /v1/assets/{id}/application: move within the application. */
export const assetApplicationMoveBodySchema = z.object({
  applicationId: idSchema,
  position: z.number().check(z.int(), z.minimum(1)),
});
/** DELETE /v1/assets/{id}/application. */
export const assetApplicationRemoveBodySchema = z.object({ applicationId: idSchema });

/**
 * POST /v1/application-morphed-assets: place one (`morphedAssetId`) or several
 * (`morphedAssetIds`) morphed assets in an application.
 */
export const applicationMorphedAssetBodySchema = z.union([
  z.object({ applicationId: idSchema, morphedAssetId: idSchema }),
  z.object({
    applicationId: idSchema,
    morphedAssetIds: z.array(idSchema).check(z.minLength(1), z.maxLength(100)),
  }),
]);
/** A morphed asset placed in an application. */
export const applicationMorphedAssetSchema = z.object({
  id: z.string(),
  applicationId: z.string(),
  morphedAssetId: z.string(),
  createdAt: z.string(),
  morphedAsset: morphedAssetSchema,
});
export type ApplicationMorphedAsset = z.infer<typeof applicationMorphedAssetSchema>;

/**
 * GET /v1/assets/export/{applicationId}: the downloaded file (not enveloped), assets in their
 * application order. Site-relative file URLs are made absolute against the request's origin.
 */
export const assetExportSchema = z.object({
  application: applicationSchema,
  exportedAt: z.string(),
  assets: z.array(
    z.object({
      position: z.number(),
      id: z.string(),
      name: z.string(),
      type: z.string(),
      gender: genderSchema,
      description: z.string(),
      locked: z.boolean(),
      syncedAt: z.nullable(z.string()),
      modelUrl: z.nullable(z.string()),
      iconUrl: z.nullable(z.string()),
      textureUrl: z.nullable(z.string()),
      normalMapUrl: z.nullable(z.string()),
      sourceUrl: z.nullable(z.string()),
    }),
  ),
  morphedAssets: z.array(morphedAssetSchema),
});
export type AssetExport = z.infer<typeof assetExportSchema>;

/**
 * GET /v1/services: which optional model services this server has configured (an icon
 * renderer, a texture predictor). Without a renderer the app renders icons in the browser.
 */
export const servicesSchema = z.object({
  iconRenderer: z.boolean(),
  texturePredictor: z.boolean(),
  /** Days a deleted record waits in the Trash before it is deleted for ever. */
  trashRetentionDays: z.number(),
});
export type Services = z.infer<typeof servicesSchema>;

// ---------------------------------------------------------------------------------------------
// The Trash. docs/api.md "Trash".

/** What can be in the Trash. */
export const TRASH_KINDS = ['asset', 'tag', 'cage-mesh', 'application', 'morphed-asset'] as const;
export const trashKindSchema = z.enum(TRASH_KINDS);
export type TrashKind = z.infer<typeof trashKindSchema>;

/** One record in the Trash; `purgeAt` is when the sweeper deletes it for ever. */
export const trashRowSchema = z.object({
  kind: trashKindSchema,
  id: z.string(),
  name: z.string(),
  deletedAt: z.string(),
  deletedBy: z.nullable(z.string()),
  deletedByEmail: z.nullable(z.string()),
  purgeAt: z.string(),
});
export type TrashRow = z.infer<typeof trashRowSchema>;

const trashRefSchema = z.object({ kind: trashKindSchema, id: idSchema });
export type TrashRef = z.infer<typeof trashRefSchema>;

/** POST /v1/trash/bulk-restore and /bulk-delete: 1-100 records, all or none. */
export const trashItemsBodySchema = z.object({
  items: z.array(trashRefSchema).check(z.minLength(1), z.maxLength(100)),
});

/** What a restore brought back, or a delete for ever removed. */
export const trashResultSchema = z.object({ items: z.array(trashRefSchema) });
export type TrashResult = z.infer<typeof trashResultSchema>;

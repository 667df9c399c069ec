/**
 * Wire shapes of assets: the asset, its edits, uploads, its events, the activity log and the
 * live stream.
 */
import { z } from 'zod/mini';
import { ASSET_TYPES, GENDERS, type Gender } from './assets';

export const genderSchema = z.enum(GENDERS);
export type { Gender };

export const tagSchema = z.object({ id: z.string(), name: z.string() });
export type Tag = z.infer<typeof tagSchema>;

export const applicationSchema = z.object({ id: z.string(), name: z.string() });

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

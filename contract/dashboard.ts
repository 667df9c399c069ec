/**
 * The dashboard (GET /v1/dashboard, docs/api.md "Dashboard"): series over bounded windows of
 * UTC days and what needs attention. Each part is there only for a caller whose abilities read
 * what it counts; wire shapes only.
 */
import { z } from 'zod/mini';

/** Weeks of assets created (the current week last, Monday to Sunday). */
export const DASHBOARD_WEEKS = 12;
/** Days of the daily series (today last). */
export const DASHBOARD_DAYS = 30;
/** Items shown of each kind of "needs attention". */
export const ATTENTION_ITEMS = 5;
/** Pending invitations that expire within this many hours "need attention". */
export const INVITATION_EXPIRY_SOON_HOURS = 48;

const day = z.string();
const count = z.number();

const attentionSchema = <T extends z.core.$ZodType>(item: T) =>
  z.object({
    /** How many there are; a lower bound when `more` is set. */
    count,
    more: z.boolean(),
    /** The newest (or the soonest to expire) first. */
    items: z.array(item),
  });

export const dashboardSchema = z.object({
  /** The UTC day the series end on. */
  today: day,
  /** `read Asset`: assets there now, by week (its Monday) and type of their creation. */
  assetsPerWeek: z.optional(
    z.object({
      types: z.array(z.string()),
      weeks: z.array(z.object({ week: day, counts: z.record(z.string(), count) })),
    }),
  ),
  /** `read User`: accounts there now by day of sign-up. */
  signupsPerDay: z.optional(z.array(z.object({ day, registered: count, guests: count }))),
  /** `read MorphedAsset`: morph jobs by day requested, and those of them that failed. */
  morphsPerDay: z.optional(z.array(z.object({ day, requested: count, failed: count }))),
  /**
   * `update Asset`: model bytes uploaded and delivered (the delivery version, or the upload
   * where there is none) by day the delivery settled, and in all.
   */
  deliveryBytes: z.optional(
    z.object({
      days: z.array(z.object({ day, uploaded: count, delivered: count })),
      uploaded: count,
      delivered: count,
    }),
  ),
  /** `update Asset`: the files stored, and their bytes. */
  storage: z.optional(z.object({ bytes: count, files: count })),
  attention: z.object({
    /** `read MorphedAsset`. */
    failedMorphs: z.optional(
      attentionSchema(
        z.object({
          id: z.string(),
          sourceName: z.nullable(z.string()),
          bodyName: z.nullable(z.string()),
          error: z.nullable(z.string()),
          at: z.string(),
        }),
      ),
    ),
    /** `update Asset`: the record whose model failed, where it is an asset or a cage mesh. */
    failedDeliveries: z.optional(
      attentionSchema(
        z.object({
          key: z.string(),
          reason: z.nullable(z.string()),
          at: z.string(),
          record: z.nullable(
            z.object({ kind: z.enum(['asset', 'cageMesh']), id: z.string(), name: z.string() }),
          ),
        }),
      ),
    ),
    /** `manage User`: pending invitations expiring within INVITATION_EXPIRY_SOON_HOURS. */
    expiringInvitations: z.optional(
      attentionSchema(z.object({ id: z.string(), email: z.string(), expiresAt: z.string() })),
    ),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

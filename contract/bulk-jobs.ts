/**
 * Bulk jobs (docs/api.md "Bulk jobs"): one change over every row a list filter matches
 * ("all N matching this filter"), run in the background in batches with progress the user
 * sees. Wire shapes only.
 */
import { z } from 'zod/mini';

const idSchema = z.string().check(z.minLength(1), z.maxLength(200));

const BULK_JOB_ACTIONS = ['lock', 'unlock', 'setTag', 'removeTag', 'delete', 'restore'] as const;
const bulkJobActionSchema = z.enum(BULK_JOB_ACTIONS);
export type BulkJobAction = z.infer<typeof bulkJobActionSchema>;

const BULK_JOB_STATES = ['queued', 'running', 'done', 'cancelled', 'failed'] as const;
const bulkJobStateSchema = z.enum(BULK_JOB_STATES);
export type BulkJobState = z.infer<typeof bulkJobStateSchema>;

/** States a job ends in: it changes nothing more. */
export const BULK_JOB_ENDED: readonly BulkJobState[] = ['done', 'cancelled', 'failed'];

/**
 * POST /v1/bulk-jobs. `filter` is the list's filter as the list screen sends it (the assets
 * list's for every action but `restore`, which takes the Trash's): the job changes exactly the
 * rows that list shows. `tagId` names the tag of `setTag` and `removeTag`.
 */
export const bulkJobCreateBodySchema = z.object({
  action: bulkJobActionSchema,
  filter: z.optional(z.record(z.string(), z.unknown())),
  tagId: z.optional(idSchema),
});
export type BulkJobCreateBody = z.infer<typeof bulkJobCreateBodySchema>;

/** A job and how far it got. */
export const bulkJobSchema = z.object({
  id: z.string(),
  /** The user who started it: every batch runs with their authority as it is then. */
  userId: z.string(),
  action: bulkJobActionSchema,
  list: z.enum(['assets', 'trash']),
  filter: z.record(z.string(), z.unknown()),
  tagId: z.nullable(z.string()),
  state: bulkJobStateSchema,
  /** The rows the filter matched when the job was created (the planner's estimate if `totalIsEstimate`). */
  total: z.number(),
  totalIsEstimate: z.boolean(),
  /** Rows looked at so far: changed, skipped, or already as asked. */
  done: z.number(),
  /** Rows the job changed. */
  changed: z.number(),
  /**
   * Rows left as they were because they could not be changed: locked assets (for tags and
   * deletes), records whose place was taken meanwhile (for restores).
   */
  skipped: z.number(),
  error: z.nullable(z.string()),
  /** Who cancelled it (its starter, or an admin); null unless cancelled. */
  cancelledBy: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BulkJob = z.infer<typeof bulkJobSchema>;

/** A job in the admins' list of everyone's jobs: with its starter's address. */
export const bulkJobOfAnyoneSchema = z.extend(bulkJobSchema, {
  userEmail: z.nullable(z.string()),
});
export type BulkJobOfAnyone = z.infer<typeof bulkJobOfAnyoneSchema>;

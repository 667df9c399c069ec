/**
 * Wire shapes every area shares: the error bodies, the `{ data }` envelope, lists and their
 * paging, order updates, record ids.
 */
import { z } from 'zod/mini';

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

/** A record id in a request body. */
export const idSchema = z.string().check(z.minLength(1), z.maxLength(200));

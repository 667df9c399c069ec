/**
 * Saved views (docs/api.md "Saved views"): a list screen's filter, sort and columns saved under a
 * name by one user, opened by anyone who may read that list (a link names the view's id). Wire
 * shapes and the lists a view may belong to.
 */
import { z } from 'zod/mini';
import type { Action, Subject } from './ability';
import { LIST_PAGE_SIZES } from './list-query';

/**
 * The list screens a view may be saved on: the screen's path in the back office and the ability
 * that reads it (the screen's own requirement). Lists of one record (a user's assets, an
 * application's assets) are not here: their address names the record.
 */
export const SAVED_VIEW_LISTS = {
  assets: { path: '/assets', need: ['read', 'Asset'] },
  'cage-meshes': { path: '/cage-meshes', need: ['read', 'CageMesh'] },
  'morphed-assets': { path: '/morphed-assets', need: ['read', 'MorphedAsset'] },
  'morph-queue': { path: '/morph-queue', need: ['read', 'MorphedAsset'] },
  tags: { path: '/tags', need: ['read', 'Tag'] },
  applications: { path: '/applications', need: ['read', 'Application'] },
  users: { path: '/users', need: ['read', 'User'] },
  invitations: { path: '/users/invitations', need: ['manage', 'User'] },
  trash: { path: '/trash', need: ['delete', 'Asset'] },
  activity: { path: '/activity', need: ['update', 'Asset'] },
} as const satisfies Record<
  string,
  { path: string; need: readonly [Action, Exclude<Subject, 'all'>] }
>;

export type SavedViewList = keyof typeof SAVED_VIEW_LISTS;
const savedViewListSchema = z.enum(
  Object.keys(SAVED_VIEW_LISTS) as [SavedViewList, ...SavedViewList[]],
);

/** Views one user may keep, over all lists. */
export const SAVED_VIEW_MAX_PER_USER = 100;
/** The most a view's search may take as JSON text. */
const SAVED_VIEW_MAX_SEARCH_BYTES = 4096;
const SAVED_VIEW_NAME_MAX = 80;

/** A name as shown in menus: trimmed, 1-80 characters, no control characters. */
const nameSchema = z.string().check(
  z.trim(),
  z.minLength(1, 'Give the view a name'),
  z.maxLength(SAVED_VIEW_NAME_MAX, `A view's name has at most ${SAVED_VIEW_NAME_MAX} characters`),
  z.refine((name) => !/\p{Cc}/u.test(name), 'A view name has no control characters'),
);

const key = z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/));
const scalar = z.union([z.string().check(z.maxLength(200)), z.number(), z.boolean()]);

/**
 * A list's address state as a view keeps it (src/api/list-url.ts ListSearch): the filter, the
 * sort and the page size; never a page (a view is a set of rows, not a place in them).
 */
const savedViewSearchSchema = z
  .strictObject({
    filter: z.optional(
      z
        .record(key, z.union([scalar, z.null(), z.array(scalar).check(z.maxLength(100))]))
        .check(z.refine((filter) => Object.keys(filter).length <= 32, 'At most 32 filters')),
    ),
    order: z.optional(z.string().check(z.regex(/^-?[A-Za-z][A-Za-z0-9_]{0,63}$/))),
    limit: z.optional(z.literal(LIST_PAGE_SIZES)),
  })
  .check(
    z.refine(
      (search) =>
        new TextEncoder().encode(JSON.stringify(search)).length <= SAVED_VIEW_MAX_SEARCH_BYTES,
      `A view's search takes at most ${SAVED_VIEW_MAX_SEARCH_BYTES} bytes as JSON`,
    ),
  );
export type SavedViewSearch = z.infer<typeof savedViewSearchSchema>;

/** Narrowest and widest a column may be dragged or stored. */
export const MIN_COLUMN_WIDTH = 64;
export const MAX_COLUMN_WIDTH = 1200;

/**
 * A list's columns as the user arranged them (order, hidden, widths), kept in the browser and in
 * saved views. A layout can arrive from storage another version wrote or from a shared view's
 * link: the bounds keep a crafted one from costing more than a list's own columns would.
 */
const field = z.string().check(z.minLength(1), z.maxLength(64));
export const columnLayoutSchema = z.object({
  order: z.array(field).check(z.maxLength(64)),
  hidden: z.array(field).check(z.maxLength(64)),
  widths: z
    .record(field, z.number().check(z.gte(MIN_COLUMN_WIDTH), z.lte(MAX_COLUMN_WIDTH)))
    .check(z.refine((widths) => Object.keys(widths).length <= 64, 'At most 64 widths')),
});
export type ColumnLayout = z.infer<typeof columnLayoutSchema>;

/** POST /v1/saved-views. */
export const savedViewCreateBodySchema = z.strictObject({
  list: savedViewListSchema,
  name: nameSchema,
  search: savedViewSearchSchema,
  columns: z.optional(z.nullable(columnLayoutSchema)),
});
export type SavedViewCreateBody = z.infer<typeof savedViewCreateBodySchema>;

/** PATCH /v1/saved-views/{id}: a new name, or what the view shows, or both. */
export const savedViewPatchBodySchema = z
  .strictObject({
    name: z.optional(nameSchema),
    search: z.optional(savedViewSearchSchema),
    columns: z.optional(z.nullable(columnLayoutSchema)),
  })
  .check(z.refine((body) => Object.keys(body).length > 0, 'Give a name, a search or columns'));
export type SavedViewPatchBody = z.infer<typeof savedViewPatchBodySchema>;

/** GET /v1/saved-views?list=… */
export const savedViewListQuerySchema = z.object({ list: savedViewListSchema });

/** A saved view as the API answers it. */
export const savedViewSchema = z.object({
  id: z.string(),
  list: savedViewListSchema,
  name: z.string(),
  search: savedViewSearchSchema,
  columns: z.nullable(columnLayoutSchema),
  /** Whose view it is; the e-mail address only for callers who may read users (and the owner). */
  owner: z.object({ id: z.string(), email: z.nullable(z.string()) }),
  /** Whether the caller owns it (may rename, change and delete it). */
  mine: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

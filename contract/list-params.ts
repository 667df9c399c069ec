/**
 * The query parameters of each list endpoint (docs/api.md "Lists") as the document states them:
 * page, limit, the fields it sorts by and its filters with their allowed values. The server's
 * list specs (server/list.ts) enforce the same; server/list-params.test.ts asks each list what
 * it accepts and compares, so the two cannot drift.
 */
import { z } from 'zod/mini';
import {
  ACTIVITY_KINDS,
  genderSchema,
  invitedRoleSchema,
  LIST_MAX_LIMIT,
  morphStatusSchema,
  roleSchema,
  TRASH_KINDS,
  userStatusSchema,
} from './schemas';

/**
 * One filter: a single value or several (the parameter repeated), any text, one of `values`, or
 * text of `pattern` (a set the server keeps, e.g. the routing keys the caller may read).
 */
interface FilterParam {
  several?: boolean;
  values?: readonly string[];
  pattern?: RegExp;
}

interface ListParams {
  /** The fields it sorts by: `field` ascending, `-field` descending. */
  orders: readonly string[];
  filters?: Record<string, FilterParam>;
  /** Filters every request must carry. */
  required?: readonly string[];
}

/** The server reads a page number of at most 9 digits. */
const LIST_MAX_PAGE = 999_999_999;
/** Values of one filter, and characters of one value, the server reads at most. */
const LIST_FILTER_MAX_VALUES = 100;
const LIST_FILTER_MAX_LENGTH = 200;

const text = z.string().check(z.maxLength(LIST_FILTER_MAX_LENGTH));

function filterSchema({ several, values, pattern }: FilterParam) {
  const one = values
    ? z.enum(values as [string, ...string[]])
    : pattern
      ? text.check(z.regex(pattern))
      : text;
  return several ? z.array(one).check(z.maxLength(LIST_FILTER_MAX_VALUES)) : one;
}

/** The query schema of a list with `params`. */
export function listQuery(params: ListParams) {
  const filters = Object.entries(params.filters ?? {}).map(([name, filter]) => {
    const schema = filterSchema(filter);
    return [name, params.required?.includes(name) ? schema : z.optional(schema)] as const;
  });
  return z.object({
    page: z.optional(z.int().check(z.minimum(1), z.maximum(LIST_MAX_PAGE))),
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(LIST_MAX_LIMIT))),
    order: z.optional(
      z.enum(params.orders.flatMap((field) => [field, `-${field}`]) as [string, ...string[]]),
    ),
    ...Object.fromEntries(filters),
  });
}

const search = {};
const several = { several: true };
const oneOf = (values: readonly string[]) => ({ several: true, values });
const yesNo = { values: ['true', 'false'] };

/** The asset lists (`/assets`, `authorized`, `editable`, ...). */
export const assetList: ListParams = {
  orders: ['name', 'type', 'gender', 'createdAt', 'updatedAt', 'position'],
  filters: {
    search,
    type: several,
    gender: oneOf(genderSchema.options),
    applicationId: several,
    tagId: several,
    locked: yesNo,
  },
};
export const userAssetList: ListParams = {
  orders: ['name', 'createdAt'],
  filters: { search, type: several },
};
/** An asset's holders (GET /private/v1/asset-users/{assetId}): by assignment time alone. */
export const assetHolderList: ListParams = { orders: ['assignedAt'] };
export const tagList: ListParams = {
  orders: ['name', 'createdAt', 'assetCount'],
  filters: { search },
};
export const trashList: ListParams = {
  orders: ['deletedAt', 'name', 'kind'],
  filters: { search, kind: oneOf(TRASH_KINDS), deletedBy: several },
};
export const cageMeshList: ListParams = {
  orders: ['name', 'createdAt', 'updatedAt'],
  filters: { search, gender: oneOf(genderSchema.options) },
};
export const morphedAssetList: ListParams = {
  orders: ['createdAt', 'name'],
  filters: { search, sourceAssetId: several },
};
/** A routing key of docs/api.md "Events" (`asset.created.v1`). */
const routingKey = { several: true, pattern: /^[a-z-]+\.[a-z-]+\.v\d+$/ };

export const activityList: ListParams = {
  orders: ['createdAt'],
  filters: {
    actorId: several,
    routingKey,
    kind: oneOf(ACTIVITY_KINDS),
    recordId: several,
    involves: {},
    search,
    // A date (YYYY-MM-DD) or a date and time with its zone (ISO 8601).
    from: {},
    to: {},
  },
};
export const changelogList: ListParams = {
  orders: ['createdAt'],
  filters: { routingKey },
};
export const userList: ListParams = {
  orders: ['email', 'role', 'createdAt', 'lastSignInAt'],
  filters: {
    search,
    role: oneOf(roleSchema.options),
    verified: yesNo,
    status: oneOf(userStatusSchema.options),
  },
};
export const invitationList: ListParams = {
  orders: ['email', 'role', 'sentAt', 'expiresAt'],
  filters: { search, role: oneOf(invitedRoleSchema.options) },
};
export const assetApplicationList: ListParams = {
  orders: ['name', 'position', 'createdAt'],
  filters: { search },
};
export const applicationList: ListParams = { orders: ['name', 'createdAt'], filters: { search } };
export const applicationAssetList: ListParams = {
  orders: ['position', 'name', 'createdAt'],
  filters: { applicationId: several, search, type: several },
  required: ['applicationId'],
};
export const morphQueueList: ListParams = {
  orders: ['createdAt', 'updatedAt', 'status'],
  filters: { status: oneOf(morphStatusSchema.options), search },
};

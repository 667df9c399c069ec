/**
 * GET /v1/activity: the activity log, every event of the platform (assets, cage meshes, tags,
 * applications, user administration) newest first, paged like every list (docs/api.md "Lists"),
 * filtered by actor, kind of change (routing key), kind of record, record (id, or `search` in
 * its name), a user involved (`involves`: as actor, as the user changed, or given or losing assets) and date range. Each
 * row names its record as it is now (the name each event keeps, migration 036: the current one,
 * or the last a record gone for good had), and says whether it is still there, in the Trash or
 * gone for good. Every filter reads the event row alone, so the planner leaves the joins that
 * only name things out of the count and the page's ids.
 *
 * It shows who did what, as the changelog does, so it needs `update Asset`; and only the events
 * the caller's role may see on the live stream (server/event-access.ts): user administration
 * only to admins.
 */
import { Hono } from 'hono';
import { ACTIVITY_KINDS, type ActivityKind, type ActivityRow } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { ALL_ROUTING_KEYS, routingKeysVisibleTo } from '../event-access';
import {
  ASSET_EVENT_KEYS,
  CHANGELOG_HIDDEN_KEYS,
  eventBase,
  relatedColumns,
  relatedJoins,
  relatedOf,
} from '../events';
import { fail } from '../http/errors';
import {
  anyOfFilter,
  parseListQuery,
  runList,
  searchFilter,
  type FilterDef,
  type ListSpec,
} from '../list';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 24 * 3600 * 1000;

/** A date (`YYYY-MM-DD`, a UTC day) or an ISO 8601 date and time with its zone; else a 400. */
function instant(name: string, value: string): Date {
  const time = DATE.test(value) || DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) {
    fail(
      400,
      'VALIDATION_ERROR',
      `${name}: Expected a date (YYYY-MM-DD) or a date and time with its zone (ISO 8601)`,
    );
  }
  return new Date(time);
}

/** `from`: events at or after it (a date: from the start of that day, UTC). */
const fromFilter: FilterDef = {
  where: (p) => `e.created_at >= ${p}::timestamptz`,
  param: (value) => instant('from', value).toISOString(),
};

/** `to`: events at or before it (a date: to the end of that day, UTC). */
const toFilter: FilterDef = {
  where: (p) => `e.created_at < ${p}::timestamptz`,
  param: (value) =>
    new Date(instant('to', value).getTime() + (DATE.test(value) ? DAY_MS : 1)).toISOString(),
};

/**
 * Left out: progress reports (as in the changelog), and `asset.updated.v2`, the whole asset
 * after a save whose `asset.updated.v1` beside it already says what changed.
 */
const HIDDEN_KEYS = [...CHANGELOG_HIDDEN_KEYS, ASSET_EVENT_KEYS.updatedV2];
const LISTED_KEYS = ALL_ROUTING_KEYS.filter((key) => !HIDDEN_KEYS.includes(key));

interface ActivityDbRow {
  id: string;
  routing_key: string;
  actor_id: string | null;
  actor_email: string | null;
  data: Record<string, unknown>;
  created_at: Date;
  subject_kind: ActivityKind;
  subject_id: string;
  subject_name: string | null;
  subject_state: ActivityRow['subject']['state'];
  application_name: string | null;
  user_email: string | null;
}

export const activityListSpec: ListSpec<ActivityRow> = {
  from: `asset_events e
    LEFT JOIN users u ON u.id = e.actor_id
    LEFT JOIN assets a ON a.id = e.asset_id
    LEFT JOIN cage_meshes cm ON cm.id = e.cage_mesh_id
    LEFT JOIN tags t ON t.id = e.tag_id
    LEFT JOIN applications ap ON ap.id = e.application_id
    LEFT JOIN users su ON su.id = e.user_id
    LEFT JOIN morphed_assets ma ON ma.id = e.morphed_asset_id
    LEFT JOIN invitations inv ON inv.id = e.invitation_id
    LEFT JOIN trash tr ON tr.kind = e.subject_kind AND tr.id = e.subject_id
    ${relatedJoins}`,
  columns: `e.id, e.routing_key, e.actor_id, u.email AS actor_email, e.data, e.created_at,
    e.subject_kind, e.subject_id,
    e.subject_name,
    CASE WHEN coalesce(a.id, cm.id, t.id, ap.id, ma.id, su.id) IS NOT NULL
        OR (inv.accepted_at IS NULL AND inv.revoked_at IS NULL AND inv.id IS NOT NULL) THEN 'live'
      WHEN tr.id IS NOT NULL THEN 'trash' ELSE 'gone' END AS subject_state,
    ${relatedColumns}`,
  orders: { createdAt: 'e.created_at' },
  defaultOrder: '-createdAt',
  idColumn: 'e.seq',
  filters: {
    actorId: anyOfFilter('e.actor_id'),
    routingKey: anyOfFilter('e.routing_key', LISTED_KEYS),
    kind: anyOfFilter('e.subject_kind', ACTIVITY_KINDS),
    recordId: anyOfFilter('e.subject_id'),
    // A user's page: what they did, and what was done to their account.
    involves: {
      // What they did, what was done to their account, and the assets given or taken from them.
      where: (p) =>
        `(e.actor_id = ${p} OR (e.subject_kind = 'user' AND e.subject_id = ${p}) OR e.data->>'userId' = ${p})`,
    },
    search: searchFilter('e.subject_name'),
    from: fromFilter,
    to: toFilter,
  },
  toRow: (row: ActivityDbRow) => ({
    ...eventBase(row),
    subject: {
      kind: row.subject_kind,
      id: row.subject_id,
      name: row.subject_name,
      state: row.subject_state,
    },
    ...relatedOf(row),
  }),
};

/** Routes mounted at /v1/activity, from their declaration (contract/routes.ts). */
export function activityRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/activity');
  on('get', '/v1/activity', undefined, async (c) => {
    const query = parseListQuery(activityListSpec, c.req.queries());
    const visible = routingKeysVisibleTo(c.get('auth').ability).filter((key) =>
      LISTED_KEYS.includes(key),
    );
    return c.json(
      await runList(deps.db, activityListSpec, query, (params) => [
        `e.routing_key = ANY(${params.add(visible)}::text[])`,
      ]),
    );
  });
  return app;
}

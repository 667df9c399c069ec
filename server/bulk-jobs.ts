/**
 * Bulk jobs (docs/api.md "Bulk jobs"): one change over every row a list filter matches, run in
 * the background by the worker (server/bulk-job-worker.ts). Creating one counts the matches
 * (exact, or the planner's estimate past the list's exact limit) and queues it. Its starter
 * reads and cancels it; an admin sees and cancels everyone's. A cancel sets the state at once;
 * it waits for the batch in progress (which holds the job's row).
 */
import type { AppAbility, Subject } from '../contract/ability';
import type {
  BulkJob,
  BulkJobAction,
  BulkJobCreateBody,
  BulkJobOfAnyone,
} from '../contract/bulk-jobs';
import { trashKindSchema } from '../contract/schemas';
import type { Db } from './db';
import type { Deps } from './deps';
import { fail } from './http/errors';
import { newId } from './ids';
import { filterFromJson, runList } from './list';
import { listOf, recordProgress, toBulkJob, type BulkJobRow } from './bulk-job-rows';
import { trashSubject } from './trash';
import { trashListSpec } from './trash-list';

/** Jobs one user may have queued or running at once; more is a 429. */
export const BULK_MAX_ACTIVE_PER_USER = 3;

/** The jobs GET /v1/bulk-jobs lists: the caller's newest. */
const BULK_RECENT_JOBS = 20;

/** The ability an action needs, as its per-id route needs it. */
const ACTION_NEEDS: Record<Exclude<BulkJobAction, 'restore'>, ['update' | 'delete', Subject]> = {
  lock: ['update', 'Asset'],
  unlock: ['update', 'Asset'],
  setTag: ['update', 'Asset'],
  removeTag: ['update', 'Asset'],
  delete: ['delete', 'Asset'],
};

const isTagAction = (action: BulkJobAction) => action === 'setTag' || action === 'removeTag';

/**
 * The first ability job `row` needs that `ability` does not allow (as "delete Asset"), or
 * undefined: the action's, or for a restore the delete of each kind its filter names.
 */
export function missingNeed(
  ability: AppAbility,
  row: Pick<BulkJobRow, 'action' | 'filter'>,
): string | undefined {
  const needs: [string, Subject][] =
    row.action === 'restore'
      ? trashKindSchema.options
          .filter((kind) => (row.filter.kind as unknown[] | undefined)?.includes(kind) ?? true)
          .map((kind) => ['delete', trashSubject(kind)])
      : [ACTION_NEEDS[row.action]];
  const missing = needs.find(([verb, what]) => !ability.can(verb as 'delete', what));
  return missing && `${missing[0]} ${missing[1]}`;
}

/**
 * Validates and queues a job of `userId` (whose abilities are `ability`); answers it. A tag
 * action's tag must exist (404); a restore is limited to the kinds the caller may delete (its
 * filter's `kind` is narrowed to them, as the Trash list is). At most
 * BULK_MAX_ACTIVE_PER_USER jobs of a user are queued or running (429).
 */
export async function createBulkJob(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  caller: { userId: string; ability: AppAbility },
  body: BulkJobCreateBody,
  /** Runs in the creating transaction with the new job (the route keeps its answer there). */
  inCreate: (tx: Db, job: BulkJob) => Promise<unknown> = () => Promise.resolve(),
): Promise<BulkJob> {
  const { db } = deps;
  const { action } = body;
  let filter: Record<string, unknown> = body.filter ?? {};
  if (action === 'restore') {
    const deletable = trashKindSchema.options.filter((kind) =>
      caller.ability.can('delete', trashSubject(kind)),
    );
    const asked = filterFromJson(trashListSpec(deps.config.trashRetentionDays), filter).kind;
    const kinds = asked ? deletable.filter((kind) => asked.includes(kind)) : deletable;
    if (kinds.length === 0) fail(403, 'FORBIDDEN', 'Your role may not restore these records');
    filter = { ...filter, kind: kinds };
  } else {
    const missing = missingNeed(caller.ability, { action, filter });
    if (missing) fail(403, 'FORBIDDEN', `Your role may not ${missing}`);
  }
  if (isTagAction(action) !== (body.tagId !== undefined)) {
    fail(400, 'VALIDATION_ERROR', 'tagId: Give a tag for setTag and removeTag, and only for them');
  }
  const list = action === 'restore' ? 'trash' : 'assets';
  const { spec, filters } = listOf({ list, filter }, deps.config.trashRetentionDays);
  if (body.tagId !== undefined) {
    const { rows } = await db.query('SELECT 1 FROM tags WHERE id = $1', [body.tagId]);
    if (rows.length === 0) fail(404, 'NOT_FOUND', `No tag with id ${body.tagId}`);
  }
  // The total the list itself shows for this filter (exact, or its estimate past the limit).
  const { pagination } = await runList(db, spec, {
    page: 1,
    limit: 1,
    order: { field: spec.defaultOrder.replace(/^-/, ''), descending: false },
    filters,
  });
  const total = pagination.totalDocs;
  const estimate = pagination.totalIsEstimate ?? false;
  const at = deps.now();
  return db.transaction(async (tx) => {
    // The user's jobs are counted and the new one inserted under one lock: a burst of creates
    // cannot all see room for one more.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`bulk-jobs:${caller.userId}`]);
    const { rows: active } = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM bulk_jobs
       WHERE user_id = $1 AND state IN ('queued', 'running')`,
      [caller.userId],
    );
    if ((active[0]?.n ?? 0) >= BULK_MAX_ACTIVE_PER_USER) {
      fail(
        429,
        'TOO_MANY_JOBS',
        `At most ${BULK_MAX_ACTIVE_PER_USER} bulk jobs of yours run at once; wait for one to end or cancel one`,
      );
    }
    const { rows } = await tx.query<BulkJobRow>(
      `INSERT INTO bulk_jobs (id, user_id, action, list, filter, tag_id, total, total_is_estimate,
         created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $9) RETURNING *`,
      [
        newId(),
        caller.userId,
        action,
        list,
        JSON.stringify(filter),
        body.tagId ?? null,
        total,
        estimate,
        at,
      ],
    );
    await recordProgress(tx, rows[0]!, at);
    const job = toBulkJob(rows[0]!);
    await inCreate(tx, job);
    return job;
  });
}

/** Job `id` of `userId`, or a 404 (another user's job is not theirs to see). */
export async function getBulkJob(db: Db, userId: string, id: string): Promise<BulkJob> {
  const { rows } = await db.query<BulkJobRow>(
    'SELECT * FROM bulk_jobs WHERE id = $1 AND user_id = $2',
    [id, userId],
  );
  if (!rows[0]) fail(404, 'NOT_FOUND', `No bulk job of yours with id ${id}`);
  return toBulkJob(rows[0]);
}

/** The newest BULK_RECENT_JOBS jobs of `userId`. */
export async function listBulkJobs(db: Db, userId: string): Promise<BulkJob[]> {
  const { rows } = await db.query<BulkJobRow>(
    `SELECT * FROM bulk_jobs WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, BULK_RECENT_JOBS],
  );
  return rows.map(toBulkJob);
}

/**
 * Cancels job `id` for `callerId`: their own, or with `anyone` (an admin, from the jobs list)
 * anyone's. A queued or running job ends `cancelled` (a running one after the batch it is in,
 * which holds its row), naming who cancelled it; an ended one stays as it is. Answers the job:
 * another's job is a 404 without `anyone`.
 */
export async function cancelBulkJob(
  deps: Pick<Deps, 'db' | 'now'>,
  callerId: string,
  id: string,
  { anyone = false } = {},
): Promise<BulkJob> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<BulkJobRow>(
      `UPDATE bulk_jobs
       SET state = 'cancelled', cancelled_by = $2, leased_until = NULL, updated_at = $3
       WHERE id = $1 AND (user_id = $2 OR $4) AND state IN ('queued', 'running') RETURNING *`,
      [id, callerId, at, anyone],
    );
    if (!rows[0]) return anyone ? getAnyonesBulkJob(tx, id) : getBulkJob(tx, callerId, id);
    await recordProgress(tx, rows[0], at);
    return toBulkJob(rows[0]);
  });
}

// The admins' view of everyone's jobs.

/** Queued and running jobs the admins' list shows at most (users hold 3 each). */
const ADMIN_ACTIVE_JOBS = 500;

type RowOfAnyone = BulkJobRow & { user_email: string | null };
const ofAnyone = (row: RowOfAnyone): BulkJobOfAnyone => ({
  ...toBulkJob(row),
  userEmail: row.user_email,
});
const SELECT_OF_ANYONE = `SELECT j.*, u.email AS user_email
  FROM bulk_jobs j LEFT JOIN users u ON u.id = j.user_id`;

/** Job `id` of any user, with its starter's address, or a 404. */
export async function getAnyonesBulkJob(db: Db, id: string): Promise<BulkJobOfAnyone> {
  const { rows } = await db.query<RowOfAnyone>(`${SELECT_OF_ANYONE} WHERE j.id = $1`, [id]);
  if (!rows[0]) fail(404, 'NOT_FOUND', `No bulk job with id ${id}`);
  return ofAnyone(rows[0]);
}

/**
 * Every user's queued and running jobs (the newest ADMIN_ACTIVE_JOBS), newest first, then the
 * newest BULK_RECENT_JOBS that ended: what an admin needs to see what runs and stop it.
 */
export async function listEveryonesBulkJobs(db: Db): Promise<BulkJobOfAnyone[]> {
  const { rows: active } = await db.query<RowOfAnyone>(
    `${SELECT_OF_ANYONE} WHERE j.state IN ('queued', 'running')
     ORDER BY j.created_at DESC, j.id DESC LIMIT $1`,
    [ADMIN_ACTIVE_JOBS],
  );
  const { rows: ended } = await db.query<RowOfAnyone>(
    `${SELECT_OF_ANYONE} WHERE j.state NOT IN ('queued', 'running')
     ORDER BY j.created_at DESC, j.id DESC LIMIT $1`,
    [BULK_RECENT_JOBS],
  );
  return [...active, ...ended].map(ofAnyone);
}

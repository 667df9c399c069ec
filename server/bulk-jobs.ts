/**
 * Bulk jobs (docs/api.md "Bulk jobs"): one change over every row a list filter matches,
 * run in the background. Creating one counts the matches (exact, or the planner's estimate
 * past the list's exact limit) and queues it; a worker claims it and walks the matching rows
 * in id order, BULK_BATCH_SIZE at a time. Each batch is one transaction that locks its rows,
 * applies the change, records each changed row's events as its single route records them
 * (marked with the job's id), moves the job's cursor and counts, and records one progress
 * event of the job: a worker that stops anywhere leaves the job at a batch boundary, and
 * whoever takes it next starts after the cursor, so no row is changed or recorded twice.
 *
 * The claim follows the morph queue (server/morph-worker.ts): `FOR UPDATE SKIP LOCKED`, the
 * job's `attempts` as the claim's token in every later write, a lease renewed by each batch; a
 * job whose lease ran out (its worker died) is claimed again, and one claimed
 * BULK_MAX_ATTEMPTS times without ending fails. A cancel sets the state at once; it waits for
 * the batch in progress (which holds the job's row), and the next batch finds the job no
 * longer running.
 */
import type { AppAbility, Subject } from '../contract/ability';
import type { BulkJob, BulkJobAction, BulkJobCreateBody } from '../contract/bulk-jobs';
import { trashKindSchema } from '../contract/schemas';
import type { Db } from './db';
import type { Deps } from './deps';
import { fail } from './http/errors';
import { newId } from './ids';
import { filterFromJson, runList } from './list';
import { log } from './log';
import { startPollLoops } from './poll-loops';
import { applyBatch, JobFailed, nextRows } from './bulk-batches';
import { listOf, recordProgress, toBulkJob, type BulkJobRow } from './bulk-job-rows';
import { trashSubject } from './trash';
import { trashListSpec } from './trash-list';

const jobLog = log.child({ job: 'bulk' });

/** Rows changed per transaction: a few hundred milliseconds of locks at most. */
const BULK_BATCH_SIZE = 500;

/** Jobs one user may have queued or running at once; more is a 429. */
export const BULK_MAX_ACTIVE_PER_USER = 3;

/** A running job whose lease (renewed by every batch) ran out this long ago was abandoned. */
export const BULK_LEASE_MS = 60 * 1000;

/** Claims a job gets before it fails (each batch's progress is kept across claims). */
const BULK_MAX_ATTEMPTS = 10;

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
    const [verb, what] = ACTION_NEEDS[action];
    if (!caller.ability.can(verb, what))
      fail(403, 'FORBIDDEN', `Your role may not ${verb} ${what}`);
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
 * Cancels job `id` of `userId`: a queued or running job ends `cancelled` (a running one after
 * the batch it is in, which holds its row); an ended one stays as it is. Answers the job.
 */
export async function cancelBulkJob(
  deps: Pick<Deps, 'db' | 'now'>,
  userId: string,
  id: string,
): Promise<BulkJob> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<BulkJobRow>(
      `UPDATE bulk_jobs SET state = 'cancelled', leased_until = NULL, updated_at = $3
       WHERE id = $1 AND user_id = $2 AND state IN ('queued', 'running') RETURNING *`,
      [id, userId, at],
    );
    if (!rows[0]) return getBulkJob(tx, userId, id);
    await recordProgress(tx, rows[0], at);
    return toBulkJob(rows[0]);
  });
}

// The worker.

type WorkerDeps = Pick<Deps, 'db' | 'now'> & { trashRetentionDays: number };

interface Claim {
  id: string;
  attempts: number;
}

/** The claim no longer owns the job: cancelled, ended, or recovered by another worker. */
class LeaseLost extends Error {}

export interface BulkWorkerOptions {
  /** How long an idle loop waits before looking for jobs again. */
  pollMs?: number;
  /** 0 starts no loop (tests call runOnce). */
  concurrency?: number;
  leaseMs?: number;
  maxAttempts?: number;
  /** Rows a batch changes (default BULK_BATCH_SIZE). */
  batchSize?: number;
  onError?: (error: unknown) => void;
  /**
   * Called inside each batch's transaction after its change, before its commit (tests make a
   * worker die there).
   */
  beforeCommit?: (job: BulkJob) => Promise<void> | void;
}

export interface BulkWorker {
  /**
   * Claims the oldest queued (or abandoned) job and runs its batches until it ends, at most
   * `maxBatches` of them (then it returns holding the lease, as a worker that died would);
   * false when there was nothing to claim.
   */
  runOnce(options?: { maxBatches?: number }): Promise<boolean>;
  /** Stops after the batches in progress; their jobs are handed back for any worker. */
  stop(): Promise<void>;
}

/** Runs one batch of a claimed job; answers whether the job goes on. */
async function runBatch(
  deps: WorkerDeps,
  claim: Claim,
  options: Pick<BulkWorkerOptions, 'beforeCommit'> & { leaseMs: number; batchSize: number },
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const { rows: owned } = await tx.query<BulkJobRow>(
      `SELECT * FROM bulk_jobs WHERE id = $1 AND attempts = $2 AND state = 'running' FOR UPDATE`,
      [claim.id, claim.attempts],
    );
    const job = owned[0];
    if (!job) throw new LeaseLost();
    const at = deps.now();
    const rows = await nextRows(tx, job, deps.trashRetentionDays, options.batchSize);
    const result = rows.length > 0 ? await applyBatch(tx, job, rows, at) : undefined;
    const last = rows.at(-1)?.id ?? job.cursor_id;
    const ended = rows.length < options.batchSize;
    const { rows: updated } = await tx.query<BulkJobRow>(
      `UPDATE bulk_jobs SET cursor_id = $2, done = done + $3, changed = changed + $4,
         skipped = skipped + $5, state = $6, leased_until = $7, updated_at = $8
       WHERE id = $1 RETURNING *`,
      [
        job.id,
        last,
        rows.length,
        result?.changed ?? 0,
        result?.skipped ?? 0,
        ended ? 'done' : 'running',
        ended ? null : new Date(at.getTime() + options.leaseMs),
        at,
      ],
    );
    await recordProgress(tx, updated[0]!, at);
    await options.beforeCommit?.(toBulkJob(updated[0]!));
    return !ended;
  });
}

async function claimNext(deps: WorkerDeps, leaseMs: number): Promise<Claim | undefined> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `SELECT id FROM bulk_jobs
       WHERE state = 'queued' OR (state = 'running' AND leased_until < $1)
       ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [at],
    );
    if (!rows[0]) return undefined;
    const { rows: claimed } = await tx.query<BulkJobRow>(
      `UPDATE bulk_jobs SET state = 'running', attempts = attempts + 1, leased_until = $2,
         updated_at = $3
       WHERE id = $1 RETURNING *`,
      [rows[0].id, new Date(at.getTime() + leaseMs), at],
    );
    await recordProgress(tx, claimed[0]!, at);
    return { id: claimed[0]!.id, attempts: claimed[0]!.attempts };
  });
}

/** Ends a claimed job `failed` with `message` (nothing when the claim is no longer its owner). */
async function failJob(deps: WorkerDeps, claim: Claim, message: string) {
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<BulkJobRow>(
      `UPDATE bulk_jobs SET state = 'failed', error = $3, leased_until = NULL, updated_at = $4
       WHERE id = $1 AND attempts = $2 AND state = 'running' RETURNING *`,
      [claim.id, claim.attempts, message, at],
    );
    if (rows[0]) await recordProgress(tx, rows[0], at);
  });
}

/** Gives a claimed job back (queued, its progress kept) for any worker to go on with. */
async function handBack(deps: WorkerDeps, claim: Claim) {
  await deps.db.query(
    `UPDATE bulk_jobs SET state = 'queued', leased_until = NULL, updated_at = $3
     WHERE id = $1 AND attempts = $2 AND state = 'running'`,
    [claim.id, claim.attempts, deps.now()],
  );
}

/** Starts the worker: `concurrency` loops that each claim and run jobs. */
export function startBulkWorker(deps: WorkerDeps, options: BulkWorkerOptions = {}): BulkWorker {
  const {
    pollMs = 1000,
    concurrency = 1,
    leaseMs = BULK_LEASE_MS,
    maxAttempts = BULK_MAX_ATTEMPTS,
    batchSize = BULK_BATCH_SIZE,
    onError = (error: unknown) => jobLog.error({ err: error }, 'Bulk job worker failed'),
    beforeCommit,
  } = options;
  let stopped = false;

  const runOnce = async ({ maxBatches = Infinity } = {}): Promise<boolean> => {
    const claim = await claimNext(deps, leaseMs);
    if (!claim) return false;
    const started = performance.now();
    if (claim.attempts > maxAttempts) {
      await failJob(
        deps,
        claim,
        `Gave up after ${maxAttempts} attempts: the worker stopped each time`,
      );
      return true;
    }
    let batches = 0;
    try {
      for (;;) {
        if (batches >= maxBatches) return true;
        if (stopped) {
          await handBack(deps, claim);
          return true;
        }
        batches += 1;
        if (!(await runBatch(deps, claim, { leaseMs, beforeCommit, batchSize }))) break;
      }
    } catch (error) {
      if (error instanceof LeaseLost) return true;
      if (error instanceof JobFailed) {
        await failJob(deps, claim, error.message);
        return true;
      }
      // Database trouble: the job goes back; its lease brings it back if that fails too.
      onError(error);
      await handBack(deps, claim).catch(onError);
      return true;
    } finally {
      jobLog.info(
        { jobId: claim.id, batches, durationMs: Math.round(performance.now() - started) },
        'Bulk job claim ended',
      );
    }
    return true;
  };

  const loops = startPollLoops({ concurrency, pollMs, runOnce: () => runOnce(), onError });

  return {
    runOnce,
    async stop() {
      stopped = true;
      await loops.stop();
    },
  };
}

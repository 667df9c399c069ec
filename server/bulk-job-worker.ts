/**
 * The bulk job worker (docs/api.md "Bulk jobs"; server/bulk-jobs.ts queues and cancels them):
 * it claims a job and walks the matching rows in id order, BULK_BATCH_SIZE at a time. Each batch
 * is one transaction that locks its rows, applies the change, records each changed row's events
 * as its single route records them (marked with the job's id), moves the job's cursor and
 * counts, and records one progress event of the job: a worker that stops anywhere leaves the job
 * at a batch boundary, and whoever takes it next starts after the cursor, so no row is changed
 * or recorded twice.
 *
 * The claim follows the morph queue (server/morph-worker.ts): `FOR UPDATE SKIP LOCKED`, the
 * job's `attempts` as the claim's token in every later write, a lease renewed by each batch; a
 * job whose lease ran out (its worker died) is claimed again, and one claimed
 * BULK_MAX_ATTEMPTS times without ending fails. A cancel waits for the batch in progress (which
 * holds the job's row), and the next batch finds the job no longer running.
 *
 * Every batch runs with its starter's authority as it is then (server/auth/current-authority.ts),
 * not as it was when the job was queued: a starter demoted, disabled or without the second
 * factor REQUIRE_ADMIN_2FA asks of them has their job end `failed`, saying why, before its next
 * batch changes anything. (A deleted starter's job is deleted with the account.)
 */
import { currentAuthority } from './auth/current-authority';
import type { BulkJob } from '../contract/bulk-jobs';
import type { Db } from './db';
import type { Deps } from './deps';
import { log } from './log';
import { startPollLoops } from './poll-loops';
import { applyBatch, JobFailed, nextRows } from './bulk-batches';
import { recordProgress, toBulkJob, type BulkJobRow } from './bulk-job-rows';
import { missingNeed } from './bulk-jobs';

const jobLog = log.child({ job: 'bulk' });

/** Rows changed per transaction: a few hundred milliseconds of locks at most. */
const BULK_BATCH_SIZE = 500;

/** A running job whose lease (renewed by every batch) ran out this long ago was abandoned. */
export const BULK_LEASE_MS = 60 * 1000;

/** Claims a job gets before it fails (each batch's progress is kept across claims). */
const BULK_MAX_ATTEMPTS = 10;

type WorkerDeps = Pick<Deps, 'db' | 'now'> & {
  trashRetentionDays: number;
  /** REQUIRE_ADMIN_2FA: an admin without a second factor has no admin powers. */
  requireAdminSecondFactor: boolean;
};

/** Why the starter of job `row` may no longer run it, or undefined while they may. */
async function starterRefusal(deps: WorkerDeps, tx: Db, row: BulkJobRow) {
  const { requireAdminSecondFactor } = deps;
  const authority = await currentAuthority(
    { config: { requireAdminSecondFactor } },
    tx,
    row.user_id,
  );
  if ('refusal' in authority) return `Stopped: ${authority.refusal}`;
  const missing = missingNeed(authority.ability, row);
  return missing && `Stopped: the role of the account that started it may no longer ${missing}`;
}

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
  /**
   * How long to rest after a batch that took `batchMs` (default none). On a database of one
   * connection (PGlite) the next batch would take it back before a waiting request's next query:
   * PGlite lets a query in only once no transaction holds the connection, and a loop of
   * transactions never lets go, so everyone else would wait for the whole job.
   */
  restAfterBatch?: (batchMs: number) => number;
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
    const refusal = await starterRefusal(deps, tx, job);
    if (refusal) throw new JobFailed(refusal);
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
    restAfterBatch,
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
        const batchStarted = performance.now();
        if (!(await runBatch(deps, claim, { leaseMs, beforeCommit, batchSize }))) break;
        const rest = restAfterBatch?.(performance.now() - batchStarted) ?? 0;
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
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

/**
 * The morph queue's claims in the database (server/morph-worker.ts runs them): whose entry is
 * taken next, the lease that progress reports renew, hand-backs and recovery of abandoned work.
 *
 * Every write after the claim names the entry's `attempts` as it was claimed: once lease
 * recovery has handed the entry to someone else, the old claimant's writes match nothing and
 * its result is thrown away, so an entry ends exactly once. Every change of an entry's status
 * or progress records `asset.morph-queue-entry-updated.v1` on its source asset in the same
 * transaction, so the live stream carries job progress.
 */
import type { Db, SqlParam } from './db';
import type { Deps } from './deps';
import { recordAssetEvents } from './events';

export type WorkerDeps = Pick<Deps, 'db' | 'storage' | 'now'>;

export interface Claim {
  id: string;
  sourceAssetId: string;
  bodyAssetId: string;
  /** The entry's attempts after this claim: the claim's token in later writes. */
  attempts: number;
  /** Set when a stopping worker gave the entry back: the work stops at its next step. */
  handedBack?: boolean;
}

/** This claim no longer owns its entry (recovered and re-claimed elsewhere, or deleted). */
export class LeaseLost extends Error {}

/** A queue entry as its update event reports it. */
export interface EntryRow {
  id: string;
  source_asset_id: string;
  body_asset_id: string;
  status: string;
  progress: number;
  error: string | null;
  morphed_asset_id: string | null;
}
export const RETURNING_ENTRY =
  'RETURNING id, source_asset_id, body_asset_id, status, progress, error, morphed_asset_id';

/** Claims are taken one at a time, so each reads the turns the one before it gave. */
const CLAIM_LOCK = 'morph-queue:claim';

/** Records the state of updated entries (call it in the transaction of the update). */
export function recordEntryUpdates(tx: Db, rows: readonly EntryRow[], at: Date) {
  return recordAssetEvents(
    tx,
    rows.map((row) => ({
      assetId: row.source_asset_id,
      event: 'morphQueueEntryUpdated' as const,
      actorId: null,
      data: {
        queueEntryId: row.id,
        bodyAssetId: row.body_asset_id,
        status: row.status,
        progress: row.progress,
        error: row.error,
        morphedAssetId: row.morphed_asset_id,
      },
      at,
    })),
  );
}

/** Runs an `UPDATE morph_queue …` (without RETURNING) and records an event per updated entry. */
export function updateEntries(deps: WorkerDeps, sql: string, params: readonly SqlParam[]) {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<EntryRow>(`${sql} ${RETURNING_ENTRY}`, params);
    await recordEntryUpdates(tx, rows, deps.now());
    return rows;
  });
}

/** Re-queues (or, out of attempts, fails) entries whose worker stopped while processing them. */
export async function recoverAbandoned(deps: WorkerDeps, leaseMs: number, maxAttempts: number) {
  const now = deps.now();
  await updateEntries(
    deps,
    `UPDATE morph_queue SET
       status = CASE WHEN attempts < $2 THEN 'queued' ELSE 'failed' END,
       progress = CASE WHEN attempts < $2 THEN 0 ELSE progress END,
       error = CASE WHEN attempts < $2 THEN NULL ELSE $3::text END,
       updated_at = $4
     WHERE status = 'processing' AND updated_at < $1`,
    [
      new Date(now.getTime() - leaseMs),
      maxAttempts,
      `Gave up after ${maxAttempts} attempts: the worker stopped each time before finishing`,
      now,
    ],
  );
}

/**
 * Claims the next entry, taking turns between requesters: of those with an entry queued, the
 * one served least recently (one never served first) gets the turn, and their oldest queued
 * entry is claimed. However many entries one user queues, another's waits for at most one of
 * theirs. The walk reads the requesters with something queued in turn order (migration 049)
 * and each one's oldest entry from one index range, however long the queue and its history.
 */
export async function claimNext(deps: WorkerDeps): Promise<Claim | undefined> {
  return deps.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [CLAIM_LOCK]);
    const now = deps.now();
    const { rows } = await tx.query<EntryRow & { attempts: number; requester: string }>(
      `WITH next AS (
         SELECT q.entry_id, u.requester FROM morph_requesters u
         CROSS JOIN LATERAL (
           SELECT q.id AS entry_id FROM morph_queue q
           WHERE q.status = 'queued' AND coalesce(q.requested_by, '') = u.requester
           ORDER BY q.created_at, q.id
           LIMIT 1
           FOR UPDATE SKIP LOCKED) q
         WHERE u.queued > 0
         ORDER BY u.served_turn NULLS FIRST, u.requester
         LIMIT 1)
       UPDATE morph_queue m SET status = 'processing', progress = 0, error = NULL,
         attempts = m.attempts + 1, updated_at = $1
       FROM next WHERE m.id = next.entry_id
       ${RETURNING_ENTRY}, attempts, next.requester`,
      [now],
    );
    const row = rows[0];
    if (!row) return undefined;
    await tx.query(
      "UPDATE morph_requesters SET served_turn = nextval('morph_turns') WHERE requester = $1",
      [row.requester],
    );
    await recordEntryUpdates(tx, rows, now);
    return {
      id: row.id,
      sourceAssetId: row.source_asset_id,
      bodyAssetId: row.body_asset_id,
      attempts: row.attempts,
    };
  });
}

/**
 * Gives a claimed entry back: queued again with its progress reset, its attempts kept (they are
 * the claim's token, so they never go down). The claim's later writes then match nothing.
 */
export async function handBack(deps: WorkerDeps, claim: Claim): Promise<boolean> {
  const rows = await updateEntries(
    deps,
    `UPDATE morph_queue SET status = 'queued', progress = 0, error = NULL, updated_at = $3
     WHERE id = $1 AND attempts = $2 AND status = 'processing'`,
    [claim.id, claim.attempts, deps.now()],
  );
  return rows.length > 0;
}

/** Updates the progress (and so the lease) of a claimed entry; throws LeaseLost when not ours. */
export async function reportProgress(deps: WorkerDeps, claim: Claim, progress: number) {
  if (claim.handedBack) throw new LeaseLost();
  const rows = await updateEntries(
    deps,
    `UPDATE morph_queue SET progress = $3, updated_at = $4
     WHERE id = $1 AND attempts = $2 AND status = 'processing'`,
    [claim.id, claim.attempts, progress, deps.now()],
  );
  if (rows.length === 0) throw new LeaseLost();
}

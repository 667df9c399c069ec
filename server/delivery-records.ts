/**
 * The delivery queue's rows (model_deliveries, server/deliveries.ts runs the queue): queuing a
 * model, claiming the next in turn, and recording how its derivation ended or giving it back.
 */
import type { ModelDelivery } from '../contract/schemas';
import type { Db } from './db';

/** A claim not finished for this long was abandoned (far above the derivation's time limit). */
export const DELIVERY_LEASE_MS = 10 * 60 * 1000;

/** Claims are taken one at a time, so two servers never start two models of one uploader. */
const CLAIM_LOCK = 'model-deliveries:claim';

/** SQL of a row as the API answers it (`d` the model_deliveries alias). */
export const DELIVERY_JSON = `json_build_object('status', d.status, 'url', d.delivery_url,
  'originalSize', d.original_size, 'size', d.delivery_size, 'reason', d.reason)`;

/** The recorded delivery of a stored model, or undefined when it has none yet. */
export async function findDelivery(db: Db, modelKey: string): Promise<ModelDelivery | undefined> {
  const { rows } = await db.query<{ delivery: ModelDelivery }>(
    `SELECT ${DELIVERY_JSON} AS delivery FROM model_deliveries d WHERE d.model_key = $1`,
    [modelKey],
  );
  return rows[0]?.delivery;
}

/**
 * Queues `modelKey` at `now` for `requestedBy` (or, with `refused`, records it as delivered as
 * uploaded for that reason): true when it is now queued or recorded by this call, or was already
 * waiting its turn (no row yet, a waiting row, an abandoned claim; with `retry` also a finished
 * row that is not `ready`). A waiting or abandoned row keeps its place, uploader and attempts.
 */
export async function enqueue(
  db: Db,
  modelKey: string,
  originalSize: number,
  now: Date,
  { retry, requestedBy, refused }: { retry: boolean; requestedBy: string | null; refused?: string },
): Promise<boolean> {
  const abandoned = new Date(now.getTime() - DELIVERY_LEASE_MS);
  const { rows } = await db.query(
    `INSERT INTO model_deliveries (model_key, status, original_size, reason, requested_by,
                                   queued_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (model_key) DO UPDATE
       SET status = EXCLUDED.status, original_size = EXCLUDED.original_size,
           delivery_url = NULL, delivery_size = NULL, reason = EXCLUDED.reason, claimed_at = NULL,
           requested_by = CASE WHEN model_deliveries.status = 'pending'
                               THEN model_deliveries.requested_by ELSE EXCLUDED.requested_by END,
           queued_at = CASE WHEN model_deliveries.status = 'pending'
                            THEN coalesce(model_deliveries.queued_at, EXCLUDED.queued_at)
                            ELSE EXCLUDED.queued_at END,
           attempts = CASE WHEN model_deliveries.status = 'pending'
                           THEN model_deliveries.attempts ELSE 0 END,
           updated_at = EXCLUDED.updated_at
       WHERE (model_deliveries.status = 'pending'
              AND (model_deliveries.claimed_at IS NULL OR model_deliveries.claimed_at < $7))
          OR ($8 AND model_deliveries.status IN ('original', 'failed'))
     RETURNING model_key`,
    [
      modelKey,
      refused === undefined ? 'pending' : 'failed',
      originalSize,
      refused ?? null,
      requestedBy,
      now,
      abandoned,
      retry,
    ],
  );
  return rows.length > 0;
}

export interface Job {
  modelKey: string;
  originalSize: number;
  claimedAt: Date;
  /** Claims of the model, this one included. */
  attempts: number;
}

/**
 * Claims a model at `now`, or undefined when none waits: of the uploaders with a model waiting
 * (or an abandoned claim) and none being derived, the one served least recently (one never
 * served first) gets the turn, and their oldest such model is claimed. The walk reads the
 * uploaders with something pending in turn order (migration 042), passing over the few with a
 * model being derived; each step is one index range, however long anyone's queue.
 */
export async function claimNext(db: Db, now: Date): Promise<Job | undefined> {
  const live = new Date(now.getTime() - DELIVERY_LEASE_MS);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [CLAIM_LOCK]);
    const { rows } = await tx.query<{
      model_key: string;
      original_size: string | number;
      attempts: number;
      uploader: string;
    }>(
      `WITH next AS (
         SELECT q.model_key, u.uploader FROM delivery_uploaders u
         CROSS JOIN LATERAL (
           SELECT q.model_key FROM model_deliveries q
           WHERE q.status = 'pending' AND coalesce(q.requested_by, '') = u.uploader
             AND (q.claimed_at IS NULL OR q.claimed_at < $2)
           ORDER BY q.queued_at, q.model_key
           LIMIT 1
           FOR UPDATE SKIP LOCKED) q
         WHERE u.pending > 0
           AND NOT EXISTS (SELECT 1 FROM model_deliveries r
                           WHERE r.status = 'pending' AND coalesce(r.requested_by, '') = u.uploader
                             AND r.claimed_at >= $2)
         ORDER BY u.served_at NULLS FIRST, u.uploader
         LIMIT 1)
       UPDATE model_deliveries d SET claimed_at = $1, attempts = d.attempts + 1, updated_at = $1
       FROM next WHERE d.model_key = next.model_key
       RETURNING d.model_key, d.original_size, d.attempts, next.uploader`,
      [now, live],
    );
    const row = rows[0];
    if (!row) return undefined;
    await tx.query('UPDATE delivery_uploaders SET served_at = $2 WHERE uploader = $1', [
      row.uploader,
      now,
    ]);
    return {
      modelKey: row.model_key,
      originalSize: Number(row.original_size),
      claimedAt: now,
      attempts: row.attempts,
    };
  });
}

/** Ends the claim made at `claimedAt`; false when it was taken over meanwhile. */
export async function finish(
  db: Db,
  modelKey: string,
  claimedAt: Date,
  now: Date,
  result:
    | { status: 'ready'; url: string; size: number }
    | { status: 'original' | 'failed'; reason: string },
): Promise<boolean> {
  const ready = result.status === 'ready';
  const { rows } = await db.query(
    `UPDATE model_deliveries
     SET status = $3, delivery_url = $4, delivery_size = $5, reason = $6, claimed_at = NULL,
         updated_at = $7
     WHERE model_key = $1 AND status = 'pending' AND claimed_at = $2
     RETURNING model_key`,
    [
      modelKey,
      claimedAt,
      result.status,
      ready ? result.url : null,
      ready ? result.size : null,
      ready ? null : result.reason,
      now,
    ],
  );
  return rows.length > 0;
}

/**
 * Gives back the claim made at `claimedAt` after the database or storage failed: the model
 * waits again, last in the queue, rather than holding up its uploader's turn for a lease.
 */
export async function release(db: Db, modelKey: string, claimedAt: Date, now: Date): Promise<void> {
  await db.query(
    `UPDATE model_deliveries SET claimed_at = NULL, queued_at = $3, updated_at = $3
     WHERE model_key = $1 AND status = 'pending' AND claimed_at = $2`,
    [modelKey, claimedAt, now],
  );
}

/**
 * Gives back a claim this server is stopping without finishing: the model waits again in its
 * place for another server, and the cut-off claim does not count against its attempts. The
 * derivation, should it still end here, then records nothing (its claim is gone).
 */
export async function handBack(db: Db, job: Job, now: Date): Promise<void> {
  await db.query(
    `UPDATE model_deliveries SET claimed_at = NULL, attempts = greatest(attempts - 1, 0),
       updated_at = $3
     WHERE model_key = $1 AND status = 'pending' AND claimed_at = $2`,
    [job.modelKey, job.claimedAt, now],
  );
}

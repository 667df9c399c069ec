/**
 * Delivery versions of stored models (server/delivery.ts makes them; migration 019 records
 * them): derived when a model is uploaded or a morph has made one (server/morph-worker.ts),
 * and for models stored before by `backfillDeliveries`
 * (`npm run delivery:backfill`, and once at each server start). A model is claimed before it is
 * worked on (a `pending` row), so two servers or two runs never derive the same model at once
 * and a run stopped half-way resumes where it stopped; a claim older than DELIVERY_LEASE_MS was
 * abandoned by a crashed process and is taken again.
 *
 * A failure never touches the original: the model is delivered as uploaded and the row says why.
 */
import type { ModelDelivery } from '../contract/schemas';
import type { Db } from './db';
import type { Deps } from './deps';
import { DELIVERY_LIMITS, DeliveryError, deriveInThread, type Derived } from './delivery';
import type { ThreadLimits } from './threads';
import { contentTypeOfKey, fileUrl, keyOfFileUrl } from './storage';

/** A claim not finished for this long was abandoned (far above the derivation's time limit). */
export const DELIVERY_LEASE_MS = 10 * 60 * 1000;

type DeliveryDeps = Pick<Deps, 'db' | 'storage' | 'now'>;

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
 * Claims `modelKey` at `now`: true when this caller may derive it (no row yet, or an abandoned
 * claim; with `retry` also a finished row that is not `ready`).
 */
async function claim(
  db: Db,
  modelKey: string,
  originalSize: number,
  now: Date,
  retry: boolean,
): Promise<boolean> {
  const abandoned = new Date(now.getTime() - DELIVERY_LEASE_MS);
  const { rows } = await db.query(
    `INSERT INTO model_deliveries (model_key, status, original_size, claimed_at, updated_at)
     VALUES ($1, 'pending', $2, $3, $3)
     ON CONFLICT (model_key) DO UPDATE
       SET status = 'pending', original_size = EXCLUDED.original_size, delivery_url = NULL,
           delivery_size = NULL, reason = NULL, claimed_at = EXCLUDED.claimed_at,
           updated_at = EXCLUDED.updated_at
       WHERE (model_deliveries.status = 'pending' AND model_deliveries.claimed_at < $4)
          OR ($5 AND model_deliveries.status IN ('original', 'failed'))
     RETURNING model_key`,
    [modelKey, originalSize, now, abandoned, retry],
  );
  return rows.length > 0;
}

/** Ends the claim made at `claimedAt`; false when it was taken over meanwhile. */
async function finish(
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

export interface DeliverOptions {
  limits?: ThreadLimits;
  /** Derive again a model whose last derivation failed or could not improve on it. */
  retry?: boolean;
  /** The derivation, given how to read the model once it may (tests replace it). */
  derive?: (model: () => Promise<Uint8Array>, limits: ThreadLimits) => Promise<Derived>;
}

/**
 * Derives and stores the delivery version of the stored model `modelKey` unless it has one or
 * another process is deriving it (`claimed` false); answers its delivery as then recorded
 * (undefined when the model is not a stored GLB). Derivation problems end as `failed` with the
 * reason; only the database or the storage failing rejects.
 */
export async function deliverModel(
  deps: DeliveryDeps,
  modelKey: string,
  { limits = DELIVERY_LIMITS, retry = false, derive = deriveInThread }: DeliverOptions = {},
): Promise<{ claimed: boolean; delivery: ModelDelivery | undefined }> {
  const original =
    contentTypeOfKey(modelKey) === 'model/gltf-binary'
      ? await deps.storage.stat(modelKey)
      : undefined;
  if (!original) return { claimed: false, delivery: undefined };
  const claimedAt = deps.now();
  const claimed = await claim(deps.db, modelKey, original.size, claimedAt, retry);
  if (claimed) {
    const result = await derived(deps, modelKey, original.size, limits, derive);
    const finished = await finish(deps.db, modelKey, claimedAt, deps.now(), result);
    // Taken over meanwhile (this run passed the lease): the other run's file is the one kept.
    if (!finished && result.status === 'ready') {
      await deps.storage.delete(keyOfFileUrl(result.url)!);
    }
  }
  return { claimed, delivery: await findDelivery(deps.db, modelKey) };
}

/** The derivation running now, or the last one (settled); the next waits for it. */
let lastDerivation: Promise<unknown> = Promise.resolve();

/**
 * Runs `job` after every derivation started before it. A derivation's thread holds about
 * 100 MB while it works (its libraries, the model and its copies): one at a time keeps an
 * instance under 50 concurrent uploads within its memory (bench/server-s3.ts).
 */
function afterOtherDerivations<T>(job: () => Promise<T>): Promise<T> {
  const run = lastDerivation.then(job);
  lastDerivation = run.catch(() => undefined);
  return run;
}

/**
 * The derivation of a stored model of `size` bytes, its delivery version stored: one at a
 * time, the model read only once its turn has come, so uploads waiting hold nothing.
 */
async function derived(
  deps: DeliveryDeps,
  modelKey: string,
  size: number,
  limits: ThreadLimits,
  derive: NonNullable<DeliverOptions['derive']>,
) {
  const read = async () => {
    const bytes = await deps.storage.read(modelKey);
    if (!bytes) throw new DeliveryError('The uploaded model is gone');
    return bytes;
  };
  let outcome: Derived;
  try {
    outcome = await afterOtherDerivations(() => derive(read, limits));
  } catch (error) {
    if (!(error instanceof DeliveryError)) throw error;
    return { status: 'failed' as const, reason: error.message };
  }
  if (outcome.kind === 'original') return { status: 'original' as const, reason: outcome.reason };
  const stored = await deps.storage.put(
    new Blob([outcome.bytes as Uint8Array<ArrayBuffer>]).stream(),
    { maxBytes: size },
  );
  return { status: 'ready' as const, url: fileUrl(stored.key), size: stored.size };
}

export interface BackfillResult {
  /** Models whose delivery this run recorded (ready, original or failed). */
  derived: number;
  /** Models left alone: another process held their claim. */
  skipped: number;
}

/**
 * Derives the delivery version of every stored model of an asset, a cage mesh or a morphed
 * asset that has none yet (with `retry`,
 * also of those whose last derivation failed or could not improve on it), one model at a time.
 * Safe to run again and beside another run; stops between models once `signal` is aborted.
 */
export async function backfillDeliveries(
  deps: DeliveryDeps,
  {
    signal,
    onModel,
    ...options
  }: DeliverOptions & {
    signal?: AbortSignal;
    onModel?: (modelKey: string, delivery: ModelDelivery | undefined) => void;
  } = {},
): Promise<BackfillResult> {
  const { rows } = await deps.db.query<{ model_url: string }>(
    `SELECT DISTINCT m.model_url
     FROM (SELECT model_url FROM assets UNION SELECT model_url FROM cage_meshes
           UNION SELECT model_url FROM morphed_assets) m
     WHERE m.model_url LIKE '/files/%.glb'
       AND NOT EXISTS (SELECT 1 FROM model_deliveries d
                       WHERE d.model_key = substr(m.model_url, 8)
                         AND (d.status = 'ready'
                              OR (d.status IN ('original', 'failed') AND NOT $1)))
     ORDER BY m.model_url`,
    [options.retry ?? false],
  );
  const result: BackfillResult = { derived: 0, skipped: 0 };
  for (const { model_url } of rows) {
    if (signal?.aborted) break;
    const key = keyOfFileUrl(model_url);
    if (!key) continue;
    const { claimed, delivery } = await deliverModel(deps, key, options);
    if (claimed) result.derived += 1;
    else result.skipped += 1;
    onModel?.(key, delivery);
  }
  return result;
}

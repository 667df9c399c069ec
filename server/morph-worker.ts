/**
 * The morph queue worker (docs/api.md "Morph queue"). It claims an entry in a short
 * transaction, taking turns between the users who queued (server/morph-claims.ts), so any
 * number of server processes share one PostgreSQL queue without two of them taking the same
 * entry and without one user's entries holding back everyone else's; does the model work
 * (server/morph.ts) outside any lock, reporting progress; and ends the entry completed (with
 * its morphed asset) or failed (with the reason). A claim that lease recovery handed to someone
 * else meanwhile writes nothing, so an entry ends exactly once.
 */
import { FILE_LIMITS } from '../core/files/rules';
import { ConfigError } from './config';
import { newId } from './ids';
import { deliverModel } from './deliveries';
import { MorphError, morphModelInThread } from './morph';
import {
  claimNext,
  handBack,
  LeaseLost,
  recordEntryUpdates,
  recoverAbandoned,
  reportProgress,
  RETURNING_ENTRY,
  updateEntries,
  type Claim,
  type EntryRow,
  type WorkerDeps,
} from './morph-claims';
import { fileUrl, keyOfFileUrl, StorageLimitError, type Storage } from './storage';
import { log } from './log';
import { startPollLoops } from './poll-loops';
import { morphJobDuration, secondsSince } from './metrics';
import { traced } from './tracing';

const morphLog = log.child({ job: 'morph' });

export interface MorphWorkerOptions {
  /** How long an idle loop waits before looking at an empty queue again. */
  pollMs?: number;
  /** Entries processed at once by this process; 0 starts no loop (call runOnce yourself). */
  concurrency?: number;
  /** An entry in processing without an update for this long was abandoned by its worker. */
  leaseMs?: number;
  /** Claims an entry gets; an abandoned entry that had this many fails instead of re-queueing. */
  maxAttempts?: number;
  /** How often abandoned entries are looked for (also once at the start). */
  recoverEveryMs?: number;
  /** How long `stop` waits for the entries in progress before handing them back. */
  stopGraceMs?: number;
  /** Where unexpected errors (database down, full disk) are reported. */
  onError?: (error: unknown) => void;
  /**
   * Derives the delivery version of a morphed model once its entry is complete (default:
   * `deliverModel`, as for an upload). A derivation that fails is recorded on the model (it is
   * then delivered as built), never on the morph.
   */
  deliver?: (modelKey: string) => Promise<unknown>;
}

export interface MorphWorker {
  /** Claims and processes the next entry (users take turns); false when none was queued. */
  runOnce(): Promise<boolean>;
  /**
   * Stops polling and waits up to the grace period for the entries in progress to end; those
   * still running then are handed back (queued again, for any worker to claim).
   */
  stop(): Promise<void>;
}

export const MORPH_LEASE_MS = 5 * 60 * 1000;
/** Abandoned entries are looked for this often, so a crashed process's work resumes soon. */
const MORPH_RECOVER_EVERY_MS = 60 * 1000;
/** How long a stopping worker lets its running entries finish. */
const MORPH_STOP_GRACE_MS = 10 * 1000;
const MORPH_MAX_ATTEMPTS = 3;
/** Progress reported after the inputs are read, the model is built, and the file is stored. */
const MORPH_PROGRESS = { read: 10, built: 50, stored: 90 } as const;

/** `MORPH_WORKER`: unset or `on` runs the worker in this process, `off` does not. */
export function morphWorkerEnabled(env: Record<string, string | undefined>): boolean {
  const value = env.MORPH_WORKER?.trim() ?? '';
  if (value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new ConfigError([`MORPH_WORKER must be "on" or "off" (got "${value}")`]);
}

interface AssetModel {
  id: string;
  name: string;
  modelUrl: string | null;
}

/** The stored model of the source or body asset, or a MorphError saying why there is none. */
async function readAssetModel(
  storage: Storage,
  role: 'source' | 'body',
  asset: AssetModel | undefined,
): Promise<Uint8Array> {
  if (!asset) throw new MorphError(`The ${role} asset no longer exists`);
  if (!asset.modelUrl) throw new MorphError(`The ${role} asset "${asset.name}" has no model`);
  const key = keyOfFileUrl(asset.modelUrl);
  if (!key) {
    throw new MorphError(
      `The ${role} asset's model ${asset.modelUrl} is not a file stored on this server`,
    );
  }
  const bytes = await storage.read(key);
  if (!bytes) throw new MorphError(`The ${role} asset's model ${asset.modelUrl} is missing`);
  return bytes;
}

/** Stores the morphed model as a GLB (same limit as an uploaded model). */
async function storeModel(storage: Storage, glb: Uint8Array<ArrayBuffer>) {
  try {
    return await storage.put(new Blob([glb]).stream(), {
      maxBytes: FILE_LIMITS.glb,
      accept: (type) => {
        if (type !== 'model/gltf-binary') throw new MorphError('The morph did not produce a GLB');
      },
    });
  } catch (error) {
    if (error instanceof StorageLimitError) {
      throw new MorphError(`The morphed model is larger than ${error.maxBytes} bytes`);
    }
    throw error;
  }
}

/**
 * Records the result: the (source, body) pair's morphed asset gets the new model (created on
 * the first run, replaced on later ones) and the entry completes. Answers the model address
 * this replaced, or throws LeaseLost.
 */
async function complete(
  deps: WorkerDeps,
  claim: Claim,
  names: { source: string; body: string },
  modelUrl: string,
): Promise<string | null> {
  return deps.db.transaction(async (tx) => {
    const { rows: owned } = await tx.query(
      `SELECT id FROM morph_queue WHERE id = $1 AND attempts = $2 AND status = 'processing'
       FOR UPDATE`,
      [claim.id, claim.attempts],
    );
    if (owned.length === 0) throw new LeaseLost();
    const { rows: previous } = await tx.query<{ model_url: string | null }>(
      `SELECT model_url FROM morphed_assets WHERE source_asset_id = $1 AND body_asset_id = $2
       FOR UPDATE`,
      [claim.sourceAssetId, claim.bodyAssetId],
    );
    const now = deps.now();
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO morphed_assets (id, source_asset_id, body_asset_id, name, model_url, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (source_asset_id, body_asset_id)
       DO UPDATE SET name = EXCLUDED.name, model_url = EXCLUDED.model_url
       RETURNING id`,
      [
        newId(),
        claim.sourceAssetId,
        claim.bodyAssetId,
        `${names.source} on ${names.body}`,
        modelUrl,
        now,
      ],
    );
    const { rows: completed } = await tx.query<EntryRow>(
      `UPDATE morph_queue SET status = 'completed', progress = 100, error = NULL,
         morphed_asset_id = $2, updated_at = $3 WHERE id = $1 ${RETURNING_ENTRY}`,
      [claim.id, rows[0]!.id, now],
    );
    await recordEntryUpdates(tx, completed, now);
    return previous[0]?.model_url ?? null;
  });
}

async function failEntry(deps: WorkerDeps, claim: Claim, message: string) {
  await updateEntries(
    deps,
    `UPDATE morph_queue SET status = 'failed', error = $3, updated_at = $4
     WHERE id = $1 AND attempts = $2 AND status = 'processing'`,
    [claim.id, claim.attempts, message, deps.now()],
  );
}

/** Builds, stores and records the morphed model of a claimed entry; never throws for bad input. */
async function processClaim(
  deps: WorkerDeps,
  claim: Claim,
  { onError, deliver }: Required<Pick<MorphWorkerOptions, 'onError' | 'deliver'>>,
) {
  const { db, storage } = deps;
  let storedKey: string | undefined;
  try {
    const { rows } = await db.query<AssetModel>(
      'SELECT id, name, model_url AS "modelUrl" FROM assets WHERE id = ANY($1::text[])',
      [[claim.sourceAssetId, claim.bodyAssetId]],
    );
    const source = rows.find((row) => row.id === claim.sourceAssetId);
    const body = rows.find((row) => row.id === claim.bodyAssetId);
    const sourceBytes = await readAssetModel(storage, 'source', source);
    const bodyBytes = await readAssetModel(storage, 'body', body);
    await reportProgress(deps, claim, MORPH_PROGRESS.read);
    const glb = await morphModelInThread(sourceBytes, bodyBytes, {
      morphedFrom: claim.sourceAssetId,
      body: claim.bodyAssetId,
    });
    await reportProgress(deps, claim, MORPH_PROGRESS.built);
    storedKey = (await storeModel(storage, glb)).key;
    await reportProgress(deps, claim, MORPH_PROGRESS.stored);
    const names = { source: source!.name, body: body!.name };
    const replaced = await complete(deps, claim, names, fileUrl(storedKey));
    const modelKey = storedKey;
    storedKey = undefined;
    // The pair's earlier model is no longer referenced by its morphed asset.
    const oldKey = replaced === null ? undefined : keyOfFileUrl(replaced);
    if (oldKey) await storage.delete(oldKey);
    // The morph is done and shown; the studio's viewers then load its delivery version.
    await deliver(modelKey).catch(onError);
  } catch (error) {
    if (storedKey) await storage.delete(storedKey).catch(onError);
    if (error instanceof LeaseLost) return;
    if (error instanceof MorphError) return failEntry(deps, claim, error.message);
    onError(error);
    await failEntry(deps, claim, 'The morph failed unexpectedly; the server log has the details');
  }
}

/**
 * Starts the worker: first re-queues entries abandoned by a stopped worker (in processing for
 * longer than the lease), then runs `concurrency` loops that each claim and process entries,
 * waiting `pollMs` whenever the queue is empty. Abandoned entries are looked for again every
 * `recoverEveryMs`.
 */
export function startMorphWorker(deps: WorkerDeps, options: MorphWorkerOptions = {}): MorphWorker {
  const {
    pollMs = 1000,
    concurrency = 1,
    leaseMs = MORPH_LEASE_MS,
    maxAttempts = MORPH_MAX_ATTEMPTS,
    recoverEveryMs = MORPH_RECOVER_EVERY_MS,
    stopGraceMs = MORPH_STOP_GRACE_MS,
    onError = (error: unknown) => morphLog.error({ err: error }, 'Morph worker failed'),
    deliver = (modelKey: string) => deliverModel(deps, modelKey),
  } = options;
  // A failed recovery is reported; the worker still serves the queued entries.
  const recover = () => recoverAbandoned(deps, leaseMs, maxAttempts).catch(onError);
  const recovered = recover();
  // Entries of a process that died while running are found while this one runs, not only
  // when some server starts.
  let recovering = recovered;
  const recoveryTimer = setInterval(() => {
    recovering = recovering.then(recover);
  }, recoverEveryMs);
  recoveryTimer.unref();
  /** The claims being processed (by the loops or by runOnce calls) and their work. */
  const running = new Map<Claim, Promise<void>>();

  const runOnce = async (): Promise<boolean> => {
    await recovered;
    const claim = await claimNext(deps);
    if (!claim) return false;
    const started = performance.now();
    const work = traced('morph job', { 'morph.entry_id': claim.id }, () =>
      processClaim(deps, claim, { onError, deliver }),
    );
    running.set(claim, work);
    try {
      await work;
    } finally {
      running.delete(claim);
      const seconds = secondsSince(started);
      morphJobDuration.observe(seconds);
      morphLog.info(
        { entryId: claim.id, durationMs: Math.round(seconds * 1000) },
        'Morph job ended',
      );
    }
    return true;
  };

  // Database trouble taking an entry is reported, and the loop tries again after a pause.
  const loops = startPollLoops({ concurrency, pollMs, runOnce, onError });

  return {
    runOnce,
    async stop() {
      clearInterval(recoveryTimer);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const graceOver = new Promise<'grace over'>((resolve) => {
        timer = setTimeout(() => resolve('grace over'), stopGraceMs);
      });
      const ended = await Promise.race([
        Promise.all([loops.stop(), recovering, ...running.values()]),
        graceOver,
      ]);
      clearTimeout(timer);
      if (ended !== 'grace over') return;
      // Still running: give the entries back so another worker (or this server's next start)
      // takes them now rather than after the lease.
      const claims = [...running.keys()];
      const back = await Promise.all(
        claims.map(async (claim) => {
          claim.handedBack = true;
          return handBack(deps, claim).catch((error: unknown) => {
            onError(error);
            return false;
          });
        }),
      );
      const entryIds = claims.filter((_, i) => back[i]).map((claim) => claim.id);
      if (entryIds.length > 0) {
        morphLog.info(
          { entryIds },
          `Handed back ${entryIds.length} morph entries for another worker`,
        );
      }
    },
  };
}

/**
 * Delivery versions of stored models (server/delivery.ts makes them; migrations 019 and 025
 * record them): derived when a model is uploaded or a morph has made one (server/morph-worker.ts),
 * and for models stored before by `backfillDeliveries`
 * (`npm run delivery:backfill`, and once at each server start).
 *
 * A model over the derivation's caps (DELIVERY_CAPS, read from its JSON and image headers) is
 * recorded at once as delivered as uploaded. Any other joins a queue held in the database (its
 * `pending` row), which every server takes from, serving uploaders in turn: a server claims the
 * oldest waiting model of the uploader served least recently among those with nothing being
 * derived, so one uploader's slow models, however many, hold up only that uploader, and runs at
 * most DELIVERY_CONCURRENCY at once, each in a thread stopped at its time
 * limit. A claim older than DELIVERY_LEASE_MS was abandoned by a crashed process and is taken
 * again, up to DELIVERY_MAX_ATTEMPTS claims; two servers or two runs never derive a model at once.
 *
 * A failure never touches the original: the model is delivered as uploaded and the row says why.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ModelDelivery } from '../contract/schemas';
import { checkGlbHeader } from '../core/files/glb';
import type { Db } from './db';
import type { Deps } from './deps';
import {
  DELIVERY_LIMITS,
  DeliveryError,
  deriveInThread,
  overDeliveryCaps,
  type Derived,
} from './delivery';
import type { ThreadLimits } from './threads';
import { contentTypeOfKey, fileUrl, keyOfFileUrl } from './storage';
import { log } from './log';
import { deliveryDerivations, secondsSince } from './metrics';
import { traced } from './tracing';
import {
  claimNext,
  enqueue,
  findDelivery,
  finish,
  handBack,
  release,
  type Job,
} from './delivery-records';

const deliveryLog = log.child({ job: 'delivery' });

/**
 * Derivations one server runs at once: one uploader's model beside another's. A derivation's
 * thread holds about 100 MB while it works (its libraries, the model and its copies), and a
 * model waiting its turn is not read, so uploads waiting hold nothing.
 */
export const DELIVERY_CONCURRENCY = 2;
/** Claims a model gets: one abandoned after this many is given up, not taken at every start. */
export const DELIVERY_MAX_ATTEMPTS = 3;
/**
 * How long an upload waits for its delivery version before it answers without it (the model
 * stays queued): its uploader's earlier models go first, each at most its time limit.
 */
export const DELIVERY_UPLOAD_WAIT_MS = 60_000;
/** How often a caller waiting for a model looks at its row (another server may derive it). */
const DELIVERY_POLL_MS = 1000;

type DeliveryDeps = Pick<Deps, 'db' | 'storage' | 'now'>;

/** The derivation, given how to read the model once it may (tests replace it). */
type Derive = (
  model: () => Promise<Uint8Array>,
  limits: ThreadLimits,
  modelKey: string,
) => Promise<Derived>;

/** A model asked of this server: how to derive it, and who waits for it here. */
interface Asked {
  derive: Derive;
  limits: ThreadLimits;
  /** Called when this server has derived it (with the error that stopped it, if any). */
  waiters: Set<(error?: Error) => void>;
}

/** One server's side of the queue: the derivations it runs. */
export interface DeliveryQueue {
  /** How a model this server claims but was not asked for is derived. */
  readonly derive: Derive;
  readonly limits: ThreadLimits;
  running: number;
  claiming: boolean;
  /** Asked to claim again while claiming. */
  again: boolean;
  /** When a waiter last asked for a claim (real time, ms). */
  lastLook: number;
  readonly asked: Map<string, Asked>;
  /** The claims this server is deriving. */
  readonly jobs: Set<Job>;
  /** Set once the server stops: nothing more is claimed (stopDeliveries). */
  stopped: boolean;
  deps?: DeliveryDeps;
}

/**
 * A server's side of the queue (each database gets one per process; tests make a second to
 * stand for another server).
 */
export function createDeliveryQueue({
  derive = deriveInThread,
  limits = DELIVERY_LIMITS,
}: { derive?: Derive; limits?: ThreadLimits } = {}): DeliveryQueue {
  return {
    derive,
    limits,
    running: 0,
    claiming: false,
    again: false,
    lastLook: 0,
    asked: new Map(),
    jobs: new Set(),
    stopped: false,
  };
}

const queues = new WeakMap<Db, DeliveryQueue>();

function queueOf(db: Db): DeliveryQueue {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = createDeliveryQueue()));
  return queue;
}

/** Claims and starts models while this server has a free derivation. */
function pump(deps: DeliveryDeps, queue: DeliveryQueue): void {
  queue.deps = deps;
  if (queue.stopped) return;
  if (queue.claiming) {
    queue.again = true;
    return;
  }
  queue.claiming = true;
  void (async () => {
    try {
      do {
        queue.again = false;
        while (queue.running < DELIVERY_CONCURRENCY && !queue.stopped) {
          const job = await claimNext(deps.db, deps.now());
          if (!job) break;
          if (queue.stopped) {
            // Stopped while claiming: the claim goes back as stopDeliveries hands back the rest.
            await handBack(deps.db, job, deps.now());
            break;
          }
          queue.running += 1;
          queue.jobs.add(job);
          void runJob(queue.deps ?? deps, queue, job).then((ended) => {
            queue.running -= 1;
            queue.jobs.delete(job);
            // After a failure of the database or storage, the next ask claims again.
            if (ended) pump(queue.deps ?? deps, queue);
          });
        }
      } while (queue.again);
    } catch (error) {
      // The waiters see the database fail themselves; the next ask claims again.
      deliveryLog.error({ err: error }, 'Claiming a model to derive failed');
    } finally {
      queue.claiming = false;
    }
  })();
}

/**
 * Stops this server's side of the queue for good (the server is stopping): nothing more is
 * claimed, whoever waits here for a model stops waiting (an upload answers with its delivery
 * still pending), and the models being derived are handed back at once for another server.
 */
export async function stopDeliveries(
  deps: Pick<Deps, 'db' | 'now'>,
  queue: DeliveryQueue = queueOf(deps.db),
): Promise<void> {
  queue.stopped = true;
  for (const { waiters } of queue.asked.values()) for (const waiter of waiters) waiter();
  const jobs = [...queue.jobs];
  await Promise.all(jobs.map((job) => handBack(deps.db, job, deps.now())));
  if (jobs.length > 0) {
    deliveryLog.info(
      { models: jobs.map((job) => job.modelKey) },
      `Handed back ${jobs.length} delivery derivations for another server`,
    );
  }
}

/**
 * Stops this server's side of the queue (stopDeliveries) and waits until the derivations it was
 * running have ended: a test's storage and database go right after, and a derivation still
 * writing its file would outlive them.
 * @internal
 */
export async function settleDeliveries(deps: Pick<Deps, 'db' | 'now'>): Promise<void> {
  const queue = queueOf(deps.db);
  await stopDeliveries(deps, queue);
  // A derivation ends within its time limit (DELIVERY_LIMITS), whatever its model.
  const deadline = Date.now() + 60_000;
  while ((queue.running > 0 || queue.claiming) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Derives a claimed model and records the result; false when the database or storage failed
 * (the waiters here get the error). Never rejects.
 */
async function runJob(deps: DeliveryDeps, queue: DeliveryQueue, job: Job): Promise<boolean> {
  const asked = queue.asked.get(job.modelKey);
  let failure: Error | undefined;
  const started = performance.now();
  let outcome = 'error';
  try {
    const result =
      job.attempts > DELIVERY_MAX_ATTEMPTS
        ? {
            status: 'failed' as const,
            reason: `Gave up after ${DELIVERY_MAX_ATTEMPTS} attempts: each was cut off before it ended`,
          }
        : await traced(
            'delivery derivation',
            { 'delivery.attempt': job.attempts },
            async (note) => {
              const derivation = await derived(
                deps,
                job.modelKey,
                job.originalSize,
                asked?.limits ?? queue.limits,
                asked?.derive ?? queue.derive,
              );
              note({ 'delivery.outcome': derivation.status });
              return derivation;
            },
          );
    outcome = result.status;
    const finished = await finish(deps.db, job.modelKey, job.claimedAt, deps.now(), result);
    // Taken over meanwhile (this run passed the lease): the other run's file is the one kept.
    if (!finished && result.status === 'ready') {
      await deps.storage.delete(keyOfFileUrl(result.url)!);
    }
  } catch (error) {
    failure = error instanceof Error ? error : new Error('The derivation failed', { cause: error });
    if (!asked?.waiters.size)
      deliveryLog.error({ err: error, modelKey: job.modelKey }, `Deriving ${job.modelKey} failed`);
    // Should this fail too, the claim is taken again once its lease has passed.
    await release(deps.db, job.modelKey, job.claimedAt, deps.now()).catch(() => undefined);
  }
  const seconds = secondsSince(started);
  deliveryDerivations.observe({ outcome }, seconds);
  deliveryLog.info(
    { modelKey: job.modelKey, outcome, durationMs: Math.round(seconds * 1000) },
    'Delivery derivation ended',
  );
  for (const waiter of asked?.waiters ?? []) waiter(failure);
  return failure === undefined;
}

/**
 * Waits until `modelKey` is no longer queued or being derived, or `waitMs` has passed: this
 * server says when it has derived it; another server's result is seen in the row.
 */
async function untilDerived(
  deps: DeliveryDeps,
  queue: DeliveryQueue,
  modelKey: string,
  asked: { derive: Derive; limits: ThreadLimits },
  waitMs: number,
): Promise<void> {
  const entry = queue.asked.get(modelKey) ?? { ...asked, waiters: new Set() };
  queue.asked.set(modelKey, entry);
  let done!: (error?: Error) => void;
  const here = new Promise<'done'>((resolve, reject) => {
    done = (error) => (error === undefined ? resolve('done') : reject(error));
  });
  entry.waiters.add(done);
  const deadline = performance.now() + waitMs;
  try {
    pump(deps, queue);
    for (;;) {
      if (queue.stopped) return;
      const left = deadline - performance.now();
      if (left <= 0) return;
      const timer = new AbortController();
      const woke = await Promise.race([
        here,
        delay(Math.min(DELIVERY_POLL_MS, left), 'look' as const, { signal: timer.signal }),
      ]).finally(() => timer.abort());
      if (woke === 'done') return;
      const delivery = await findDelivery(deps.db, modelKey);
      if (delivery?.status !== 'pending') return;
      // Another server may have stopped: its claim is taken again once abandoned.
      if (performance.now() - queue.lastLook >= DELIVERY_POLL_MS) {
        queue.lastLook = performance.now();
        pump(deps, queue);
      }
    }
  } finally {
    entry.waiters.delete(done);
    if (entry.waiters.size === 0) queue.asked.delete(modelKey);
  }
}

export interface DeliverOptions {
  limits?: ThreadLimits;
  /** Derive again a model whose last derivation failed or could not improve on it. */
  retry?: boolean;
  /** The derivation, given how to read the model once it may (tests replace it). */
  derive?: Derive;
  /** The uploader the model is derived for (one of theirs at a time); null: the server's own. */
  requestedBy?: string | null;
  /** How long to wait for the derivation (it goes on in the queue after). */
  waitMs?: number;
  /** This server's side of the queue (tests stand for a second server with another). */
  queue?: DeliveryQueue;
}

/**
 * Queues the stored model `modelKey` for its delivery version unless it has one or another
 * process is deriving it (`claimed` false), and waits for it up to `waitMs`; answers its
 * delivery as then recorded (undefined when the model is not a stored GLB). A model over the
 * derivation's caps is recorded as delivered as uploaded without being queued. Derivation
 * problems end as `failed` with the reason; only the database or the storage failing rejects.
 */
export async function deliverModel(
  deps: DeliveryDeps,
  modelKey: string,
  {
    limits = DELIVERY_LIMITS,
    retry = false,
    derive = deriveInThread,
    requestedBy = null,
    waitMs = Infinity,
    queue = queueOf(deps.db),
  }: DeliverOptions = {},
): Promise<{ claimed: boolean; delivery: ModelDelivery | undefined }> {
  const file =
    contentTypeOfKey(modelKey) === 'model/gltf-binary'
      ? await deps.storage.blob(modelKey)
      : undefined;
  if (!file) return { claimed: false, delivery: undefined };
  // A damaged GLB is the derivation's to report; its caps read what a sound one declares.
  const refused = (await checkGlbHeader(file)) ? undefined : await overDeliveryCaps(file);
  const options = { retry, requestedBy, refused };
  const claimed = await enqueue(deps.db, modelKey, file.size, deps.now(), options);
  if (claimed && refused === undefined) {
    await untilDerived(deps, queue, modelKey, { derive, limits }, waitMs);
  }
  return { claimed, delivery: await findDelivery(deps.db, modelKey) };
}

/**
 * The derivation of a stored model of `size` bytes, its delivery version stored; the model is
 * read only once a thread is free, so models waiting hold nothing.
 */
async function derived(
  deps: DeliveryDeps,
  modelKey: string,
  size: number,
  limits: ThreadLimits,
  derive: Derive,
) {
  const read = async () => {
    const bytes = await deps.storage.read(modelKey);
    if (!bytes) throw new DeliveryError('The uploaded model is gone');
    return bytes;
  };
  let outcome: Derived;
  try {
    outcome = await derive(read, limits, modelKey);
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
  /** Models left alone: another process held their claim, or their file went meanwhile. */
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
    let outcome: Awaited<ReturnType<typeof deliverModel>>;
    try {
      outcome = await deliverModel(deps, key, options);
    } catch (error) {
      // Its file went while it was read (a morph done again replaces its model and removes the
      // one it replaced): there is nothing left to deliver. Any other failure stops the run.
      if (await deps.storage.stat(key)) throw error;
      result.skipped += 1;
      continue;
    }
    const { claimed, delivery } = outcome;
    if (claimed) result.derived += 1;
    else result.skipped += 1;
    onModel?.(key, delivery);
  }
  return result;
}

/**
 * Morph generation end to end: POST /v1/morphed-assets/generate queues entries, the worker
 * claims them (never twice, also with two workers on one database), builds a real GLB from the
 * avatar fixtures, reports progress, fails with a clear reason, and recovers abandoned work.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  listResponseSchema,
  morphGenerateResultSchema,
  morphStatusListSchema,
  morphedAssetSchema,
  type MorphQueueEntry,
} from '../contract/schemas';
import { MB } from '../core/files/rules';
import { ConfigError } from './config';
import { deliverModel } from './deliveries';
import { findDelivery } from './delivery-records';
import { newId } from './ids';
import { createGltfIo, modelBounds } from './morph';
import {
  MORPH_LEASE_MS,
  morphWorkerEnabled,
  startMorphWorker,
  type MorphWorker,
  type MorphWorkerOptions,
} from './morph-worker';
import { fileUrl, keyOfFileUrl, type Storage } from './storage';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';
import { glbOfSize, readAvatar } from './test-files';

const t = useTestApp();
const tokens = useRoleTokens(t);
const urls = { source: '', body: '', small: '' };
const assets = { source: '', body: '', otherBody: '', notBody: '' };

/** Stores bytes as the upload route would and answers their `/files/<key>` address. */
async function store(bytes: Uint8Array, storage: Storage = t.storage): Promise<string> {
  const file = await storage.put(new Blob([new Uint8Array(bytes)]).stream(), {
    maxBytes: 60 * MB,
  });
  return fileUrl(file.key);
}

let assetCount = 0;
/** A new asset row (position at the end) with the given type and model. */
async function createAsset(type: string, modelUrl: string | null): Promise<string> {
  const id = newId();
  assetCount += 1;
  await t.db.query(
    `INSERT INTO assets (id, name, type, gender, model_url, position, created_at, updated_at)
     SELECT $1, $2, $3, 'female', $4, COALESCE(max(position), 0) + 1, $5, $5 FROM assets`,
    [id, `Morph test ${type} ${assetCount}`, type, modelUrl, t.clock.current],
  );
  return id;
}

/** Queues entries through the API as the tokens.developer. */
async function generate(sourceAssetId: string, bodyAssetIds: string[]) {
  return morphGenerateResultSchema.parse(
    dataOf(
      await t.post(
        '/v1/morphed-assets/generate',
        { sourceAssetId, bodyAssetIds },
        tokens.developer,
      ),
    ),
  );
}

interface EntryRow {
  status: string;
  progress: number;
  error: string | null;
  attempts: number;
  morphed_asset_id: string | null;
}
async function entry(id: string): Promise<EntryRow> {
  const { rows } = await t.db.query<EntryRow>(
    'SELECT status, progress, error, attempts, morphed_asset_id FROM morph_queue WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

/** A worker on the test database and clock that only runs when told to. */
/**
 * The delivery version a finished morph gets is derived in the first test below; the others
 * leave it out (a derivation takes seconds).
 */
const withoutDelivery = { deliver: () => Promise.resolve() };
const manualWorker = (
  storage: Storage = t.storage,
  options: MorphWorkerOptions = withoutDelivery,
): MorphWorker =>
  startMorphWorker(
    { db: t.db, storage, now: () => new Date(t.clock.current) },
    { concurrency: 0, ...options },
  );

beforeAll(async () => {
  // The seeded demo entries point at models that are not stored; this file brings its own.
  await t.db.query('DELETE FROM morph_queue');
  urls.source = await store(readAvatar('halfBodyAPIv2.glb'));
  urls.body = await store(readAvatar('female-animation-catwalk.glb'));
  urls.small = await store(readAvatar('spawn-effect.glb'));
  assets.source = await createAsset('outfit', urls.source);
  assets.body = await createAsset('body', urls.body);
  assets.otherBody = await createAsset('body', urls.body);
  assets.notBody = await createAsset('hair', urls.small);
});

describe('POST /v1/morphed-assets/generate', () => {
  it('queues one entry per body and records morphQueueEntryCreated on the source', async () => {
    const entries = await generate(assets.source, [assets.body, assets.otherBody, assets.body]);
    expect(entries.map((e) => e.bodyAssetId)).toEqual([assets.body, assets.otherBody]);
    for (const e of entries) {
      expect(e).toMatchObject({
        sourceAssetId: assets.source,
        status: 'queued',
        progress: 0,
        error: null,
        morphedAssetId: null,
      });
    }
    const statuses = morphStatusListSchema.parse(
      dataOf(await t.get(`/v1/morphed-asset-queue/status?ids=${entries[0]!.id}`, tokens.developer)),
    );
    expect(statuses).toEqual([
      { id: entries[0]!.id, status: 'queued', progress: 0, error: null, morphedAssetId: null },
    ]);
    const { rows } = await t.db.query<{ data: { queueEntryId: string; bodyAssetId: string } }>(
      `SELECT data FROM asset_events WHERE asset_id = $1
         AND routing_key = 'asset.morph-queue-entry-created.v1' ORDER BY seq`,
      [assets.source],
    );
    expect(rows.map((row) => row.data)).toEqual(
      entries.map((e) => ({ queueEntryId: e.id, bodyAssetId: e.bodyAssetId })),
    );
    await t.db.query('DELETE FROM morph_queue');
  });

  it('is also on the private mount, for admins and developers only', async () => {
    const body = { sourceAssetId: assets.source, bodyAssetIds: [assets.body] };
    const [queued] = morphGenerateResultSchema.parse(
      dataOf(await t.post('/private/v1/morphed-assets/generate', body, tokens.admin)),
    );
    expect(queued?.status).toBe('queued');
    expectError(await t.post('/private/v1/morphed-assets/generate', body, tokens.user), 403);
    expectError(await t.post('/v1/morphed-assets/generate', body, tokens.user), 403, 'FORBIDDEN');
    expectError(await t.post('/v1/morphed-assets/generate', body, tokens.anonymous), 403);
    expectError(await t.post('/v1/morphed-assets/generate', body), 401, 'UNAUTHORIZED');
    await t.db.query('DELETE FROM morph_queue');
  });

  it('refuses unknown assets, non-body bodies and sources without a model', async () => {
    const post = (body: unknown) => t.post('/v1/morphed-assets/generate', body, tokens.developer);
    const bodies = [assets.body];
    const unknownSource = expectError(
      await post({ sourceAssetId: 'nope', bodyAssetIds: bodies }),
      400,
    );
    expect(unknownSource.message).toContain('sourceAssetId');
    const unknownBody = expectError(
      await post({ sourceAssetId: assets.source, bodyAssetIds: [assets.body, 'gone'] }),
      400,
    );
    expect(unknownBody.message).toContain('gone');
    const notBody = expectError(
      await post({ sourceAssetId: assets.source, bodyAssetIds: [assets.notBody] }),
      400,
    );
    expect(notBody.message).toContain('hair');
    expectError(await post({ sourceAssetId: assets.body, bodyAssetIds: [assets.body] }), 400);
    expectError(await post({ sourceAssetId: assets.source, bodyAssetIds: [] }), 400);
    expectError(await post({ sourceAssetId: assets.source }), 400, 'VALIDATION_ERROR');
    const bare = await createAsset('top', null);
    const noModel = expectError(await post({ sourceAssetId: bare, bodyAssetIds: bodies }), 409);
    expect(noModel.code).toBe('MODEL_MISSING');
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM morph_queue');
    expect(rows[0]!.n).toBe(0);
  });
});

describe('the morph worker', () => {
  it('builds a GLB fitted to the body, reporting progress, and completes the entry', async () => {
    const [queued] = await generate(assets.source, [assets.body]);
    const seen: { call: string; status: string; progress: number }[] = [];
    const observe = async (call: string) => {
      const { status, progress } = await entry(queued!.id);
      seen.push({ call, status, progress });
    };
    // Storage that notes where the entry stands whenever the worker touches a file.
    const observed: Storage = {
      ...t.storage,
      read: async (key) => {
        await observe('read');
        return t.storage.read(key);
      },
      put: async (body, options) => {
        await observe('put');
        return t.storage.put(body, options);
      },
    };
    // With the delivery version derived as the server does (deliverModel).
    const worker = manualWorker(observed, {
      deliver: (key) =>
        deliverModel({ db: t.db, storage: observed, now: () => new Date(t.clock.current) }, key),
    });
    expect(await worker.runOnce()).toBe(true);
    expect(await worker.runOnce()).toBe(false);
    await worker.stop();
    expect(seen).toEqual([
      { call: 'read', status: 'processing', progress: 0 },
      { call: 'read', status: 'processing', progress: 0 },
      { call: 'put', status: 'processing', progress: 50 },
      // The morph is complete before its delivery version is derived and stored.
      { call: 'read', status: 'completed', progress: 100 },
      { call: 'put', status: 'completed', progress: 100 },
    ]);

    const done = await entry(queued!.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, error: null, attempts: 1 });
    const statuses = morphStatusListSchema.parse(
      dataOf(await t.get(`/private/v1/morphed-assets/status?ids=${queued!.id}`, tokens.admin)),
    );
    expect(statuses[0]).toMatchObject({ status: 'completed', progress: 100 });
    expect(statuses[0]!.morphedAssetId).toBe(done.morphed_asset_id);

    const list = listResponseSchema(morphedAssetSchema).parse(
      (await t.get(`/private/v1/morphed-assets?sourceAssetId=${assets.source}`, tokens.admin)).body,
    );
    expect(list.data).toHaveLength(1);
    const morphed = list.data[0]!;
    expect(morphed).toMatchObject({ id: done.morphed_asset_id, bodyAssetId: assets.body });
    expect(morphed.name).toMatch(/^Morph test outfit \d+ on Morph test body \d+$/);

    // The stored result is a GLB glTF-Transform reads back, sitting exactly on the body.
    const glb = await t.storage.read(keyOfFileUrl(morphed.modelUrl!)!);
    const io = createGltfIo();
    const result = await io.readBinary(glb!);
    const body = await io.readBinary(readAvatar('female-animation-catwalk.glb'));
    const source = await io.readBinary(readAvatar('halfBodyAPIv2.glb'));
    const [got, want, before] = [modelBounds(result)!, modelBounds(body)!, modelBounds(source)!];
    for (const axis of [0, 1, 2]) {
      expect(got.min[axis]).toBeCloseTo(want.min[axis]!, 5);
      expect(got.max[axis]).toBeCloseTo(want.max[axis]!, 5);
    }
    expect(before.max[1]).not.toBeCloseTo(want.max[1], 2);
    expect(result.getRoot().getAsset().extras).toEqual({
      morphedFrom: assets.source,
      body: assets.body,
    });
    // The source's meshes, skin and animations survive the fit.
    for (const list of ['listMeshes', 'listSkins', 'listAnimations'] as const) {
      expect(result.getRoot()[list]().length, list).toBe(source.getRoot()[list]().length);
    }
    expect(source.getRoot().listAnimations().length).toBeGreaterThan(0);

    // The studio's viewers load its smaller delivery version (`?delivery`).
    const delivery = await findDelivery(t.db, keyOfFileUrl(morphed.modelUrl!)!);
    expect(delivery).toMatchObject({ status: 'ready', originalSize: glb!.byteLength });
    expect(delivery!.size).toBeLessThan(glb!.byteLength * 0.4);
    const served = await t.get(`${morphed.modelUrl!}?delivery`);
    expect(served.headers.get('content-length')).toBe(String(delivery!.size));
  });

  it('regenerating a pair replaces its morphed asset model in place', async () => {
    const { rows: before } = await t.db.query<{ id: string; model_url: string }>(
      'SELECT id, model_url FROM morphed_assets WHERE source_asset_id = $1 AND body_asset_id = $2',
      [assets.source, assets.body],
    );
    const [queued] = await generate(assets.source, [assets.body]);
    const worker = manualWorker();
    expect(await worker.runOnce()).toBe(true);
    await worker.stop();
    const done = await entry(queued!.id);
    expect(done.morphed_asset_id).toBe(before[0]!.id);
    const { rows: after } = await t.db.query<{ model_url: string }>(
      'SELECT model_url FROM morphed_assets WHERE id = $1',
      [before[0]!.id],
    );
    expect(after[0]!.model_url).not.toBe(before[0]!.model_url);
    expect(await t.storage.stat(keyOfFileUrl(before[0]!.model_url)!)).toBeUndefined();
  });

  it('fails entries whose models are missing or unusable, with the reason', async () => {
    const truncated = readAvatar('spawn-effect.glb').slice(0, 4000);
    const cases: [string, string | null, string][] = [
      ['demo model', '/demo/models/hair-001.glb', 'is not a file stored on this server'],
      ['lost file', fileUrl(`${'a'.repeat(24)}.glb`), 'is missing'],
      ['truncated', await store(truncated), 'The source model is not a readable GLB'],
      ['draco', await store(readAvatar('male-emissive.draco.glb')), 'KHR_draco_mesh_compression'],
      ['animation only', await store(readAvatar('maleIdle.glb')), 'has no meshes to fit'],
      ['not a glb', await store(glbOfSize(64)), 'The source model is not a readable GLB'],
    ];
    const ids: string[] = [];
    for (const [, modelUrl] of cases) {
      const [queued] = await generate(await createAsset('top', modelUrl), [assets.body]);
      ids.push(queued!.id);
    }
    const worker = manualWorker();
    while (await worker.runOnce());
    await worker.stop();
    for (const [i, [name, , reason]] of cases.entries()) {
      const failed = await entry(ids[i]!);
      expect(failed.status, name).toBe('failed');
      expect(failed.error, name).toContain(reason);
      expect(failed.morphed_asset_id, name).toBeNull();
    }
    // A body whose model lost its meshes fails too, naming the body.
    const hollow = await createAsset('body', await store(readAvatar('female-idle.glb')));
    const [queued] = await generate(assets.source, [hollow]);
    const again = manualWorker();
    expect(await again.runOnce()).toBe(true);
    await again.stop();
    expect((await entry(queued!.id)).error).toBe('The body model has no meshes to fit onto');
  });

  it('throws its result away when the entry was handed to another worker meanwhile', async () => {
    const [queued] = await generate(assets.source, [assets.otherBody]);
    let storedKey = '';
    const stealing: Storage = {
      ...t.storage,
      put: async (body, options) => {
        // Lease recovery and a second worker's claim, while this one is still building.
        await t.db.query('UPDATE morph_queue SET attempts = attempts + 1 WHERE id = $1', [
          queued!.id,
        ]);
        const file = await t.storage.put(body, options);
        storedKey = file.key;
        return file;
      },
    };
    const worker = manualWorker(stealing);
    expect(await worker.runOnce()).toBe(true);
    await worker.stop();
    expect(await entry(queued!.id)).toMatchObject({ status: 'processing', attempts: 2 });
    expect(await t.storage.stat(storedKey)).toBeUndefined();
    const { rows } = await t.db.query(
      'SELECT 1 FROM morphed_assets WHERE source_asset_id = $1 AND body_asset_id = $2',
      [assets.source, assets.otherBody],
    );
    expect(rows).toHaveLength(0);
    await t.db.query('DELETE FROM morph_queue WHERE id = $1', [queued!.id]);
  });

  it('on start, re-queues abandoned entries and gives up after three attempts', async () => {
    const now = t.clock.current.getTime();
    const insert = async (attempts: number, idleMs: number) => {
      const id = newId();
      const at = new Date(now - idleMs);
      await t.db.query(
        `INSERT INTO morph_queue (id, source_asset_id, body_asset_id, status, progress, attempts,
           created_at, updated_at) VALUES ($1, $2, $3, 'processing', 50, $4, $5, $5)`,
        [id, assets.source, assets.body, attempts, at],
      );
      return id;
    };
    const abandoned = await insert(1, MORPH_LEASE_MS + 1000);
    const exhausted = await insert(3, MORPH_LEASE_MS + 1000);
    const running = await insert(1, 60_000);
    const worker = manualWorker();
    expect(await worker.runOnce()).toBe(true);
    expect(await worker.runOnce()).toBe(false);
    await worker.stop();
    expect(await entry(abandoned)).toMatchObject({ status: 'completed', attempts: 2 });
    const gaveUp = await entry(exhausted);
    expect(gaveUp).toMatchObject({ status: 'failed', attempts: 3 });
    expect(gaveUp.error).toContain('Gave up after 3 attempts');
    expect(await entry(running)).toMatchObject({ status: 'processing', progress: 50 });
    await t.db.query('DELETE FROM morph_queue');
  });

  it('two workers on one database process every entry exactly once', async () => {
    const small = await createAsset('glasses', urls.small);
    const bodies = await Promise.all(
      Array.from({ length: 8 }, () => createAsset('body', urls.body)),
    );
    const entries: MorphQueueEntry[] = await generate(small, bodies);
    const { db } = t;
    const deps = { db, storage: t.storage, now: () => new Date(t.clock.current) };
    // Background loops: three claimants across two workers, as two server processes would run.
    const workers = [
      startMorphWorker(deps, { ...withoutDelivery, concurrency: 2, pollMs: 10 }),
      startMorphWorker(deps, { ...withoutDelivery, concurrency: 1, pollMs: 10 }),
    ];
    await expect
      .poll(
        async () =>
          (
            await db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM morph_queue WHERE status IN ('completed', 'failed')",
            )
          ).rows[0]!.n,
        { timeout: 25_000, interval: 50 },
      )
      .toBe(entries.length);
    await Promise.all(workers.map((worker) => worker.stop()));
    const { rows } = await db.query<{ status: string; attempts: number; morphed_asset_id: string }>(
      'SELECT status, attempts, morphed_asset_id FROM morph_queue WHERE id = ANY($1::text[])',
      [entries.map((e) => e.id)],
    );
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(
      entries.map(() => ['completed', 1]),
    );
    expect(new Set(rows.map((row) => row.morphed_asset_id)).size).toBe(entries.length);

    // The same with runOnce racing directly: every claim is a different entry.
    const more = await generate(small, [assets.body, assets.otherBody, ...bodies.slice(0, 4)]);
    const racers = [manualWorker(), manualWorker()];
    const drain = async (worker: MorphWorker) => {
      let claimed = 0;
      while (await worker.runOnce()) claimed += 1;
      return claimed;
    };
    const counts = await Promise.all(racers.map(drain));
    await Promise.all(racers.map((worker) => worker.stop()));
    expect(counts[0]! + counts[1]!).toBe(more.length);
    const { rows: raced } = await db.query<{ attempts: number }>(
      "SELECT attempts FROM morph_queue WHERE id = ANY($1::text[]) AND status = 'completed'",
      [more.map((e) => e.id)],
    );
    expect(raced.map((row) => row.attempts)).toEqual(more.map(() => 1));
  });
});

describe('the morph worker over time', () => {
  /** A promise with its resolve function. */
  function signal() {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  }

  /** Storage whose model reads wait until `release` (a slow or stuck job). */
  function stuckStorage() {
    const reading = signal();
    const release = signal();
    const storage: Storage = {
      ...t.storage,
      read: async (key) => {
        reading.resolve();
        await release.promise;
        return t.storage.read(key);
      },
    };
    return { storage, reading: reading.promise, release: release.resolve };
  }

  const deps = (storage: Storage = t.storage) => ({
    db: t.db,
    storage,
    now: () => new Date(t.clock.current),
  });

  it('re-queues abandoned entries while it runs, not only when it starts', async () => {
    await t.db.query('DELETE FROM morph_queue');
    const worker = startMorphWorker(deps(), {
      ...withoutDelivery,
      concurrency: 0,
      recoverEveryMs: 10,
    });
    expect(await worker.runOnce()).toBe(false); // the start's recovery is over
    // Another server died while processing this entry, after this worker started.
    const id = newId();
    const at = new Date(t.clock.current.getTime() - MORPH_LEASE_MS - 1000);
    await t.db.query(
      `INSERT INTO morph_queue (id, source_asset_id, body_asset_id, status, progress, attempts,
         created_at, updated_at) VALUES ($1, $2, $3, 'processing', 50, 1, $4, $4)`,
      [id, assets.source, assets.body, at],
    );
    await expect.poll(async () => (await entry(id)).status, { timeout: 5000 }).toBe('queued');
    expect(await entry(id)).toMatchObject({ progress: 0, attempts: 1, error: null });
    await worker.stop();
    await t.db.query('DELETE FROM morph_queue');
  });

  it('a stop lets a job that ends within the grace period finish', async () => {
    const [queued] = await generate(assets.source, [assets.body]);
    const slow = stuckStorage();
    const worker = startMorphWorker(deps(slow.storage), {
      ...withoutDelivery,
      concurrency: 0,
      stopGraceMs: 30_000,
    });
    const job = worker.runOnce();
    await slow.reading;
    const stopping = worker.stop();
    slow.release();
    await stopping;
    expect(await job).toBe(true);
    expect(await entry(queued!.id)).toMatchObject({ status: 'completed', attempts: 1 });
    await t.db.query('DELETE FROM morph_queue');
  });

  it('a stop does not wait past the grace period: the job is handed back for another worker', async () => {
    const [queued] = await generate(assets.source, [assets.otherBody]);
    const stuck = stuckStorage();
    const errors: unknown[] = [];
    const worker = startMorphWorker(deps(stuck.storage), {
      ...withoutDelivery,
      concurrency: 0,
      stopGraceMs: 50,
      onError: (error) => errors.push(error),
    });
    const job = worker.runOnce();
    await stuck.reading;
    // Returns although the job is still stuck.
    await worker.stop();
    expect(await entry(queued!.id)).toMatchObject({
      status: 'queued',
      progress: 0,
      attempts: 1,
      error: null,
    });

    const other = startMorphWorker(deps(), { ...withoutDelivery, concurrency: 0 });
    expect(await other.runOnce()).toBe(true);
    await other.stop();
    const done = await entry(queued!.id);
    expect(done).toMatchObject({ status: 'completed', attempts: 2 });
    const { rows: before } = await t.db.query<{ model_url: string }>(
      'SELECT model_url FROM morphed_assets WHERE id = $1',
      [done.morphed_asset_id],
    );

    // The stuck job wakes up, finds the entry is no longer its own and stops quietly.
    stuck.release();
    expect(await job).toBe(true);
    expect(errors).toEqual([]);
    expect(await entry(queued!.id)).toEqual(done);
    const { rows: after } = await t.db.query<{ model_url: string }>(
      'SELECT model_url FROM morphed_assets WHERE id = $1',
      [done.morphed_asset_id],
    );
    expect(after).toEqual(before);
    expect(await t.storage.stat(keyOfFileUrl(after[0]!.model_url)!)).toBeDefined();
    await t.db.query('DELETE FROM morph_queue');
  });
});

describe('MORPH_WORKER', () => {
  it('is on unless set to off; anything else is a configuration error', () => {
    expect(morphWorkerEnabled({})).toBe(true);
    expect(morphWorkerEnabled({ MORPH_WORKER: 'on' })).toBe(true);
    expect(morphWorkerEnabled({ MORPH_WORKER: ' off ' })).toBe(false);
    expect(() => morphWorkerEnabled({ MORPH_WORKER: 'maybe' })).toThrow(ConfigError);
  });
});

import { Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { assetSchema, type ModelDelivery } from '../contract/schemas';
import { checkGlbHeader } from '../core/files/glb';
import {
  backfillDeliveries,
  createDeliveryQueue,
  deliverModel,
  stopDeliveries,
} from './deliveries';
import { DELIVERY_LEASE_MS, findDelivery } from './delivery-records';
import { DeliveryError, deriveInThread, type Derived } from './delivery';
import { sweepFiles } from './file-sweeper';
import { fileUrl, keyOfFileUrl } from './storage';
import { createTestDb } from './test-db';
import { dataOf, useRoleTokens, useTestApp } from './test-app';
import { glbOfSize, readAvatar, uploadFile } from './test-files';
import { webpTexturedModel } from './test-models';

const t = useTestApp();
const tokens = useRoleTokens(t);
/** What the delivery functions need, on the test app's database, storage and clock. */
const deps = {
  get db() {
    return t.db;
  },
  get storage() {
    return t.storage;
  },
  now: () => new Date(t.clock.current),
};

const assetOf = async (id: string) =>
  assetSchema.parse(dataOf(await t.get(`/v1/assets/${id}`, tokens.admin)));

async function createAsset(modelUrl: string) {
  const created = await t.post(
    '/v1/assets',
    { name: 'Delivered', type: 'body', gender: 'female', modelUrl },
    tokens.developer,
  );
  return assetSchema.parse(dataOf(created));
}

/** A model put straight into the storage, as stored before delivery versions existed. */
async function storedModel(bytes: Uint8Array) {
  const stored = await t.storage.put(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(), {
    maxBytes: bytes.byteLength,
  });
  return fileUrl(stored.key);
}

/** An animation of `samplers` samplers (sharing their two accessors: a small file). */
async function manySamplersModel(samplers: number): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const node = doc.createNode();
  doc.createScene().addChild(node);
  const input = doc
    .createAccessor()
    .setType('SCALAR')
    .setArray(new Float32Array([0, 1]))
    .setBuffer(buffer);
  const output = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 1, 1]))
    .setBuffer(buffer);
  const animation = doc.createAnimation();
  for (let i = 0; i < samplers; i += 1) {
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output);
    animation
      .addSampler(sampler)
      .addChannel(
        doc.createAnimationChannel().setSampler(sampler).setTargetNode(node).setTargetPath('scale'),
      );
  }
  return new NodeIO().writeBinary(doc);
}

/** A promise and its resolver. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** `work`'s value, or `fallback` when it has not settled within `ms` (a bound, not a wait). */
const within = <T, F>(work: Promise<T>, ms: number, fallback: F) =>
  Promise.race([work, new Promise<F>((resolve) => setTimeout(resolve, ms, fallback))]);

const nothingToGain = (): Promise<Derived> =>
  Promise.resolve({ kind: 'original', reason: 'Nothing to gain' });

describe('delivery versions of uploaded models', () => {
  it('derives one on upload: the asset says both sizes and ?delivery serves the smaller file', async () => {
    const model = readAvatar('female-animation-catwalk.glb');
    const { url } = await uploadFile(t.request, 'model', model, tokens.developer);
    const asset = await createAsset(url);
    const delivery = asset.modelDelivery!;
    expect(delivery).toMatchObject({ status: 'ready', originalSize: model.byteLength });
    expect(delivery.size).toBeLessThanOrEqual(model.byteLength * 0.4);
    expect(delivery.url).toMatch(/^\/files\/[0-9a-f]{24}\.glb$/);

    const original = await t.get(url);
    expect(original.headers.get('content-length')).toBe(String(model.byteLength));
    const served = await t.get(`${url}?delivery`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-length')).toBe(String(delivery.size));
    expect(served.headers.get('etag')).toBe(`"${keyOfFileUrl(delivery.url!)}"`);
    const again = await t.request('GET', `${url}?delivery`, {
      headers: { 'if-none-match': served.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('leaves a model it cannot read usable, delivered as uploaded, and says why', async () => {
    const model = glbOfSize(4096);
    const { url } = await uploadFile(t.request, 'model', model, tokens.developer);
    const asset = await createAsset(url);
    expect(asset.modelUrl).toBe(url);
    expect(asset.modelDelivery).toMatchObject({ status: 'failed', url: null, size: null });
    expect(asset.modelDelivery!.reason).toMatch(/could not be read|not a readable/);
    const served = await t.get(`${url}?delivery`);
    expect(served.headers.get('content-length')).toBe(String(model.byteLength));
    expect(served.headers.get('etag')).toBe(`"${keyOfFileUrl(url)}"`);
  });

  it('delivers the original when the derivation cannot make it smaller', async () => {
    const url = await storedModel(readAvatar('maleIdle.glb'));
    const { delivery } = await deliverModel(deps, keyOfFileUrl(url)!, {
      derive: () => Promise.resolve({ kind: 'original', reason: 'Nothing to gain' }),
    });
    expect(delivery).toMatchObject({ status: 'original', url: null, reason: 'Nothing to gain' });
  });
});

describe('what a derivation may cost', () => {
  it('delivers a WebP bomb as uploaded, with its pixels as the reason, without decoding it', async () => {
    const bomb = await webpTexturedModel(8192);
    expect(bomb.byteLength).toBeLessThan(8_000);
    const { url } = await uploadFile(t.request, 'model', bomb, tokens.developer);
    const asset = await createAsset(url);
    expect(asset.modelDelivery).toMatchObject({ status: 'failed', url: null, size: null });
    expect(asset.modelDelivery!.reason).toBe(
      'The model is too large to make a smaller copy of: it declares 67,108,864 pixels ' +
        'in image 0 (8,192 × 8,192); at most 16,777,216 are allowed',
    );
    const derive = vi.fn(nothingToGain);
    const again = await deliverModel(deps, keyOfFileUrl(url)!, { retry: true, derive });
    expect(derive).not.toHaveBeenCalled();
    expect(again.delivery).toEqual(asset.modelDelivery);
  });

  it('delivers a model with more animation samplers than a derivation takes as uploaded, unread', async () => {
    const url = await storedModel(await manySamplersModel(5_000));
    const derive = vi.fn(nothingToGain);
    const { delivery } = await deliverModel(deps, keyOfFileUrl(url)!, { derive });
    expect(derive).not.toHaveBeenCalled();
    expect(delivery).toMatchObject({ status: 'failed', url: null });
    expect(delivery!.reason).toMatch(/declares 5,000 animation samplers; at most 4,096 /);
  });

  it('stops a derivation past its time limit and delivers the model as uploaded, for good', async () => {
    const url = await storedModel(readAvatar('halfBodyAPIv2.glb'));
    const asset = await createAsset(url);
    const { delivery } = await deliverModel(deps, keyOfFileUrl(url)!, {
      limits: { timeoutMs: 100, heapMb: 512 },
    });
    expect(delivery).toMatchObject({
      status: 'failed',
      reason: 'Making a smaller copy took too long (stopped after 0.1 seconds)',
    });
    const derive = vi.fn(nothingToGain);
    await backfillDeliveries(deps, { derive });
    expect(derive).not.toHaveBeenCalled();
    expect((await assetOf(asset.id)).modelDelivery?.status).toBe('failed');
  });

  it('gives up on a model whose derivation was cut off three times, instead of at every start', async () => {
    const url = await storedModel(readAvatar('maleIdle.glb'));
    const asset = await createAsset(url);
    // Three servers died deriving it (each claim counts an attempt); the last claim is stale.
    const stale = new Date(t.clock.current.getTime() - DELIVERY_LEASE_MS - 1000);
    await t.db.query(
      `INSERT INTO model_deliveries (model_key, status, original_size, claimed_at, updated_at,
                                     queued_at, attempts)
       VALUES ($1, 'pending', 1, $2, $2, $2, 3)`,
      [keyOfFileUrl(url)!, stale],
    );
    const derive = vi.fn(nothingToGain);
    await backfillDeliveries(deps, { derive });
    expect(derive).not.toHaveBeenCalled();
    expect((await assetOf(asset.id)).modelDelivery).toMatchObject({
      status: 'failed',
      reason: 'Gave up after 3 attempts: each was cut off before it ended',
    });
  });
});

describe('the delivery queue', () => {
  it("derives one model of an uploader at a time: one uploader's slow models hold up no one else's", async () => {
    const slow = await Promise.all(
      [1, 2, 3].map(async () => keyOfFileUrl(await storedModel(readAvatar('maleIdle.glb')))!),
    );
    const ordinary = keyOfFileUrl(await storedModel(readAvatar('spawn-effect.glb')))!;
    const held = gate();
    let started = 0;
    const slowDerive = async (): Promise<Derived> => {
      started += 1;
      await held.opened;
      throw new DeliveryError('Held up');
    };
    const slowOnes = slow.map((key) =>
      deliverModel(deps, key, { requestedBy: 'uploader-a', derive: slowDerive }),
    );
    // Queued at one instant, the four would be taken in the order of their random keys: the
    // ordinary one asks once a slow one holds the uploader's turn.
    await vi.waitFor(() => expect(started).toBe(1));
    const ordinaryOne = deliverModel(deps, ordinary, {
      requestedBy: 'uploader-b',
      derive: nothingToGain,
    });
    const first = await within(ordinaryOne, 10_000, 'held up behind the slow ones');
    expect(first).toMatchObject({ claimed: true, delivery: { status: 'original' } });
    expect(started).toBe(1);

    held.open();
    const done = await Promise.all(slowOnes);
    expect(done.map(({ delivery }) => delivery?.reason)).toEqual(['Held up', 'Held up', 'Held up']);
    expect(started).toBe(3);
  });

  it('shares one queue between servers: each model derived once, one per uploader at a time', async () => {
    // A database of its own, so that its two queues are the only servers on it: the file's
    // database has a third, the queue its uploads and earlier tests used, whose claim started
    // as the previous test's last derivation ended may come only once this test's models wait
    // (on a loaded machine), and derive two of them with deriveInThread.
    const own = await createTestDb();
    onTestFinished(() => own.close());
    const ownDeps = { db: own.db, storage: t.storage, now: deps.now };
    const uploaders = ['uploader-a', 'uploader-a', 'uploader-a', 'uploader-b', 'uploader-b', null];
    const keys = await Promise.all(
      uploaders.map(async () => keyOfFileUrl(await storedModel(readAvatar('maleIdle.glb')))!),
    );
    const uploaderOf = new Map(keys.map((key, index) => [key, uploaders[index]!]));
    const derived: string[] = [];
    const running = new Map<string | null, number>();
    let most = 0;
    // Either server may claim a model the other was asked for.
    const derive = async (read: () => Promise<Uint8Array>, _: unknown, key: string) => {
      const uploader = uploaderOf.get(key)!;
      running.set(uploader, (running.get(uploader) ?? 0) + 1);
      most = Math.max(most, ...running.values());
      await read();
      derived.push(key);
      running.set(uploader, running.get(uploader)! - 1);
      return { kind: 'original', reason: 'Nothing to gain' } satisfies Derived;
    };
    const servers = [createDeliveryQueue({ derive }), createDeliveryQueue({ derive })];
    const results = await Promise.all(
      keys.map((key, index) =>
        deliverModel(ownDeps, key, {
          requestedBy: uploaders[index],
          queue: servers[index % 2],
          derive,
        }),
      ),
    );
    expect(derived.sort()).toEqual([...keys].sort());
    expect(most).toBe(1);
    expect(results.map(({ delivery }) => delivery?.status)).toEqual(keys.map(() => 'original'));
  });
  it("serves uploaders in turn: a third uploader's model waits for no one's long queue", async () => {
    const own = await createTestDb();
    onTestFinished(() => own.close());
    let clock = Date.parse('2026-03-01T10:00:00Z');
    const ownDeps = { db: own.db, storage: t.storage, now: () => new Date(clock) };
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const derive = async (_read: unknown, _limits: unknown, key: string): Promise<Derived> => {
      started.push(key);
      await gates.get(key)!.opened;
      return { kind: 'original', reason: 'Nothing to gain' };
    };
    const queue = createDeliveryQueue({ derive });
    const asked: Promise<unknown>[] = [];
    // Each joins the queue a second after the one before, so "oldest first" has one answer.
    const ask = async (uploader: string) => {
      const key = keyOfFileUrl(await storedModel(readAvatar('spawn-effect.glb')))!;
      gates.set(key, gate());
      clock += 1000;
      asked.push(deliverModel(ownDeps, key, { requestedBy: uploader, queue, derive }));
      await vi.waitFor(async () => expect(await findDelivery(own.db, key)).toBeDefined());
      return key;
    };
    for (let i = 0; i < 5; i += 1) await ask('uploader-a');
    for (let i = 0; i < 5; i += 1) await ask('uploader-b');
    const third = await ask('uploader-c');
    // One model of A and one of B are being derived; each end frees a place for the next claim.
    await vi.waitFor(() => expect(started).toHaveLength(2));
    for (let i = 0; i < 11; i += 1) {
      clock += 1000;
      gates.get(started[i]!)!.open();
      await vi.waitFor(() => expect(started).toHaveLength(Math.min(11, i + 3)));
    }
    await Promise.all(asked);
    // Idle before its database closes: the last derivation's end asks for one more claim.
    await stopDeliveries(ownDeps, queue);
    await vi.waitFor(() => expect(queue.claiming).toBe(false));
    expect(started.indexOf(third)).toBeGreaterThanOrEqual(2);
    expect(started.indexOf(third)).toBeLessThan(5);
    // The turns count what waits: a count left behind would hold the queue or spin it.
    const { rows } = await own.db.query<{ n: string }>(
      'SELECT coalesce(sum(pending), 0)::text AS n FROM delivery_uploaders',
    );
    expect(rows[0]?.n).toBe('0');
  });
});

describe('a server that stops', () => {
  it('hands its derivation back at once for another server, and its upload stops waiting', async () => {
    const own = await createTestDb();
    onTestFinished(() => own.close());
    const ownDeps = { db: own.db, storage: t.storage, now: deps.now };
    const key = keyOfFileUrl(await storedModel(readAvatar('maleIdle.glb')))!;
    const held = gate();
    onTestFinished(held.open);
    let started = 0;
    const stuck = async (): Promise<Derived> => {
      started += 1;
      await held.opened;
      return { kind: 'original', reason: 'Too late' };
    };
    const stopping = createDeliveryQueue({ derive: stuck });
    const upload = deliverModel(ownDeps, key, { queue: stopping, derive: stuck });
    await vi.waitFor(() => expect(started).toBe(1));

    await stopDeliveries(ownDeps, stopping);
    // The caller waiting on this server answers now, the model still queued.
    const answered = await within(upload, 5000, 'still waiting');
    expect(answered).toMatchObject({ delivery: { status: 'pending' } });
    const { rows } = await own.db.query<{ claimed_at: Date | null; attempts: number }>(
      'SELECT claimed_at, attempts FROM model_deliveries WHERE model_key = $1',
      [key],
    );
    expect(rows).toEqual([{ claimed_at: null, attempts: 0 }]);

    // Another server takes it at once, not after the lease; the stopped one records nothing.
    const other = createDeliveryQueue({ derive: nothingToGain });
    const taken = await within(
      deliverModel(ownDeps, key, { queue: other, derive: nothingToGain }),
      10_000,
      'not taken',
    );
    expect(taken).toMatchObject({ delivery: { status: 'original', reason: 'Nothing to gain' } });
    held.open();
    await vi.waitFor(() => expect(stopping.running).toBe(0));
    expect((await deliverModel(ownDeps, key, { queue: other })).delivery).toMatchObject({
      reason: 'Nothing to gain',
    });
  });
});

describe('backfillDeliveries', () => {
  it('derives the models stored before, once, however often it runs', async () => {
    const first = await storedModel(readAvatar('maleIdle.glb'));
    const second = await storedModel(readAvatar('spawn-effect.glb'));
    const assets = [await createAsset(first), await createAsset(second), await createAsset(first)];
    expect(assets.map((asset) => asset.modelDelivery ?? null)).toEqual([null, null, null]);

    const seen: string[] = [];
    const run = await backfillDeliveries(deps, { onModel: (key) => seen.push(key) });
    expect(seen).toEqual(expect.arrayContaining([keyOfFileUrl(first), keyOfFileUrl(second)]));
    expect(run.skipped).toBe(0);
    for (const asset of assets) {
      expect((await assetOf(asset.id)).modelDelivery?.status).toBe('ready');
    }
    const twice: string[] = [];
    await backfillDeliveries(deps, { onModel: (key) => twice.push(key) });
    expect(twice).toEqual([]);
  });

  it("derives cage meshes' and morphed assets' models as well as assets'", async () => {
    const cage = await storedModel(readAvatar('maleIdle.glb'));
    const morphed = await storedModel(readAvatar('female-idle.glb'));
    const created = await t.post(
      '/v1/cage-meshes',
      { name: 'Delivered cage', gender: 'female', modelUrl: cage },
      tokens.developer,
    );
    expect(created.status).toBe(200);
    // The morph's two assets have a model of their own, so that neither model above is an asset's.
    const theirs = await storedModel(readAvatar('spawn-effect.glb'));
    const [source, body] = [await createAsset(theirs), await createAsset(theirs)];
    await t.db.query(
      `INSERT INTO morphed_assets (id, source_asset_id, body_asset_id, name, model_url, created_at)
       VALUES ('morphed-delivered', $1, $2, 'Morphed', $3, $4)`,
      [source.id, body.id, morphed, t.clock.current],
    );
    const seen: string[] = [];
    await backfillDeliveries(deps, { onModel: (key) => seen.push(key) });
    expect(seen).toEqual(expect.arrayContaining([keyOfFileUrl(cage), keyOfFileUrl(morphed)]));
    for (const url of [cage, morphed]) {
      const { rows } = await t.db.query<{ status: string }>(
        'SELECT status FROM model_deliveries WHERE model_key = $1',
        [keyOfFileUrl(url)!],
      );
      expect(rows.map((row) => row.status)).toEqual(['ready']);
    }
  });

  it('leaves a model another run is deriving, and takes it over once that run’s lease passed', async () => {
    const url = await storedModel(readAvatar('maleIdle.glb'));
    const asset = await createAsset(url);
    await t.db.query(
      `INSERT INTO model_deliveries (model_key, status, original_size, claimed_at, updated_at)
       VALUES ($1, 'pending', 1, $2, $2)`,
      [keyOfFileUrl(url)!, t.clock.current],
    );
    const derive = () => Promise.reject(new Error('must not run'));
    const busy = await backfillDeliveries(deps, { derive });
    expect(busy.skipped).toBeGreaterThanOrEqual(1);
    expect((await assetOf(asset.id)).modelDelivery?.status).toBe('pending');

    t.advance(DELIVERY_LEASE_MS + 1000);
    await backfillDeliveries(deps);
    expect((await assetOf(asset.id)).modelDelivery?.status).toBe('ready');
  });

  it('passes over a model whose file goes while it is read, and derives the others', async () => {
    const gone = await storedModel(readAvatar('maleIdle.glb'));
    const kept = await storedModel(readAvatar('spawn-effect.glb'));
    const [replaced, asset] = [await createAsset(gone), await createAsset(kept)];
    // The file goes after its header is read, as a morph done again removes the model it
    // replaced; reading on fails as a file opened with fs.openAsBlob does then.
    const storage = Object.create(t.storage) as typeof t.storage;
    storage.blob = async (key) => {
      const blob = await t.storage.blob(key);
      if (!blob || key !== keyOfFileUrl(gone)) return blob;
      // As many reads as checking its header takes succeed.
      let reads = 0;
      await checkGlbHeader({
        size: blob.size,
        slice: (start, end) => (reads++, blob.slice(start, end)),
      });
      return {
        size: blob.size,
        slice: (start, end) => ({
          arrayBuffer: async () => {
            if ((reads -= 1) >= 0) return blob.slice(start, end).arrayBuffer();
            await t.storage.delete(key);
            throw new DOMException('The blob could not be read', 'NotReadableError');
          },
        }),
      };
    };
    const run = await backfillDeliveries({ ...deps, storage });
    expect(run.skipped).toBe(1);
    expect((await assetOf(asset.id)).modelDelivery?.status).toBe('ready');
    expect((await assetOf(replaced.id)).modelDelivery ?? null).toBeNull();
  });

  it('retries failed derivations only when asked', async () => {
    const url = await storedModel(readAvatar('maleIdle.glb'));
    const asset = await createAsset(url);
    const failing = () => Promise.reject(new DeliveryError('Out of luck'));
    await backfillDeliveries(deps, { derive: failing });
    expect((await assetOf(asset.id)).modelDelivery).toMatchObject({
      status: 'failed',
      reason: 'Out of luck',
    });
    const calls: number[] = [];
    const counting = async (read: () => Promise<Uint8Array>) => {
      const bytes = await read();
      calls.push(bytes.byteLength);
      return deriveInThread(bytes);
    };
    await backfillDeliveries(deps, { derive: counting });
    expect(calls).toEqual([]);
    await backfillDeliveries(deps, { derive: counting, retry: true });
    expect(calls).toContain(readAvatar('maleIdle.glb').byteLength);
    expect((await assetOf(asset.id)).modelDelivery?.status).toBe('ready');
  });

  it('derives one model at a time, read only once its turn has come: uploads waiting hold nothing', async () => {
    const keys = await Promise.all(
      Array.from({ length: 3 }, async () =>
        keyOfFileUrl(await storedModel(readAvatar('maleIdle.glb'))),
      ),
    );
    let holding = 0;
    let most = 0;
    const derive = (read: () => Promise<Uint8Array>) =>
      deriveInThread(() => {
        holding += 1;
        most = Math.max(most, holding);
        return read();
      }).finally(() => (holding -= 1));
    const delivered = await Promise.all(keys.map((key) => deliverModel(deps, key!, { derive })));
    expect(most).toBe(1);
    expect(delivered.map(({ delivery }) => delivery?.status)).toEqual(keys.map(() => 'ready'));
  });

  it('leaves the claim to a later run when the database or storage fails mid-way', async () => {
    const url = await storedModel(readAvatar('maleIdle.glb'));
    const asset = await createAsset(url);
    const broken = () => Promise.reject(new Error('disk on fire'));
    await expect(backfillDeliveries(deps, { derive: broken })).rejects.toThrow('disk on fire');
    expect((await assetOf(asset.id)).modelDelivery?.status).toBe('pending');
  });
});

describe('the file sweep', () => {
  it('forgets a swept model’s delivery version, whose file goes with the next sweep', async () => {
    const url = await storedModel(readAvatar('maleIdle.glb'));
    const { delivery } = await deliverModel(deps, keyOfFileUrl(url)!);
    const deliveryKey = keyOfFileUrl((delivery as ModelDelivery).url!)!;
    t.advance(48 * 3600 * 1000);
    await sweepFiles(deps, t.clock.current);
    expect(await t.storage.stat(keyOfFileUrl(url)!)).toBeUndefined();
    const { rows } = await t.db.query('SELECT 1 FROM model_deliveries WHERE model_key = $1', [
      keyOfFileUrl(url)!,
    ]);
    expect(rows).toEqual([]);
    await sweepFiles(deps, t.clock.current);
    expect(await t.storage.stat(deliveryKey)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { assetSchema, type ModelDelivery } from '../contract/schemas';
import { backfillDeliveries, deliverModel, DELIVERY_LEASE_MS } from './deliveries';
import { DeliveryError, deriveInThread } from './delivery';
import { sweepFiles } from './file-sweeper';
import { fileUrl, keyOfFileUrl } from './storage';
import { dataOf, useRoleTokens, useTestApp } from './test-app';
import { glbOfSize, readAvatar, uploadFile } from './test-files';

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

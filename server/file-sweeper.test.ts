/**
 * The file sweeper: stored files nothing refers to (replaced icons, uploads never saved, the
 * files of deleted assets) disappear once a day old, files any row refers to stay, partial
 * uploads go, and a sweep never removes a file a save is storing at the same moment.
 */
import { utimes, writeFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assetSchema, cageMeshSchema, type UploadResult } from '../contract/schemas';
import type { Db } from './db';
import { fileColumns, startFileSweeper, sweepFiles } from './file-sweeper';
import { newId } from './ids';
import { keyOfFileUrl, type Storage } from './storage';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';
import { glbOfSize, readPng, uploadFile } from './test-files';

const t = useTestApp();
const HOUR = 3600 * 1000;
const tokens = useRoleTokens(t);

const upload = async (kind: 'model' | 'icon', token = tokens.developer): Promise<UploadResult> =>
  uploadFile(t.request, kind, kind === 'model' ? glbOfSize(200) : readPng(), token);
const model = () => upload('model');
const icon = () => upload('icon');

/** A sweep as it would run `hours` from now (files are stored with the real clock). */
const sweepIn = (hours: number) =>
  sweepFiles({ db: t.db, storage: t.storage }, new Date(Date.now() + hours * HOUR));

/** Whether the file is still served, as a client loading it would find out. */
const served = async (file: UploadResult) => (await t.request('GET', file.url)).status === 200;

async function createAsset(body: Record<string, unknown>) {
  return assetSchema.parse(
    dataOf(
      await t.post(
        '/v1/assets',
        { name: 'Swept', type: 'top', gender: 'male', ...body },
        tokens.developer,
      ),
    ),
  );
}

describe('sweepFiles', () => {
  it('removes files nothing refers to once they are a day old and keeps every referenced file', async () => {
    const asset = {
      model: await model(),
      icon: await icon(),
      texture: await icon(),
      normalMap: await icon(),
      source: await icon(),
    };
    const kept = await createAsset({
      modelUrl: asset.model.url,
      iconUrl: asset.icon.url,
      textureUrl: asset.texture.url,
      normalMapUrl: asset.normalMap.url,
    });
    // sourceUrl takes a PSD; any stored file stands for it here.
    await t.db.query('UPDATE assets SET source_url = $2 WHERE id = $1', [
      kept.id,
      asset.source.url,
    ]);
    // The icon is replaced: the old one is referred to by nothing now.
    const replacedIcon = asset.icon;
    const newIcon = await icon();
    dataOf(await t.patch(`/v1/assets/${kept.id}`, { iconUrl: newIcon.url }, tokens.developer));
    // An upload never saved to anything.
    const abandoned = await model();
    // The files of an asset deleted for ever (from the Trash, which keeps them until then).
    const doomed = { model: await model(), icon: await icon() };
    const deleted = await createAsset({ modelUrl: doomed.model.url, iconUrl: doomed.icon.url });
    dataOf(await t.request('DELETE', `/v1/assets/${deleted.id}`, { token: tokens.admin }));
    dataOf(await t.request('DELETE', `/v1/trash/asset/${deleted.id}`, { token: tokens.admin }));
    // A template's file shared with its copy outlives the template.
    const shared = await icon();
    const template = await createAsset({ iconUrl: shared.url, isTemplate: true });
    dataOf(
      await t.post('/private/v1/assets/using-template', { templateId: template.id }, tokens.admin),
    );
    dataOf(await t.request('DELETE', `/v1/assets/${template.id}`, { token: tokens.admin }));
    // A cage mesh's model and a morphed asset's model.
    const cageModel = await model();
    cageMeshSchema.parse(
      dataOf(
        await t.post(
          '/v1/cage-meshes',
          { name: 'Swept cage', gender: 'male', modelUrl: cageModel.url },
          tokens.developer,
        ),
      ),
    );
    const morphedModel = await model();
    const body = await createAsset({ type: 'body' });
    await t.db.query(
      `INSERT INTO morphed_assets (id, source_asset_id, body_asset_id, name, model_url, created_at)
       VALUES ($1, $2, $3, 'Swept on body', $4, $5)`,
      [newId(), kept.id, body.id, morphedModel.url, t.clock.current],
    );

    const unreferenced = [replacedIcon, abandoned, doomed.model, doomed.icon];
    const referenced = [
      asset.model,
      newIcon,
      asset.texture,
      asset.normalMap,
      asset.source,
      shared,
      cageModel,
      morphedModel,
    ];
    // Within the day after upload nothing goes: a form may still be about to save them.
    expect(await sweepIn(0)).toMatchObject({ unreferenced: 0, partial: 0 });
    expect(await sweepIn(23)).toMatchObject({ unreferenced: 0, partial: 0 });
    for (const file of [...unreferenced, ...referenced]) expect(await served(file)).toBe(true);

    expect(await sweepIn(25)).toMatchObject({ unreferenced: unreferenced.length, partial: 0 });
    for (const file of unreferenced) expect(await served(file), file.url).toBe(false);
    for (const file of referenced) expect(await served(file), file.url).toBe(true);
    expect(await sweepIn(25)).toMatchObject({ unreferenced: 0, partial: 0 });
  });

  it('finds every file column of the schema', async () => {
    expect(await fileColumns(t.db)).toEqual(
      expect.arrayContaining([
        { table: 'assets', column: 'icon_url' },
        { table: 'assets', column: 'model_url' },
        { table: 'assets', column: 'normal_map_url' },
        { table: 'assets', column: 'source_url' },
        { table: 'assets', column: 'texture_url' },
        { table: 'cage_meshes', column: 'model_url' },
        { table: 'morphed_assets', column: 'model_url' },
        { table: 'trash_files', column: 'file_url' },
      ]),
    );
  });

  it('removes partial uploads nobody has written to for 15 minutes', async () => {
    const crashed = join(t.storageDir, '.upload-crashed');
    const writing = join(t.storageDir, '.upload-writing');
    await writeFile(crashed, 'left by a crash');
    await writeFile(writing, 'still arriving');
    const longAgo = new Date(Date.now() - 20 * 60 * 1000);
    await utimes(crashed, longAgo, longAgo);
    expect((await sweepIn(0)).partial).toBe(1);
    const names = await readdir(t.storageDir);
    expect(names).toContain('.upload-writing');
    expect(names).not.toContain('.upload-crashed');
  });
});

describe('startFileSweeper', () => {
  it('sweeps again and again while the server runs', async () => {
    const first = await model();
    const sweeps: number[] = [];
    // No grace for unreferenced files, on the real clock: a clock 25 hours ahead also made the
    // second upload's partial file, still being written, look 25 hours old, and a sweep in that
    // moment removed it under the upload (a 500, seen in a clean-clone run).
    const sweeper = startFileSweeper(
      { db: t.db, storage: t.storage, now: () => new Date() },
      { intervalMs: 10, graceMs: 0, onSwept: (result) => sweeps.push(result.unreferenced) },
    );
    try {
      await expect.poll(() => served(first), { timeout: 5000 }).toBe(false);
      const second = await model();
      await expect.poll(() => served(second), { timeout: 5000 }).toBe(false);
    } finally {
      await sweeper.stop();
    }
    expect(sweeps.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  });
});

/** A promise with its resolve function. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** The database with a hook that runs before each transaction starts. */
const hookedDb = (before: () => Promise<void> | void): Db => ({
  ...t.db,
  query: (sql, params) => t.db.query(sql, params),
  exec: (sql) => t.db.exec(sql),
  close: () => t.db.close(),
  transaction: async (fn) => {
    await before();
    return t.db.transaction(fn);
  },
});

/** A day-old upload (as the sweeper sees it) that nothing refers to yet, and an asset. */
async function oldUploadAndAsset() {
  const file = await icon();
  const asset = await createAsset({});
  const dayAgo = new Date(Date.now() - 25 * HOUR);
  await utimes(join(t.storageDir, keyOfFileUrl(file.url)!), dayAgo, dayAgo);
  return { file, asset };
}

/** An app on `db` and `storage` (the harness app is fixed to its own), answering PATCHes. */
function appWith(db: Db, storage: Storage) {
  const app = t.createApp({
    db,
    storage,
    // The harness's cache: a session read would queue behind the sweep's transaction (PGlite).
    sessions: t.sessions,
    mail: t.mailbox,
    config: t.config,
    now: () => t.clock.current,
  });
  return async (path: string, body: unknown) => {
    const response = await app.request(path, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${tokens.developer}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as unknown,
      headers: response.headers,
    };
  };
}

describe('a sweep and a save at the same moment', () => {
  it('a save that checked the file first keeps it: the sweep waits for the save', async () => {
    const { file, asset } = await oldUploadAndAsset();
    const key = keyOfFileUrl(file.url)!;
    // The save pauses right after it found the file, until the sweep has begun.
    const saveFoundFile = signal();
    const sweepBegan = signal();
    const storage: Storage = {
      ...t.storage,
      stat: async (statKey) => {
        const found = await t.storage.stat(statKey);
        if (statKey === key) {
          saveFoundFile.resolve();
          await sweepBegan.promise;
        }
        return found;
      },
    };
    const patch = appWith(t.db, storage);
    const saving = patch(`/v1/assets/${asset.id}`, { iconUrl: file.url });
    await saveFoundFile.promise;
    const sweeping = sweepFiles(
      {
        db: hookedDb(() => sweepBegan.resolve()),
        storage: t.storage,
      },
      new Date(),
    );
    const [saved, swept] = await Promise.all([saving, sweeping]);
    expect(assetSchema.parse(dataOf(saved)).iconUrl).toBe(file.url);
    expect(swept.unreferenced).toBe(0);
    expect(await served(file)).toBe(true);
  });

  it('a save that comes while the sweep deletes the file is refused (400), not left dangling', async () => {
    const { file, asset } = await oldUploadAndAsset();
    const key = keyOfFileUrl(file.url)!;
    // The sweep pauses inside its delete until the save has started its transaction.
    const sweepDeleting = signal();
    const saveBegan = signal();
    const sweeperStorage: Storage = {
      ...t.storage,
      delete: async (deleteKey) => {
        if (deleteKey === key) {
          sweepDeleting.resolve();
          await saveBegan.promise;
        }
        return t.storage.delete(deleteKey);
      },
    };
    dataOf(await t.get('/v1/users/me', tokens.developer)); // its session is cached now
    const sweeping = sweepFiles({ db: t.db, storage: sweeperStorage }, new Date());
    await sweepDeleting.promise;
    const patch = appWith(
      hookedDb(() => saveBegan.resolve()),
      t.storage,
    );
    const [saved, swept] = await Promise.all([
      patch(`/v1/assets/${asset.id}`, { iconUrl: file.url }),
      sweeping,
    ]);
    expect(swept.unreferenced).toBe(1);
    expect(expectError(saved, 400, 'VALIDATION_ERROR').message).toBe(
      `iconUrl: No stored file ${file.url}`,
    );
    expect(
      assetSchema.parse(dataOf(await t.get(`/v1/assets/${asset.id}`, tokens.admin))).iconUrl,
    ).toBe(null);
    expect(await served(file)).toBe(false);
  });
});

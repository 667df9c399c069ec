/**
 * The Trash for cage meshes, applications and morphed assets: deleting one (alone or in bulk)
 * takes it out of every read at once, restoring brings it back with its relations, a restore
 * whose partner is gone is a clear 409, and only whoever may delete a kind may do any of it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  activityRowSchema,
  cageMeshSchema,
  listResponseSchema,
  morphedAssetSchema,
  trashResultSchema,
  trashRowSchema,
  type CageMesh,
} from '../contract/schemas';
import { latestEventSeq, readEventsAfter } from './events';
import { sweepFiles } from './file-sweeper';
import { keyOfFileUrl } from './storage';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';
import { glbOfSize, uploadFile } from './test-files';
import { placeSql } from './positions';

const t = useTestApp();
const tokens = useRoleTokens(t);
const DAY = 24 * 3600 * 1000;

const del = (path: string, token = tokens.admin) => t.request('DELETE', path, { token });
const restore = (path: string, token = tokens.admin) => t.post(`${path}/restore`, {}, token);
const trashPage = listResponseSchema(trashRowSchema);

async function trashed(query: string) {
  return trashPage.parse((await t.get(`/v1/trash?limit=100${query}`, tokens.admin)).body);
}

const idPage = listResponseSchema(z.looseObject({ id: z.string() }));

/** The ids a list answers (one page of up to 100). */
async function listIds(path: string): Promise<string[]> {
  const query = `${path}${path.includes('?') ? '&' : '?'}limit=100`;
  return idPage.parse((await t.get(query, tokens.admin)).body).data.map((row) => row.id);
}

async function newCageMesh(name: string, modelUrl?: string): Promise<CageMesh> {
  const body = { name, gender: 'female', bodyType: 'slim', ...(modelUrl ? { modelUrl } : {}) };
  return cageMeshSchema.parse(dataOf(await t.post('/v1/cage-meshes', body, tokens.admin)));
}

/** An application with at least three assets: its id and its asset ids in position order. */
async function fullApplication(): Promise<{ id: string; assets: string[] }> {
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT application_id AS id FROM application_assets GROUP BY application_id
     HAVING count(*) >= 3 ORDER BY application_id LIMIT 1`,
  );
  const id = rows[0]!.id;
  return { id, assets: await applicationOrder(id) };
}

/** The application's asset ids in order, checking the places shown are exactly 1..N. */
async function applicationOrder(applicationId: string): Promise<string[]> {
  const { rows } = await t.db.query<{ asset_id: string; position: number }>(
    `SELECT x.asset_id, ${placeSql('application_assets', 'x')} AS position
     FROM application_assets x WHERE x.application_id = $1 ORDER BY x.position, x.rank, x.id`,
    [applicationId],
  );
  expect(rows.map((row) => row.position)).toEqual(rows.map((_, i) => i + 1));
  return rows.map((row) => row.asset_id);
}

/** A seeded morphed asset that a completed queue entry produced, as the list shows it. */
async function morphedFromQueue() {
  const { rows } = await t.db.query<{ id: string; queue_id: string }>(
    `SELECT m.id, q.id AS queue_id FROM morphed_assets m
     JOIN morph_queue q ON q.morphed_asset_id = m.id ORDER BY m.id LIMIT 1`,
  );
  const { id, queue_id: queueId } = rows[0]!;
  return { morphed: (await morphedById(id))!, queueId };
}

/** The morphed asset as the list shows it; undefined when the list has none with that id. */
async function morphedById(id: string) {
  const { rows } = await t.db.query<{ name: string }>(
    'SELECT name FROM morphed_assets WHERE id = $1',
    [id],
  );
  if (!rows[0]) return undefined;
  const query = `/private/v1/morphed-assets?limit=100&search=${encodeURIComponent(rows[0].name)}`;
  const list = listResponseSchema(morphedAssetSchema).parse(
    (await t.get(query, tokens.admin)).body,
  );
  return list.data.find((row) => row.id === id);
}

/** Deletes an asset (unlocked first: a locked one cannot be deleted). */
async function deleteAsset(id: string) {
  dataOf(await t.request('PUT', `/v1/assets/${id}/unlock`, { token: tokens.admin, body: {} }));
  dataOf(await del(`/v1/assets/${id}`));
}

async function placements(applicationId: string): Promise<string[]> {
  const { rows } = await t.db.query<{ morphed_asset_id: string }>(
    `SELECT morphed_asset_id FROM application_morphed_assets WHERE application_id = $1
     ORDER BY morphed_asset_id`,
    [applicationId],
  );
  return rows.map((row) => row.morphed_asset_id);
}

async function queueLink(queueId: string): Promise<string | null> {
  const { rows } = await t.db.query<{ morphed_asset_id: string | null }>(
    'SELECT morphed_asset_id FROM morph_queue WHERE id = $1',
    [queueId],
  );
  return rows[0]!.morphed_asset_id;
}

describe('cage meshes', () => {
  it('leave every read at once, keep their file while in the Trash, and come back as they were', async () => {
    const model = await uploadFile(t.request, 'model', glbOfSize(200), tokens.admin);
    const mesh = await newCageMesh('Trash cage one', model.url);
    const before = cageMeshSchema.parse(
      dataOf(await t.get(`/v1/cage-meshes/${mesh.id}`, tokens.admin)),
    );

    const result = trashResultSchema.parse(dataOf(await del(`/v1/cage-meshes/${mesh.id}`)));
    expect(result.items).toEqual([{ kind: 'cage-mesh', id: mesh.id }]);

    expectError(await t.get(`/v1/cage-meshes/${mesh.id}`, tokens.admin), 404);
    expect(await listIds('/v1/cage-meshes?gender=female&search=Trash%20cage')).toEqual([]);
    const row = (await trashed('&kind=cage-mesh&search=Trash%20cage%20one')).data;
    expect(row).toEqual([
      expect.objectContaining({ kind: 'cage-mesh', id: mesh.id, name: 'Trash cage one' }),
    ]);
    await sweepFiles({ db: t.db, storage: t.storage }, new Date(Date.now() + 2 * DAY), {
      graceMs: 0,
    });
    expect(await t.storage.read(keyOfFileUrl(model.url)!)).toBeDefined();

    dataOf(await restore(`/v1/cage-meshes/${mesh.id}`));
    expect(dataOf(await t.get(`/v1/cage-meshes/${mesh.id}`, tokens.admin))).toEqual(before);
    expect(await listIds('/v1/cage-meshes?gender=female&search=Trash%20cage')).toEqual([mesh.id]);
    expect((await trashed('&kind=cage-mesh&search=Trash%20cage%20one')).data).toEqual([]);
  });

  it('are deleted and restored in bulk, all or none', async () => {
    const a = await newCageMesh('Trash cage bulk A');
    const b = await newCageMesh('Trash cage bulk B');
    // One id that is no cage mesh deletes nothing.
    expectError(
      await t.post('/v1/cage-meshes/bulk-delete', { ids: [a.id, 'missing'] }, tokens.admin),
      404,
    );
    expect(await listIds('/v1/cage-meshes?gender=female&search=Trash%20cage%20bulk')).toHaveLength(
      2,
    );
    dataOf(await t.post('/v1/cage-meshes/bulk-delete', { ids: [b.id, a.id] }, tokens.admin));
    expect(await listIds('/v1/cage-meshes?gender=female&search=Trash%20cage%20bulk')).toEqual([]);
    dataOf(await t.post('/v1/cage-meshes/bulk-restore', { ids: [a.id, b.id] }, tokens.admin));
    expect(await listIds('/v1/cage-meshes?gender=female&search=Trash%20cage%20bulk')).toHaveLength(
      2,
    );
  });
});

describe('applications', () => {
  it('leave every read with their entries and come back with each asset at its position and their morphed assets', async () => {
    const application = await fullApplication();
    const { morphed } = await morphedFromQueue();
    const place = { applicationId: application.id, morphedAssetId: morphed.id };
    dataOf(await t.post('/v1/application-morphed-assets', place, tokens.admin));
    const asset = application.assets[1]!;
    const before = dataOf(await t.get(`/v1/applications/${application.id}`, tokens.admin));

    dataOf(await del(`/v1/applications/${application.id}`));

    expectError(await t.get(`/v1/applications/${application.id}`, tokens.admin), 404);
    expect(await listIds('/v1/applications')).not.toContain(application.id);
    const entries = await t.get(
      `/v1/application-assets?applicationId=${application.id}`,
      tokens.admin,
    );
    expect((entries.body as { data: unknown[] }).data).toEqual([]);
    const ofAsset = dataOf(await t.get(`/v1/assets/${asset}/application?limit=100`, tokens.admin));
    expect(ofAsset).not.toContainEqual(expect.objectContaining({ applicationId: application.id }));
    expectError(await t.get(`/v1/assets/export/${application.id}`, tokens.admin), 404);
    expect(await placements(application.id)).toEqual([]);

    dataOf(await restore(`/v1/applications/${application.id}`));
    expect(dataOf(await t.get(`/v1/applications/${application.id}`, tokens.admin))).toEqual(before);
    expect(await applicationOrder(application.id)).toEqual(application.assets);
    expect(await placements(application.id)).toEqual([morphed.id]);
  });

  it('give back an entry of an asset trashed meanwhile when that asset comes back, and drop one of an asset deleted for ever', async () => {
    const application = await fullApplication();
    const [first, second] = application.assets;
    dataOf(await del(`/private/v1/applications/${application.id}`));
    await deleteAsset(first!);
    await deleteAsset(second!);
    dataOf(await del(`/v1/trash/asset/${second}`));

    dataOf(await restore(`/private/v1/applications/${application.id}`));
    const without = application.assets.filter((id) => id !== first && id !== second);
    expect(await applicationOrder(application.id)).toEqual(without);
    dataOf(await restore(`/v1/assets/${first!}`));
    expect(await applicationOrder(application.id)).toEqual([first, ...without]);
  });

  it('loses no entry added while the application is being deleted: it is in the Trash with it, or the add failed', async () => {
    const application = await fullApplication();
    const body = { name: 'Trash racing entry', type: 'hair', gender: 'male' };
    const { id: assetId } = dataOf(await t.post('/v1/assets', body, tokens.admin)) as {
      id: string;
    };
    const [added, deleted] = await Promise.all([
      t.post(`/v1/assets/${assetId}/application`, { applicationId: application.id }, tokens.admin),
      del(`/v1/applications/${application.id}`),
    ]);
    expect(deleted.status).toBe(200);
    expect([200, 400]).toContain(added.status);
    dataOf(await restore(`/v1/applications/${application.id}`));
    const order = await applicationOrder(application.id);
    expect(order.includes(assetId)).toBe(added.status === 200);
    expect(order.filter((id) => id !== assetId)).toEqual(application.assets);
  });
});

describe('morphed assets', () => {
  it('leave the list, their applications and their queue entry, and come back with all three', async () => {
    const { morphed, queueId } = await morphedFromQueue();
    const { rows } = await t.db.query<{ id: string }>(
      `SELECT id FROM applications WHERE id NOT IN
         (SELECT application_id FROM application_morphed_assets WHERE morphed_asset_id = $1)
       ORDER BY id LIMIT 1`,
      [morphed.id],
    );
    const applicationId = rows[0]!.id;
    dataOf(
      await t.post(
        '/v1/application-morphed-assets',
        { applicationId, morphedAssetId: morphed.id },
        tokens.admin,
      ),
    );

    dataOf(
      await t.post('/private/v1/morphed-assets/bulk-delete', { ids: [morphed.id] }, tokens.admin),
    );
    const search = `/private/v1/morphed-assets?search=${encodeURIComponent(morphed.name)}`;
    expect(await listIds(search)).not.toContain(morphed.id);
    expect(await placements(applicationId)).not.toContain(morphed.id);
    expect(await queueLink(queueId)).toBeNull();

    dataOf(await restore(`/v1/morphed-assets/${morphed.id}`));
    expect(await morphedById(morphed.id)).toEqual(morphed);
    expect(await placements(applicationId)).toContain(morphed.id);
    expect(await queueLink(queueId)).toBe(morphed.id);
  });

  it('take along a placement made while they are being deleted, or the placement fails with a 4xx', async () => {
    const { morphed } = await morphedFromQueue();
    const { rows } = await t.db.query<{ id: string }>(
      `SELECT id FROM applications WHERE id NOT IN
         (SELECT application_id FROM application_morphed_assets WHERE morphed_asset_id = $1)
       ORDER BY id DESC LIMIT 1`,
      [morphed.id],
    );
    const applicationId = rows[0]!.id;
    const place = { applicationId, morphedAssetId: morphed.id };
    const [placed, deleted] = await Promise.all([
      t.post('/v1/application-morphed-assets', place, tokens.admin),
      del(`/v1/morphed-assets/${morphed.id}`),
    ]);
    expect(deleted.status).toBe(200);
    expect([200, 400]).toContain(placed.status);
    dataOf(await restore(`/v1/morphed-assets/${morphed.id}`));
    expect((await placements(applicationId)).includes(morphed.id)).toBe(placed.status === 200);
  });

  it('answer 409 while their asset is in the Trash or gone for ever, never a 500, and keep them in the Trash', async () => {
    const { morphed } = await morphedFromQueue();
    dataOf(await del(`/v1/morphed-assets/${morphed.id}`));
    await deleteAsset(morphed.sourceAssetId);
    const inTrash = expectError(await restore(`/v1/morphed-assets/${morphed.id}`), 409, 'CONFLICT');
    expect(inTrash.message).toMatch(/in the Trash: restore it first/);
    // Both together: the asset comes back first, then the morphed asset.
    const items = [
      { kind: 'morphed-asset', id: morphed.id },
      { kind: 'asset', id: morphed.sourceAssetId },
    ];
    dataOf(await t.post('/v1/trash/bulk-restore', { items }, tokens.admin));
    expect(await morphedById(morphed.id)).toEqual(morphed);

    dataOf(await del(`/v1/morphed-assets/${morphed.id}`));
    await deleteAsset(morphed.bodyAssetId);
    dataOf(await del(`/v1/trash/asset/${morphed.bodyAssetId}`));
    const gone = expectError(await restore(`/v1/morphed-assets/${morphed.id}`), 409, 'CONFLICT');
    expect(gone.message).toMatch(/deleted for ever: it cannot be restored/);
    expect((await trashed('&kind=morphed-asset')).data.map((row) => row.id)).toContain(morphed.id);
  });

  it('answer 409 when the same pair was generated again meanwhile', async () => {
    const { morphed } = await morphedFromQueue();
    dataOf(await del(`/v1/morphed-assets/${morphed.id}`));
    await t.db.query(
      `INSERT INTO morphed_assets (id, source_asset_id, body_asset_id, name, created_at)
       VALUES ('regenerated-pair', $1, $2, 'Again', now())`,
      [morphed.sourceAssetId, morphed.bodyAssetId],
    );
    const error = expectError(await restore(`/v1/morphed-assets/${morphed.id}`), 409, 'CONFLICT');
    expect(error.message).toContain('generated since');
  });
});

describe('events', () => {
  const activity = async (recordId: string) =>
    listResponseSchema(activityRowSchema)
      .parse((await t.get(`/v1/activity?recordId=${recordId}`, tokens.admin)).body)
      .data.map((row) => ({ key: row.routingKey, actorId: row.actorId, data: row.data }));

  it('record a cage mesh and a morphed asset going to the Trash, back, and for ever; the stream carries them', async () => {
    const adminId = (dataOf(await t.get('/v1/users/me', tokens.admin)) as { _id: string })._id;
    const mesh = await newCageMesh('Trash cage events');
    const { morphed } = await morphedFromQueue();
    const since = await latestEventSeq(t.db);
    for (const path of [`/v1/cage-meshes/${mesh.id}`, `/v1/morphed-assets/${morphed.id}`]) {
      dataOf(await del(path));
      dataOf(await restore(path));
      dataOf(await del(path));
    }
    dataOf(await del(`/v1/trash/cage-mesh/${mesh.id}`));
    dataOf(await del(`/v1/trash/morphed-asset/${morphed.id}`));

    const expected = (kind: string, name: string) =>
      ['purged', 'deleted', 'restored', 'deleted'].map((verb) => ({
        key: `${kind}.${verb}.v1`,
        actorId: adminId,
        data: { name },
      }));
    expect((await activity(mesh.id)).slice(0, 4)).toEqual(expected('cage-mesh', mesh.name));
    expect(await activity(morphed.id)).toEqual(expected('morphed-asset', morphed.name));
    // The live stream names each subject, so other admins' lists follow.
    const streamed = await readEventsAfter(t.db, since, 100);
    const subjects = streamed.map((event) => [
      event.routingKey,
      event.cageMeshId ?? event.morphedAssetId,
    ]);
    expect(subjects).toEqual([
      ['cage-mesh.deleted.v1', mesh.id],
      ['cage-mesh.restored.v1', mesh.id],
      ['cage-mesh.deleted.v1', mesh.id],
      ['morphed-asset.deleted.v1', morphed.id],
      ['morphed-asset.restored.v1', morphed.id],
      ['morphed-asset.deleted.v1', morphed.id],
      ['cage-mesh.purged.v1', mesh.id],
      ['morphed-asset.purged.v1', morphed.id],
    ]);
  });
});

describe('who may delete and restore', () => {
  it('lets only whoever may delete a kind do it, and never reaches a record of another kind', async () => {
    const mesh = await newCageMesh('Trash cage roles');
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM applications ORDER BY id LIMIT 1',
    );
    const applicationId = rows[0]!.id;
    for (const token of [tokens.developer, tokens.user, tokens.anonymous]) {
      expect([401, 403]).toContain((await del(`/v1/cage-meshes/${mesh.id}`, token)).status);
      expect([401, 403]).toContain((await del(`/v1/applications/${applicationId}`, token)).status);
      expect([401, 403]).toContain(
        (await t.post('/v1/morphed-assets/bulk-delete', { ids: [mesh.id] }, token)).status,
      );
    }
    expectError(await del(`/v1/cage-meshes/${mesh.id}`, tokens.developer), 403);
    expectError(await t.request('DELETE', `/v1/cage-meshes/${mesh.id}`), 401);
    dataOf(await t.get(`/v1/cage-meshes/${mesh.id}`, tokens.admin));

    dataOf(await del(`/v1/cage-meshes/${mesh.id}`));
    expectError(await restore(`/v1/cage-meshes/${mesh.id}`, tokens.developer), 403);
    expectError(await del(`/v1/trash/cage-mesh/${mesh.id}`, tokens.developer), 403);
    // The id of a cage mesh names nothing under another kind, in the Trash or out of it.
    expectError(await restore(`/v1/applications/${mesh.id}`), 404);
    expectError(await restore(`/v1/morphed-assets/${mesh.id}`), 404);
    expectError(await del(`/v1/applications/${mesh.id}`), 404);
    expectError(await t.post('/v1/cage-meshes/bulk-delete', { ids: [] }, tokens.admin), 400);
    dataOf(await restore(`/v1/cage-meshes/${mesh.id}`));
  });
});

describe('purge after the retention period', () => {
  it('deletes cage meshes, applications and morphed assets for ever with their files', async () => {
    const model = await uploadFile(t.request, 'model', glbOfSize(300), tokens.admin);
    const mesh = await newCageMesh('Trash cage purged', model.url);
    const { morphed } = await morphedFromQueue();
    const application = await fullApplication();
    dataOf(await del(`/v1/cage-meshes/${mesh.id}`));
    dataOf(await del(`/v1/morphed-assets/${morphed.id}`));
    dataOf(await del(`/v1/applications/${application.id}`));
    const sweep = (days: number) =>
      sweepFiles(
        { db: t.db, storage: t.storage },
        new Date(t.clock.current.getTime() + days * DAY),
        {
          trashRetentionDays: t.config.trashRetentionDays,
          graceMs: 0,
        },
      );

    expect((await sweep(29)).purged).toBe(0);
    expect((await sweep(31)).purged).toBeGreaterThanOrEqual(3);
    // The sweep purged them: the events name no one.
    for (const [id, key] of [
      [mesh.id, 'cage-mesh.purged.v1'],
      [morphed.id, 'morphed-asset.purged.v1'],
      [application.id, 'application.purged.v1'],
    ]) {
      const rows = listResponseSchema(activityRowSchema).parse(
        (await t.get(`/v1/activity?recordId=${id}`, tokens.admin)).body,
      ).data;
      expect(rows[0]).toMatchObject({ routingKey: key, actorId: null });
    }
    expect(await t.storage.read(keyOfFileUrl(model.url)!)).toBeUndefined();
    for (const path of [
      `/v1/cage-meshes/${mesh.id}`,
      `/v1/morphed-assets/${morphed.id}`,
      `/v1/applications/${application.id}`,
    ]) {
      expectError(await restore(path), 404);
    }
  });
});

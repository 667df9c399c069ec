/**
 * The Trash: deleting an asset or a tag moves it there (gone from every read at once),
 * restoring brings it back as it was, the sweeper purges it after TRASH_RETENTION_DAYS with its
 * files, and only whoever may delete a kind may list, restore or purge it.
 */
import { describe, expect, it } from 'vitest';
import {
  assetEventSchema,
  assetSchema,
  listResponseSchema,
  tagRowSchema,
  trashResultSchema,
  trashRowSchema,
  type Asset,
  type TagRow,
} from '../contract/schemas';
import { sweepFiles } from './file-sweeper';
import { placeSql } from './positions';
import { keyOfFileUrl } from './storage';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';
import { glbOfSize, uploadFile } from './test-files';

const t = useTestApp();
const tokens = useRoleTokens(t);
const DAY = 24 * 3600 * 1000;

const assetPage = listResponseSchema(assetSchema);
const trashPage = listResponseSchema(trashRowSchema);
const del = (path: string, token = tokens.admin) => t.request('DELETE', path, { token });

async function newTag(name: string): Promise<TagRow> {
  return tagRowSchema.parse(dataOf(await t.post('/v1/tags', { name }, tokens.admin)));
}

async function newAsset(name: string, extra: Record<string, unknown> = {}): Promise<Asset> {
  const body = { name, type: 'hair', gender: 'male', ...extra };
  return assetSchema.parse(dataOf(await t.post('/v1/assets', body, tokens.admin)));
}

const asset = async (id: string) =>
  assetSchema.parse(dataOf(await t.get(`/v1/assets/${id}`, tokens.admin)));

async function search(name: string) {
  const query = `/v1/assets?search=${encodeURIComponent(name)}&limit=100`;
  return assetPage.parse((await t.get(query, tokens.admin)).body);
}

async function trashed(query = '') {
  return trashPage.parse((await t.get(`/v1/trash?limit=100${query}`, tokens.admin)).body);
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

/** Every asset id in the global order, checking the places shown are exactly 1..N. */
async function globalOrder(): Promise<string[]> {
  const { rows } = await t.db.query<{ id: string; position: number }>(
    `SELECT a.id, ${placeSql('assets', 'a')} AS position FROM assets a
     ORDER BY a.position, a.rank, a.id`,
  );
  expect(rows.map((row) => row.position)).toEqual(rows.map((_, i) => i + 1));
  return rows.map((row) => row.id);
}

async function routingKeys(assetId: string): Promise<string[]> {
  const log = listResponseSchema(assetEventSchema).parse(
    (await t.get(`/v1/assets/${assetId}/backoffice-changelog?limit=100`, tokens.admin)).body,
  );
  return log.data.map((event) => event.routingKey);
}

/** An application with at least two assets, and a new asset placed second in it. */
async function placedSecond(asset: Asset) {
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT application_id AS id FROM application_assets GROUP BY application_id
     HAVING count(*) >= 2 ORDER BY application_id LIMIT 1`,
  );
  const applicationId = rows[0]!.id;
  dataOf(
    await t.post(
      `/v1/assets/${asset.id}/application`,
      { applicationId, position: 2 },
      tokens.admin,
    ),
  );
  return applicationId;
}

describe('deleting and restoring an asset', () => {
  it('leaves every read at once and comes back as it was: place, tags, application position, users, files, changelog', async () => {
    const tag = await newTag('Trash tag one');
    const model = await uploadFile(t.request, 'model', glbOfSize(200), tokens.admin);
    const created = await newAsset('Trash round trip', { tagIds: [tag.id], modelUrl: model.url });
    // A place in the middle of the global order, so the restore must put it back there.
    dataOf(await t.patch(`/v1/assets/${created.id}/position`, { position: 3 }, tokens.admin));
    const before = await asset(created.id);
    expect(before.position).toBe(3);
    const applicationId = await placedSecond(before);
    const appOrder = await applicationOrder(applicationId);
    expect(appOrder[1]).toBe(created.id);
    const { _id: userId } = await t.signUp();
    const assign = { assetIds: [created.id] };
    dataOf(await t.post(`/private/v1/user-assets/${userId}`, assign, tokens.admin));
    const order = await globalOrder();
    const countBefore = (await search('')).pagination.totalDocs;

    dataOf(await del(`/v1/assets/${created.id}`));

    expectError(await t.get(`/v1/assets/${created.id}`, tokens.admin), 404);
    expect((await search('Trash round trip')).data).toEqual([]);
    expect((await search('')).pagination.totalDocs).toBe(countBefore - 1);
    const counts = dataOf(await t.get('/v1/assets/countByType', tokens.admin)) as {
      type: string;
      count: number;
    }[];
    const hairNow = counts.find((row) => row.type === 'hair')!.count;
    expect(await applicationOrder(applicationId)).toEqual(
      appOrder.filter((id) => id !== created.id),
    );
    expect(await globalOrder()).toEqual(order.filter((id) => id !== created.id));
    const tagRow = tagRowSchema.parse(dataOf(await t.get(`/v1/tags/${tag.id}`, tokens.admin)));
    expect(tagRow.assetCount).toBe(0);
    const users = await t.db.query<{ assets: string[] }>('SELECT assets FROM users WHERE id = $1', [
      userId,
    ]);
    expect(users.rows[0]!.assets).toEqual([]);
    const inTrash = await trashed('&kind=asset&search=round%20trip');
    expect(inTrash.data).toEqual([
      expect.objectContaining({ kind: 'asset', id: created.id, name: 'Trash round trip' }),
    ]);
    expect(inTrash.data[0]!.purgeAt).toBe(
      new Date(t.clock.current.getTime() + 30 * DAY).toISOString(),
    );
    // The model stays stored while the asset is in the Trash, past the upload grace period.
    await sweepFiles({ db: t.db, storage: t.storage }, new Date(Date.now() + 2 * DAY));
    expect(await t.storage.read(keyOfFileUrl(model.url)!)).toBeDefined();

    const restored = trashResultSchema.parse(
      dataOf(await t.post(`/v1/assets/${created.id}/restore`, {}, tokens.admin)),
    );
    expect(restored.items).toEqual([{ kind: 'asset', id: created.id }]);
    const after = await asset(created.id);
    // As it was, but a new version: a form based on the deleted record's version sees a change.
    expect({ ...after, version: before.version }).toEqual(before);
    expect(after.version).toBeGreaterThan(before.version!);
    expect(await globalOrder()).toEqual(order);
    expect(await applicationOrder(applicationId)).toEqual(appOrder);
    const back = await t.db.query<{ assets: string[] }>('SELECT assets FROM users WHERE id = $1', [
      userId,
    ]);
    expect(back.rows[0]!.assets).toEqual([created.id]);
    const countsAfter = dataOf(await t.get('/v1/assets/countByType', tokens.admin)) as {
      type: string;
      count: number;
    }[];
    expect(countsAfter.find((row) => row.type === 'hair')!.count).toBe(hairNow + 1);
    expect((await routingKeys(created.id)).slice(0, 2)).toEqual([
      'asset.restored.v1',
      'asset.deleted.v1',
    ]);
    expect((await routingKeys(created.id)).at(-1)).toBe('asset.created.v1');
    expect((await trashed('&search=round%20trip')).data).toEqual([]);
  });

  it('answers 404 to a second restore and to one of a record never trashed', async () => {
    const created = await newAsset('Trash twice');
    dataOf(await del(`/v1/assets/${created.id}`));
    const [first, second] = await Promise.all([
      t.post(`/v1/assets/${created.id}/restore`, {}, tokens.admin),
      t.post(`/v1/assets/${created.id}/restore`, {}, tokens.admin),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 404]);
    expectError(await t.post('/v1/assets/no-such-asset/restore', {}, tokens.admin), 404);
    expect((await asset(created.id)).name).toBe('Trash twice');
  });

  it('lets a restore and a delete for ever race: one wins, the other is a 404', async () => {
    const created = await newAsset('Trash race');
    dataOf(await del(`/v1/assets/${created.id}`));
    const [restore, purge] = await Promise.all([
      t.post(`/v1/assets/${created.id}/restore`, {}, tokens.admin),
      del(`/v1/trash/asset/${created.id}`),
    ]);
    expect([restore.status, purge.status].sort()).toEqual([200, 404]);
    const exists = (await t.get(`/v1/assets/${created.id}`, tokens.admin)).status === 200;
    expect(exists).toBe(restore.status === 200);
  });

  it('puts back a tag trashed after the asset when that tag is restored', async () => {
    const tag = await newTag('Trash later tag');
    const created = await newAsset('Trash tagged', { tagIds: [tag.id] });
    dataOf(await del(`/v1/assets/${created.id}`));
    dataOf(await del(`/v1/tags/${tag.id}`));
    dataOf(await t.post(`/v1/assets/${created.id}/restore`, {}, tokens.admin));
    expect((await asset(created.id)).tags).toEqual([]);
    dataOf(await t.post(`/v1/tags/${tag.id}/restore`, {}, tokens.admin));
    expect((await asset(created.id)).tags.map((x) => x.id)).toEqual([tag.id]);
  });
});

describe('bulk delete and bulk restore', () => {
  it('restores several assets in one go, each at its old place', async () => {
    const a = await newAsset('Trash bulk A');
    const b = await newAsset('Trash bulk B');
    dataOf(await t.patch(`/v1/assets/${a.id}/position`, { position: 2 }, tokens.admin));
    const order = await globalOrder();
    dataOf(await t.post('/v1/assets/bulk-delete', { ids: [a.id, b.id] }, tokens.admin));
    expect((await search('Trash bulk')).data).toEqual([]);
    expect((await trashed('&search=Trash%20bulk')).pagination.totalDocs).toBe(2);
    // All or none: one id not in the Trash restores nothing.
    expectError(
      await t.post('/v1/assets/bulk-restore', { ids: [a.id, 'missing'] }, tokens.admin),
      404,
    );
    expect((await search('Trash bulk')).data).toEqual([]);
    dataOf(await t.post('/v1/assets/bulk-restore', { ids: [b.id, a.id] }, tokens.admin));
    expect(await globalOrder()).toEqual(order);
  });

  it('restores and deletes for ever records of several kinds through /v1/trash', async () => {
    const tag = await newTag('Trash mixed tag');
    const created = await newAsset('Trash mixed asset', { tagIds: [tag.id] });
    dataOf(await del(`/v1/tags/${tag.id}`));
    dataOf(await del(`/v1/assets/${created.id}`));
    const items = [
      { kind: 'asset', id: created.id },
      { kind: 'tag', id: tag.id },
    ];
    dataOf(await t.post('/v1/trash/bulk-restore', { items }, tokens.admin));
    expect((await asset(created.id)).tags.map((x) => x.id)).toEqual([tag.id]);
    dataOf(await del(`/v1/assets/${created.id}`));
    dataOf(await del(`/v1/tags/${tag.id}`));
    dataOf(await t.post('/v1/trash/bulk-delete', { items }, tokens.admin));
    expectError(await t.post('/v1/trash/bulk-restore', { items }, tokens.admin), 404);
    expect(await routingKeys(created.id)).toContain('asset.purged.v1');
  });
});

describe('deleting and restoring a tag', () => {
  it('takes the tag off its assets and puts it back on them, with their update events', async () => {
    const tag = await newTag('Trash tag two');
    const created = await newAsset('Trash tag holder', { tagIds: [tag.id] });
    dataOf(await del(`/v1/tags/${tag.id}`));
    expectError(await t.get(`/v1/tags/${tag.id}`, tokens.admin), 404);
    expect((await asset(created.id)).tags).toEqual([]);
    dataOf(await t.post(`/v1/tags/${tag.id}/restore`, {}, tokens.admin));
    expect((await asset(created.id)).tags.map((x) => x.id)).toEqual([tag.id]);
    expect((await routingKeys(created.id)).slice(0, 2)).toEqual([
      'asset.updated.v2',
      'asset.updated.v1',
    ]);
  });

  it('refuses to restore a tag whose name was taken meanwhile (409) and keeps it in the Trash', async () => {
    const tag = await newTag('Trash clash');
    dataOf(await del(`/v1/tags/${tag.id}`));
    await newTag('trash CLASH');
    const error = expectError(await t.post(`/v1/tags/${tag.id}/restore`, {}, tokens.admin), 409);
    expect(error.message).toContain('Trash clash');
    expect((await trashed('&kind=tag&search=clash')).data.map((row) => row.id)).toEqual([tag.id]);
  });
});

describe('roles', () => {
  it('lets only whoever may delete a kind list, restore or purge it', async () => {
    const created = await newAsset('Trash roles');
    dataOf(await del(`/v1/assets/${created.id}`));
    for (const token of [tokens.developer, tokens.user, tokens.anonymous]) {
      expectError(await t.get('/v1/trash', token), 403);
      expectError(await t.post(`/v1/assets/${created.id}/restore`, {}, token), 403);
      expectError(await del(`/v1/trash/asset/${created.id}`, token), 403);
    }
    expectError(await t.get('/v1/trash'), 401);
    expectError(await del(`/v1/trash/nonsense/${created.id}`), 404);
    expectError(await t.get('/v1/trash?kind=user', tokens.admin), 400);
    expectError(await t.post('/v1/trash/bulk-restore', { items: [] }, tokens.admin), 400);
  });
});

describe('purge after the retention period', () => {
  it('deletes records older than TRASH_RETENTION_DAYS with their files, records it, and is idempotent', async () => {
    const model = await uploadFile(t.request, 'model', glbOfSize(300), tokens.admin);
    const created = await newAsset('Trash purged', { modelUrl: model.url });
    dataOf(await del(`/v1/assets/${created.id}`));
    const key = keyOfFileUrl(model.url)!;
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
    expect(await t.storage.read(key)).toBeDefined();
    const swept = await sweep(31);
    expect(swept.purged).toBeGreaterThanOrEqual(1);
    expect(await t.storage.read(key)).toBeUndefined();
    expect((await trashed('&search=Trash%20purged')).data).toEqual([]);
    expectError(await t.post(`/v1/assets/${created.id}/restore`, {}, tokens.admin), 404);
    expect(await routingKeys(created.id)).toContain('asset.purged.v1');
    expect((await sweep(32)).purged).toBe(0);
  });
});

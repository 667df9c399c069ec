/**
 * Several assets in one transaction, all or none: POST /v1/assets/bulk-delete, /bulk-lock,
 * /bulk-unlock, /bulk-set-tag and /bulk-remove-tag.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  assetBulkChangeResultSchema,
  assetBulkDeleteResultSchema,
  assetEventSchema,
  assetSchema,
  listResponseSchema,
  tagRowSchema,
  type Asset,
  type StreamEvent,
} from '../contract/schemas';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

async function newAsset(token: string, name: string): Promise<Asset> {
  return assetSchema.parse(
    dataOf(await t.post('/v1/assets', { name, type: 'hair', gender: 'male' }, token)),
  );
}

const totalAssets = async (token: string) =>
  listResponseSchema(assetSchema).parse((await t.get('/v1/assets?limit=1', token)).body).pagination
    .totalDocs;

describe('POST /v1/assets/bulk-delete', () => {
  it('deletes every asset given in one go, renumbers the rest and records bulk-deleted on each', async () => {
    const admin = (await t.loginAs('admin')).token;
    const before = await totalAssets(admin);
    const assets = [await newAsset(admin, 'Bulk A'), await newAsset(admin, 'Bulk B')];
    const ids = assets.map((a) => a.id);
    const result = assetBulkDeleteResultSchema.parse(
      dataOf(await t.post('/v1/assets/bulk-delete', { ids: [...ids, ids[0]] }, admin)),
    );
    expect(result.deleted).toEqual([...ids].sort());
    for (const id of ids) expectError(await t.get(`/v1/assets/${id}`, admin), 404);
    expect(await totalAssets(admin)).toBe(before);
    const positions = listResponseSchema(assetSchema)
      .parse((await t.get('/v1/assets?limit=100&order=position', admin)).body)
      .data.map((a) => a.position);
    expect(positions).toEqual(positions.map((_, i) => i + 1));
    const log = listResponseSchema(assetEventSchema).parse(
      (await t.get(`/v1/assets/${ids[0]}/backoffice-changelog`, admin)).body,
    );
    expect(log.data[0]).toMatchObject({ routingKey: 'asset.bulk-deleted.v1' });
    expect(log.data[0]!.data).toMatchObject({ ids: [...ids].sort() });
  });

  it('deletes nothing when one asset is locked, and names the locked ones', async () => {
    const admin = (await t.loginAs('admin')).token;
    const free = await newAsset(admin, 'Bulk free');
    const held = await newAsset(admin, 'Bulk held');
    dataOf(await t.request('PUT', `/v1/assets/${held.id}/lock`, { body: {}, token: admin }));
    const error = expectError(
      await t.post('/v1/assets/bulk-delete', { ids: [free.id, held.id] }, admin),
      409,
      'ASSET_LOCKED',
    );
    expect(error.message).toContain('Bulk held');
    expect(error.message).not.toContain('Bulk free');
    dataOf(await t.get(`/v1/assets/${free.id}`, admin));
    expectError(await t.post('/v1/assets/bulk-delete', { ids: [free.id, 'nope'] }, admin), 404);
    dataOf(await t.get(`/v1/assets/${free.id}`, admin));
  });

  it('is for roles that may delete assets, and takes 1 to 100 ids', async () => {
    const admin = (await t.loginAs('admin')).token;
    const developer = (await t.loginAs('developer')).token;
    const asset = await newAsset(admin, 'Bulk kept');
    expectError(await t.post('/v1/assets/bulk-delete', { ids: [asset.id] }, developer), 403);
    expectError(await t.post('/v1/assets/bulk-delete', { ids: [] }, admin), 400);
    const many = Array.from({ length: 101 }, (_, i) => `id${i}`);
    expectError(await t.post('/v1/assets/bulk-delete', { ids: many }, admin), 400);
    dataOf(await t.get(`/v1/assets/${asset.id}`, admin));
  });
});

const bulkResult = (response: Parameters<typeof dataOf>[0]) =>
  assetBulkChangeResultSchema.parse(dataOf(response));

/** An asset's events, newest first (the changelog). */
async function eventsOf(id: string) {
  return listResponseSchema(assetEventSchema).parse(
    (await t.get(`/v1/assets/${id}/backoffice-changelog?limit=100`, tokens.admin)).body,
  ).data;
}

const readAsset = async (id: string) =>
  assetSchema.parse(dataOf(await t.get(`/v1/assets/${id}`, tokens.admin)));

async function newTag(name: string): Promise<string> {
  return tagRowSchema.parse(dataOf(await t.post('/v1/tags', { name }, tokens.admin))).id;
}

describe('POST /v1/assets/bulk-lock, /bulk-unlock', () => {
  it('locks every asset given in one go and records locked on each one it changed', async () => {
    const assets = [
      await newAsset(tokens.admin, 'Lock A'),
      await newAsset(tokens.admin, 'Lock B'),
      await newAsset(tokens.admin, 'Lock C'),
    ];
    const [a, b, c] = assets.map((asset) => asset.id) as [string, string, string];
    dataOf(await t.request('PUT', `/v1/assets/${c}/lock`, { body: {}, token: tokens.admin }));
    const live: StreamEvent[] = [];
    const unsubscribe = await t.events.subscribe((events) => live.push(...events));

    const locked = bulkResult(
      await t.post(
        '/v1/assets/bulk-lock',
        { ids: [c, a, b, a], reason: 'Release freeze' },
        tokens.developer,
      ),
    );
    // The ones it changed, for an Undo that puts back exactly those; every asset as it is now.
    expect(locked.changed).toEqual([a, b].sort());
    expect(locked.assets.map((asset) => asset.id)).toEqual([a, b, c].sort());
    expect(locked.assets.every((asset) => asset.locked)).toBe(true);
    for (const id of [a, b]) {
      expect((await eventsOf(id))[0]).toMatchObject({
        routingKey: 'asset.locked.v1',
        actorId: tokens.developerId,
        data: { locked: true, reason: 'Release freeze' },
      });
    }
    // Already locked: nothing recorded beyond its own lock.
    expect((await eventsOf(c)).filter((e) => e.routingKey === 'asset.locked.v1')).toHaveLength(1);
    // The live stream carries the same events, once each.
    await vi.waitFor(() =>
      expect(live.map((e) => `${e.routingKey} ${e.assetId}`).sort()).toEqual(
        [a, b].map((id) => `asset.locked.v1 ${id}`).sort(),
      ),
    );
    unsubscribe();

    const unlocked = bulkResult(
      await t.post('/v1/assets/bulk-unlock', { ids: locked.changed }, tokens.developer),
    );
    expect(unlocked.changed).toEqual(locked.changed);
    expect((await readAsset(a)).locked).toBe(false);
    expect((await readAsset(c)).locked).toBe(true);
    expect((await eventsOf(b))[0]).toMatchObject({
      routingKey: 'asset.locked.v1',
      data: { locked: false },
    });
  });

  it('changes nothing when one id is unknown', async () => {
    const asset = await newAsset(tokens.admin, 'Lock unknown');
    const before = (await eventsOf(asset.id)).length;
    const error = expectError(
      await t.post('/v1/assets/bulk-lock', { ids: [asset.id, 'nope'] }, tokens.admin),
      404,
    );
    expect(error.message).toContain('nope');
    expect((await readAsset(asset.id)).locked).toBe(false);
    expect(await eventsOf(asset.id)).toHaveLength(before);
  });

  it('is for roles that may update assets, on both mounts, and takes 1 to 100 ids', async () => {
    const asset = await newAsset(tokens.admin, 'Lock roles');
    const body = { ids: [asset.id] };
    expectError(await t.post('/v1/assets/bulk-lock', body), 401);
    expectError(await t.post('/v1/assets/bulk-lock', body, tokens.user), 403);
    expectError(await t.post('/v1/assets/bulk-unlock', body, tokens.anonymous), 403);
    expectError(await t.post('/private/v1/assets/bulk-lock', body, tokens.user), 403);
    expect((await readAsset(asset.id)).locked).toBe(false);
    expectError(await t.post('/v1/assets/bulk-lock', { ids: [] }, tokens.admin), 400);
    const many = Array.from({ length: 101 }, (_, i) => `id${i}`);
    expectError(await t.post('/v1/assets/bulk-lock', { ids: many }, tokens.admin), 400);
    expectError(
      await t.post(
        '/v1/assets/bulk-lock',
        { ids: [asset.id], reason: 'x'.repeat(501) },
        tokens.admin,
      ),
      400,
    );
    expect(
      bulkResult(await t.post('/private/v1/assets/bulk-lock', body, tokens.developer)).changed,
    ).toEqual([asset.id]);
  });
});

describe('POST /v1/assets/bulk-set-tag, /bulk-remove-tag', () => {
  it('puts one tag on every asset given and records the update on each one it changed', async () => {
    const tagId = await newTag('Bulk tag');
    const tagged = await newAsset(tokens.admin, 'Tag had');
    const plain = await newAsset(tokens.admin, 'Tag plain');
    dataOf(await t.post('/v1/tags/set-tag', { assetId: tagged.id, tagId }, tokens.admin));
    const taggedEvents = (await eventsOf(tagged.id)).length;

    const result = bulkResult(
      await t.post(
        '/v1/assets/bulk-set-tag',
        { ids: [tagged.id, plain.id], tagId },
        tokens.developer,
      ),
    );
    expect(result.changed).toEqual([plain.id]);
    for (const asset of result.assets) expect(asset.tags.map((tag) => tag.id)).toEqual([tagId]);
    const [newest, second] = await eventsOf(plain.id);
    expect([newest?.routingKey, second?.routingKey].sort()).toEqual([
      'asset.updated.v1',
      'asset.updated.v2',
    ]);
    const update = [newest, second].find((e) => e?.routingKey === 'asset.updated.v1');
    expect(update).toMatchObject({
      actorId: tokens.developerId,
      data: { changes: { tagIds: { from: [], to: [tagId] } } },
    });
    expect(await eventsOf(tagged.id)).toHaveLength(taggedEvents);

    const removed = bulkResult(
      await t.post(
        '/v1/assets/bulk-remove-tag',
        { ids: [plain.id, tagged.id], tagId },
        tokens.admin,
      ),
    );
    expect(removed.changed).toEqual([plain.id, tagged.id].sort());
    expect(removed.assets.every((asset) => asset.tags.length === 0)).toBe(true);
    expect(
      (await eventsOf(tagged.id)).find((e) => e.routingKey === 'asset.updated.v1'),
    ).toMatchObject({ data: { changes: { tagIds: { from: [tagId], to: [] } } } });
  });

  it('tags none when one asset is locked, and names every locked one', async () => {
    const tagId = await newTag('Bulk refused');
    const free = await newAsset(tokens.admin, 'Tag free');
    const held = await newAsset(tokens.admin, 'Tag held');
    dataOf(await t.request('PUT', `/v1/assets/${held.id}/lock`, { body: {}, token: tokens.admin }));
    const before = (await eventsOf(free.id)).length;
    for (const path of ['/v1/assets/bulk-set-tag', '/v1/assets/bulk-remove-tag']) {
      const error = expectError(
        await t.post(path, { ids: [free.id, held.id], tagId }, tokens.admin),
        409,
        'ASSET_LOCKED',
      );
      expect(error.message).toContain('Tag held');
      expect(error.message).not.toContain('Tag free');
    }
    expect((await readAsset(free.id)).tags).toEqual([]);
    expect(await eventsOf(free.id)).toHaveLength(before);
    // An unknown tag or asset changes nothing either.
    expectError(
      await t.post('/v1/assets/bulk-set-tag', { ids: [free.id], tagId: 'nope' }, tokens.admin),
      404,
    );
    expectError(
      await t.post('/v1/assets/bulk-set-tag', { ids: [free.id, 'nope'], tagId }, tokens.admin),
      404,
    );
    expect((await readAsset(free.id)).tags).toEqual([]);
  });

  it('is for roles that may update assets, and needs a tag and 1 to 100 ids', async () => {
    const tagId = await newTag('Bulk roles');
    const asset = await newAsset(tokens.admin, 'Tag roles');
    const body = { ids: [asset.id], tagId };
    expectError(await t.post('/v1/assets/bulk-set-tag', body), 401);
    expectError(await t.post('/v1/assets/bulk-set-tag', body, tokens.user), 403);
    expectError(await t.post('/v1/assets/bulk-remove-tag', body, tokens.anonymous), 403);
    expectError(await t.post('/v1/assets/bulk-set-tag', { ids: [asset.id] }, tokens.admin), 400);
    expectError(await t.post('/v1/assets/bulk-set-tag', { ids: [], tagId }, tokens.admin), 400);
    expect((await readAsset(asset.id)).tags).toEqual([]);
    expect(
      bulkResult(await t.post('/private/v1/assets/bulk-set-tag', body, tokens.developer)).changed,
    ).toEqual([asset.id]);
  });
});

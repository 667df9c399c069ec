/** POST /v1/assets/bulk-delete: several assets in one transaction, all or none. */
import { describe, expect, it } from 'vitest';
import {
  assetBulkDeleteResultSchema,
  assetEventSchema,
  assetSchema,
  listResponseSchema,
  type Asset,
} from '../src/api/schemas';
import { dataOf, expectError, useTestApp } from './test-app';

const t = useTestApp();

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

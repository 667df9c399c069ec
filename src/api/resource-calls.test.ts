/**
 * Every call of spec §7 "Cage meshes and tags" (tags), "User assets" and the morphs of "Assets": the
 * method, path, query and body it sends, what it answers, and the service name its failures
 * carry (§8). The asset's and the cage mesh's calls: src/features/<name>/api/requests.test.ts.
 */
import { describe, expect, it } from 'vitest';
import * as morphs from './morphs';
import type { Asset } from '../../contract/schemas';
import * as tags from './tags';
import { serveApi, describeCalls, type CallCase, testAsset } from './testing';
import * as userAssets from './user-assets';

const NOW = '2026-01-01T00:00:00.000Z';
const ASSET: Asset = testAsset({ id: 'a 1', modelUrl: '/files/m.glb' });
const TAG_ROW = { id: 't1', name: 'Summer', assetCount: 1, createdAt: NOW, updatedAt: NOW };
const QUEUE = {
  id: 'q1',
  sourceAssetId: 'a 1',
  sourceAssetName: 'Jacket',
  bodyAssetId: 'b1',
  bodyAssetName: 'Body',
  status: 'queued',
  progress: 0,
  error: null,
  morphedAssetId: null,
  createdAt: NOW,
  updatedAt: NOW,
};
const STATUS = [{ id: 'q1', status: 'completed', progress: 1, error: null, morphedAssetId: 'm1' }];
const USER_ASSETS = { userId: 'u 2', assetIds: ['a 1'] };

const withData = (data: unknown) => ({ data });

const CASES: CallCase[] = [
  // Morphs (asset service).
  {
    name: 'generateMorphedAssets',
    call: () => morphs.generateMorphedAssets({ sourceAssetId: 'a 1', bodyAssetIds: ['b1'] }),
    route: 'POST v1/morphed-assets/generate',
    body: { sourceAssetId: 'a 1', bodyAssetIds: ['b1'] },
    answer: withData([QUEUE]),
    service: 'assets',
  },
  {
    name: 'generateMorphedAssets (private)',
    call: () =>
      morphs.generateMorphedAssets(
        { sourceAssetId: 'a 1', bodyAssetIds: ['b1', 'b2'] },
        { scope: 'private' },
      ),
    route: 'POST private/v1/morphed-assets/generate',
    body: { sourceAssetId: 'a 1', bodyAssetIds: ['b1', 'b2'] },
    answer: withData([QUEUE]),
    service: 'assets',
  },
  {
    name: 'morphQueueStatus',
    call: () => morphs.morphQueueStatus(['q1', 'q2']),
    route: 'GET v1/morphed-asset-queue/status?ids=q1&ids=q2',
    answer: withData(STATUS),
    service: 'assets',
  },
  // Tags.
  {
    name: 'createTag',
    call: () => tags.createTag('Summer'),
    route: 'POST v1/tags',
    body: { name: 'Summer' },
    answer: withData({ id: 't1', name: 'Summer' }),
    service: 'tags',
  },
  {
    name: 'renameTag',
    call: () => tags.renameTag('t 1', 'Winter'),
    route: 'PUT v1/tags/t%201',
    body: { name: 'Winter' },
    answer: withData(TAG_ROW),
    service: 'tags',
  },
  {
    name: 'deleteTag',
    call: () => tags.deleteTag('t1'),
    route: 'DELETE v1/tags/t1',
    answer: withData({ id: 't1', name: 'Winter' }),
    service: 'tags',
  },
  {
    name: 'setTag',
    call: () => tags.setTag('a 1', 't1'),
    route: 'POST v1/tags/set-tag',
    body: { assetId: 'a 1', tagId: 't1' },
    answer: withData(ASSET),
    service: 'tags',
  },
  {
    name: 'removeTag',
    call: () => tags.removeTag('a 1', 't1'),
    route: 'POST v1/tags/remove-tag',
    body: { assetId: 'a 1', tagId: 't1' },
    answer: withData(ASSET),
    service: 'tags',
  },
  // User assets.
  {
    name: 'addUserAssets',
    call: () => userAssets.addUserAssets('u 2', ['a 1']),
    route: 'POST private/v1/user-assets/u%202',
    body: { assetIds: ['a 1'] },
    answer: withData(USER_ASSETS),
    service: 'privateUserAssets',
  },
  {
    name: 'removeUserAssets',
    call: () => userAssets.removeUserAssets('u 2', ['a 1']),
    route: 'DELETE private/v1/user-assets/u%202',
    body: { assetIds: ['a 1'] },
    answer: withData(USER_ASSETS),
    service: 'privateUserAssets',
  },
];

describeCalls(CASES, 'ASSET_LOCKED');

describe('a change based on a version', () => {
  const ROW = { ...TAG_ROW, version: 4 };
  it.each([
    {
      call: () => tags.renameTag('t1', 'Winter', 3),
      route: 'PUT v1/tags/t1',
      answer: withData(ROW),
    },
  ])('$route sends it as If-Match', async ({ call, route, answer }) => {
    const server = serveApi({ [route]: [200, answer] });
    await call();
    expect(server.calls.map((sent) => sent.ifMatch)).toEqual(['"3"']);
  });

  it('a change without one sends no If-Match (the last writer wins)', async () => {
    const server = serveApi({ 'PUT v1/tags/t1': [200, withData(ROW)] });
    await tags.renameTag('t1', 'Winter');
    expect(server.calls.map((sent) => sent.ifMatch)).toEqual([null]);
  });
});

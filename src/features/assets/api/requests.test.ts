/**
 * Every call of spec §7 "Assets" (the asset, where it is placed, its export): the method, path,
 * query and body it sends, what it answers, and the service name its failures carry (§8). The
 * other resources' calls: src/api/resource-calls.test.ts.
 */
import { describe, expect, it } from 'vitest';
import * as placements from './placements';
import * as assets from './requests';
import type { Asset } from '../../../../contract/schemas';
import { serveApi, describeCalls, type CallCase, testAsset } from '../../../api/testing';

const NOW = '2026-01-01T00:00:00.000Z';
const ASSET: Asset = testAsset({ id: 'a 1', modelUrl: '/files/m.glb' });
const PAGINATION = { page: 1, limit: 10, totalDocs: 1, totalPages: 1, hasNextPage: false };
const page = (row: unknown) => ({ data: [row], pagination: PAGINATION });
const APP_ASSET = {
  id: 'aa1',
  applicationId: 'app1',
  assetId: 'a 1',
  position: 2,
  syncedAt: null,
  createdAt: NOW,
  asset: { id: 'a 1', name: 'Jacket', type: 'top', gender: 'unisex', iconUrl: null, locked: false },
};
const EVENT = {
  id: 'e1',
  assetId: 'a 1',
  routingKey: 'asset.created.v1',
  actorId: 'u1',
  actorEmail: 'admin@avatar.studio',
  data: {},
  createdAt: NOW,
};
const REPORT = { valid: true, errors: [], warnings: [], infos: 0, hints: 0, stats: {} };

const withData = (data: unknown) => ({ data });

const CASES: CallCase[] = [
  // Assets, public and private.
  {
    name: 'countByType (private)',
    call: () => assets.countByType({ type: 'top' }, { scope: 'private' }),
    route: 'GET private/v1/assets/countByType?type=top',
    answer: withData([{ type: 'top', count: 1 }]),
    service: 'assets',
  },
  {
    name: 'getAsset',
    call: () => assets.getAsset('a 1'),
    route: 'GET v1/assets/a%201',
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'createAsset',
    call: () => assets.createAsset({ name: 'Jacket', type: 'top', gender: 'unisex' }),
    route: 'POST v1/assets',
    body: { name: 'Jacket', type: 'top', gender: 'unisex' },
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'createAsset (private)',
    call: () =>
      assets.createAsset({ name: 'J', type: 'top', gender: 'male' }, { scope: 'private' }),
    route: 'POST private/v1/assets',
    body: { name: 'J', type: 'top', gender: 'male' },
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'createAssetFromTemplate (private only)',
    call: () => assets.createAssetFromTemplate({ templateId: 't 1', name: 'Copy' }),
    route: 'POST private/v1/assets/using-template',
    body: { templateId: 't 1', name: 'Copy' },
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'updateAsset',
    call: () => assets.updateAsset('a 1', { name: 'Coat', iconUrl: null }),
    route: 'PATCH v1/assets/a%201',
    body: { name: 'Coat', iconUrl: null },
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'deleteAsset (private)',
    call: () => assets.deleteAsset('a 1', { scope: 'private' }),
    route: 'DELETE private/v1/assets/a%201',
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'lockAsset',
    call: () => assets.lockAsset('a 1'),
    route: 'PUT v1/assets/a%201/lock',
    body: {},
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'unlockAsset (private)',
    call: () => assets.unlockAsset('a 1', {}, { scope: 'private' }),
    route: 'PUT private/v1/assets/a%201/unlock',
    body: {},
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'lockAsset with a reason',
    call: () => assets.lockAsset('a 1', { reason: 'Approved for launch', ticket: 'QA-7' }),
    route: 'PUT v1/assets/a%201/lock',
    body: { reason: 'Approved for launch', ticket: 'QA-7' },
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'unlockAsset with a reason',
    call: () => assets.unlockAsset('a 1', { reason: 'Fix the normals' }),
    route: 'PUT v1/assets/a%201/unlock',
    body: { reason: 'Fix the normals' },
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'generateIconFromModel',
    call: () => assets.generateIconFromModel('a 1'),
    route: 'POST v1/assets/a%201/generate-icon-from-model',
    body: {},
    answer: withData(ASSET),
    service: 'assets',
  },
  {
    name: 'predictTexture',
    call: () => assets.predictTexture({ modelUrl: '/files/m.glb' }),
    route: 'POST v1/assets/predict-texture',
    body: { modelUrl: '/files/m.glb' },
    answer: withData({
      url: '/files/t.png',
      name: 'predicted texture.png',
      size: 10,
      contentType: 'image/png',
    }),
    service: 'assets',
  },
  {
    name: 'validateAsset',
    call: () => assets.validateAsset({ modelUrl: '/files/m.glb' }),
    route: 'POST v1/assets/validate',
    body: { modelUrl: '/files/m.glb' },
    answer: withData(REPORT),
    service: 'assets',
  },
  {
    name: 'assetChangelog',
    call: () => assets.assetChangelog('a 1', { page: 2, limit: 5 }),
    route: 'GET v1/assets/a%201/backoffice-changelog?page=2&limit=5',
    answer: page(EVENT),
    result: page(EVENT),
    service: 'assets',
  },
  {
    name: 'assetApplications',
    call: () => placements.assetApplications('a 1', { limit: 50 }),
    route: 'GET v1/assets/a%201/application?limit=50',
    answer: page({ ...APP_ASSET, applicationName: 'Summer' }),
    result: page({ ...APP_ASSET, applicationName: 'Summer' }),
    service: 'assets',
  },
  {
    name: 'addAssetToApplication',
    call: () => placements.addAssetToApplication('a 1', { applicationId: 'app1' }),
    route: 'POST v1/assets/a%201/application',
    body: { applicationId: 'app1' },
    answer: withData({ ...APP_ASSET, applicationName: 'Summer' }),
    service: 'assets',
  },
  {
    name: 'updateAssetApplication',
    call: () => placements.updateAssetApplication('a 1', { applicationId: 'app1', position: 2 }),
    route: 'PATCH v1/assets/a%201/application',
    body: { applicationId: 'app1', position: 2 },
    answer: withData({ ...APP_ASSET, applicationName: 'Summer' }),
    service: 'assets',
  },
  {
    name: 'removeAssetFromApplication',
    call: () => placements.removeAssetFromApplication('a 1', { applicationId: 'app1' }),
    route: 'DELETE v1/assets/a%201/application',
    body: { applicationId: 'app1' },
    answer: withData(APP_ASSET),
    service: 'assets',
  },
  {
    name: 'syncWithParent (private)',
    call: () => placements.syncWithParent('aa1', { scope: 'private' }),
    route: 'POST private/v1/application-assets/aa1/sync-with-parent',
    body: {},
    answer: withData(APP_ASSET),
    service: 'assets',
  },
];

describeCalls(CASES, 'ASSET_LOCKED');

describe('a change based on a version', () => {
  it.each([
    {
      call: () => assets.updateAsset('a 1', { name: 'Coat' }, { baseVersion: 3 }),
      route: 'PATCH v1/assets/a%201',
      answer: withData(ASSET),
    },
    {
      call: () =>
        placements.updateAssetApplication(
          'a 1',
          { applicationId: 'app1', position: 1 },
          { baseVersion: 3 },
        ),
      route: 'PATCH v1/assets/a%201/application',
      answer: withData({ ...APP_ASSET, applicationName: 'Summer' }),
    },
  ])('$route sends it as If-Match', async ({ call, route, answer }) => {
    const server = serveApi({ [route]: [200, answer] });
    await call();
    expect(server.calls.map((sent) => sent.ifMatch)).toEqual(['"3"']);
  });
});

describe('exportApplicationAssets', () => {
  it('downloads the file with the name the server gave it', async () => {
    serveApi({
      'GET v1/assets/export/app%201': () =>
        new Response('{"assets":[]}', {
          headers: {
            'content-type': 'application/json',
            'content-disposition': 'attachment; filename="summer-assets.json"',
          },
        }),
    });
    const file = await placements.exportApplicationAssets('app 1');
    expect(file.filename).toBe('summer-assets.json');
    expect(await file.blob.text()).toBe('{"assets":[]}');
  });

  it('tags a failure with the assets service', async () => {
    serveApi({
      'GET private/v1/assets/export/x': [
        404,
        { status: 404, code: 'NOT_FOUND', message: 'No application' },
      ],
    });
    await expect(
      placements.exportApplicationAssets('x', { scope: 'private' }),
    ).rejects.toMatchObject({
      status: 404,
      service: 'assets',
    });
  });

  it.each([
    ['attachment; filename="a b.json"', 'a b.json'],
    ["attachment; filename*=UTF-8''%C3%A9t%C3%A9.json", 'été.json'],
    ['attachment; filename=plain.json', 'plain.json'],
    [null, 'fallback.json'],
    ['inline', 'fallback.json'],
  ])('reads the file name of %s', (header, name) => {
    expect(placements.filenameOf(header, 'fallback.json')).toBe(name);
  });
});

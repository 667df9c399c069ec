/**
 * Each change of an asset sends its request and brings the cache up to date with it: what a
 * screen showing the record or a list would read next. A failed change leaves the cache as it
 * was and rejects with the server's error. (The other records' changes: src/api/mutations.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors';
import { listQueryKey } from '../../../api/lists';
import {
  assignAssets,
  placeAsset,
  saveAsset,
  setAssetsLocked,
  setAssetTags,
  setTagOnAssets,
  trashAsset,
  trashAssets,
} from './mutations';
import { queryClient } from '../../../api/query';
import { configureSession } from '../../../api/session-bridge';
import { failure, serveApi, staleness, signedInSession, testAsset } from '../../../api/testing';

const NOW = '2026-01-01T00:00:00.000Z';
const ASSET = testAsset();
const PAGE = {
  data: [ASSET],
  pagination: { page: 1, limit: 10, totalDocs: 1, totalPages: 1, hasNextPage: false },
};
const RECORD = ['assets', 'a1', 'public'];
const CHANGELOG = ['assets', 'a1', 'changelog'];
const APPLICATIONS = ['assets', 'a1', 'applications'];
const COUNTS = ['asset-counts'];
const ASSETS_LIST = listQueryKey('v1/assets');
const USER_ASSETS_LIST = listQueryKey('v1/user-assets/u2');
const PLACEMENTS_LIST = listQueryKey('v1/application-assets?applicationId=app1');
const TAGS_LIST = listQueryKey('v1/tags');
const LOCKED = { status: 409, code: 'ASSET_LOCKED', message: 'The asset is locked' };

/** Caches what the asset's page and the lists showed before the change. */
function showing() {
  queryClient.setQueryData(RECORD, ASSET);
  for (const key of [CHANGELOG, APPLICATIONS, COUNTS, ASSETS_LIST, USER_ASSETS_LIST]) {
    queryClient.setQueryData(key, PAGE);
  }
  queryClient.setQueryData(PLACEMENTS_LIST, PAGE);
  queryClient.setQueryData(TAGS_LIST, PAGE);
}

beforeEach(() => {
  configureSession(signedInSession());
  showing();
});

afterEach(() => {
  configureSession(null);
  queryClient.clear();
});

describe('saveAsset', () => {
  it('sends the changed fields; the page shows the answer, the changelog and lists read again', async () => {
    const saved = { ...ASSET, name: 'Coat' };
    const server = serveApi({ 'PATCH v1/assets/a1': [200, { data: saved }] });
    expect(await saveAsset('a1', { name: 'Coat' }, { baseVersion: 3 })).toEqual(saved);
    expect(server.sent()).toEqual(['PATCH v1/assets/a1 {"name":"Coat"}']);
    expect(server.calls[0]?.ifMatch).toBe('"3"');
    expect(queryClient.getQueryData(RECORD)).toEqual(saved);
    expect(staleness(CHANGELOG, ASSETS_LIST, USER_ASSETS_LIST, TAGS_LIST)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('a refused change reaches the caller and the cache stays as it was', async () => {
    serveApi({ 'PATCH v1/assets/a1': [409, LOCKED] });
    const error = await failure(saveAsset('a1', { name: 'Coat' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'ASSET_LOCKED', service: 'assets' });
    expect(queryClient.getQueryData(RECORD)).toEqual(ASSET);
    expect(staleness(CHANGELOG, ASSETS_LIST)).toEqual([false, false]);
  });
});

describe('trashAsset', () => {
  it('deletes; the lists and the counts read again, and its own reads go', async () => {
    const server = serveApi({ 'DELETE v1/assets/a1': [200, { data: { id: 'a1' } }] });
    await trashAsset('a1');
    expect(server.sent()).toEqual(['DELETE v1/assets/a1 ']);
    expect(staleness(ASSETS_LIST, COUNTS, RECORD)).toEqual([true, true, 'gone']);
  });

  it('a locked asset is refused, and nothing is read again', async () => {
    serveApi({ 'DELETE v1/assets/a1': [409, LOCKED] });
    expect(await failure(trashAsset('a1'))).toMatchObject({ code: 'ASSET_LOCKED' });
    expect(staleness(ASSETS_LIST, COUNTS, RECORD)).toEqual([false, false, false]);
  });
});

describe('bulk changes of assets', () => {
  it('locks a selection; every asset answered becomes the cached record, the lists read again', async () => {
    const locked = { ...ASSET, locked: true };
    const server = serveApi({
      'POST v1/assets/bulk-lock': [200, { data: { changed: ['a1'], assets: [locked] } }],
    });
    expect(await setAssetsLocked(['a1'], true)).toMatchObject({ changed: ['a1'] });
    expect(server.sent()).toEqual(['POST v1/assets/bulk-lock {"ids":["a1"]}']);
    expect(queryClient.getQueryData(RECORD)).toEqual(locked);
    expect(staleness(CHANGELOG, ASSETS_LIST)).toEqual([true, true]);
  });

  it('tags a selection the same way, and deletes one: its own reads go, the counts read again', async () => {
    const tagged = { ...ASSET, tags: [{ id: 't1', name: 'Blue' }] };
    serveApi({
      'POST v1/assets/bulk-set-tag': [200, { data: { changed: ['a1'], assets: [tagged] } }],
    });
    await setTagOnAssets(['a1'], 't1', true);
    expect(queryClient.getQueryData(RECORD)).toEqual(tagged);

    serveApi({ 'POST v1/assets/bulk-delete': [200, { data: { deleted: ['a1'] } }] });
    expect(await trashAssets(['a1'])).toEqual(['a1']);
    expect(staleness(ASSETS_LIST, COUNTS, RECORD)).toEqual([true, true, 'gone']);
  });

  it('a selection with a locked asset is refused, and the cache stays as it was', async () => {
    serveApi({ 'POST v1/assets/bulk-delete': [409, LOCKED] });
    expect(await failure(trashAssets(['a1']))).toMatchObject({ code: 'ASSET_LOCKED' });
    expect(queryClient.getQueryData(RECORD)).toEqual(ASSET);
    expect(staleness(ASSETS_LIST, COUNTS, RECORD)).toEqual([false, false, false]);
  });
});

describe('setAssetTags', () => {
  it('puts on the new tags and takes off the others; the page shows the last answer', async () => {
    const summer = { id: 't1', name: 'Summer' };
    const winter = { id: 't2', name: 'Winter' };
    const tagged = { ...ASSET, tags: [summer, winter] };
    const server = serveApi({
      'POST v1/tags/set-tag': [200, { data: tagged }],
      'POST v1/tags/remove-tag': [200, { data: { ...ASSET, tags: [winter] } }],
    });
    const asset = await setAssetTags({ ...ASSET, tags: [summer] }, ['t2']);
    expect(server.sent()).toEqual([
      'POST v1/tags/set-tag {"assetId":"a1","tagId":"t2"}',
      'POST v1/tags/remove-tag {"assetId":"a1","tagId":"t1"}',
    ]);
    expect(asset.tags).toEqual([winter]);
    expect(queryClient.getQueryData(RECORD)).toEqual(asset);
  });
});

describe('placeAsset', () => {
  it('adds the asset to an application; its applications and the application lists read again', async () => {
    const entry = {
      id: 'aa1',
      applicationId: 'app1',
      applicationName: 'Summer',
      assetId: 'a1',
      position: 2,
      syncedAt: null,
      createdAt: NOW,
      asset: {
        id: 'a1',
        name: 'Jacket',
        type: 'top',
        gender: 'unisex',
        iconUrl: null,
        locked: false,
      },
    };
    const server = serveApi({ 'POST v1/assets/a1/application': [200, { data: entry }] });
    expect(await placeAsset('a1', { applicationId: 'app1' })).toMatchObject({ position: 2 });
    expect(server.sent()).toEqual(['POST v1/assets/a1/application {"applicationId":"app1"}']);
    expect(staleness(APPLICATIONS, PLACEMENTS_LIST, RECORD, ASSETS_LIST)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('assignAssets', () => {
  it('assigns; the user’s assets read again, the asset list does not', async () => {
    const server = serveApi({
      'POST private/v1/user-assets/u2': [200, { data: { userId: 'u2', assetIds: ['a1'] } }],
    });
    await assignAssets('u2', ['a1']);
    expect(server.sent()).toEqual(['POST private/v1/user-assets/u2 {"assetIds":["a1"]}']);
    expect(staleness(USER_ASSETS_LIST, CHANGELOG, ASSETS_LIST)).toEqual([true, true, false]);
  });
});

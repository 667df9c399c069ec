/**
 * Changes of tags: each sends its request and brings the cache up to date with it (the asset's
 * and the user's changes: src/features/<name>/api/mutations.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listQueryKey } from './lists';
import { addTag } from './mutations';
import { queryClient } from './query';
import { configureSession } from './session-bridge';
import { failure, serveApi, staleness, signedInSession, testAsset } from './testing';

const NOW = '2026-01-01T00:00:00.000Z';
const PAGE = {
  data: [{ id: 't1', name: 'Summer', assetCount: 1, createdAt: NOW, updatedAt: NOW }],
  pagination: { page: 1, limit: 10, totalDocs: 1, totalPages: 1, hasNextPage: false },
};
const RECORD = ['assets', 'a1', 'public'];
const TAGS_LIST = listQueryKey('v1/tags');

beforeEach(() => {
  configureSession(signedInSession());
  // What an asset's page and the tags list showed before the change.
  queryClient.setQueryData(RECORD, testAsset());
  queryClient.setQueryData(TAGS_LIST, PAGE);
});

afterEach(() => {
  configureSession(null);
  queryClient.clear();
});

describe('addTag', () => {
  it('creates the tag; tag lists and asset reads (they carry tag names) read again', async () => {
    const server = serveApi({ 'POST v1/tags': [200, { data: { id: 't1', name: 'Summer' } }] });
    await addTag('Summer');
    expect(server.sent()).toEqual(['POST v1/tags {"name":"Summer"}']);
    expect(staleness(TAGS_LIST, RECORD)).toEqual([true, true]);
  });

  it('a name in use is refused, and nothing is read again', async () => {
    serveApi({ 'POST v1/tags': [409, { status: 409, code: 'CONFLICT', message: 'Taken' }] });
    expect(await failure(addTag('Summer'))).toMatchObject({ status: 409, service: 'tags' });
    expect(staleness(TAGS_LIST, RECORD)).toEqual([false, false]);
  });
});

/**
 * Changes of tags: each sends its request and brings the cache up to date with it (the asset's
 * and the user's changes: src/features/<name>/api/mutations.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureHttp } from './http';
import { listQueryKey } from './lists';
import { addTag } from './mutations';
import { queryClient } from './query';
import { configureSession } from './session-bridge';
import { jsonResponse, scriptedFetch, signedInSession, testAsset } from './testing';

const NOW = '2026-01-01T00:00:00.000Z';
const PAGE = {
  data: [{ id: 't1', name: 'Summer', assetCount: 1, createdAt: NOW, updatedAt: NOW }],
  pagination: { page: 1, limit: 10, totalDocs: 1, totalPages: 1, hasNextPage: false },
};
const RECORD = ['assets', 'a1', 'public'];
const TAGS_LIST = listQueryKey('v1/tags');

/** The server answers each `METHOD path` as given. */
function serve(routes: Record<string, [status: number, body: unknown]>) {
  const server = scriptedFetch(
    Object.fromEntries(
      Object.entries(routes).map(([route, [status, body]]) => [
        route,
        () => jsonResponse(status, body),
      ]),
    ),
  );
  configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
  return server;
}

const sent = (server: ReturnType<typeof serve>) =>
  server.calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body) ?? ''}`);

/** Which of `keys` the next read fetches again (stale). */
const stale = (...keys: (readonly unknown[])[]) =>
  keys.map((queryKey) => queryClient.getQueryState(queryKey)?.isInvalidated);

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

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
    const server = serve({ 'POST v1/tags': [200, { data: { id: 't1', name: 'Summer' } }] });
    await addTag('Summer');
    expect(sent(server)).toEqual(['POST v1/tags {"name":"Summer"}']);
    expect(stale(TAGS_LIST, RECORD)).toEqual([true, true]);
  });

  it('a name in use is refused, and nothing is read again', async () => {
    serve({ 'POST v1/tags': [409, { status: 409, code: 'CONFLICT', message: 'Taken' }] });
    expect(await failure(addTag('Summer'))).toMatchObject({ status: 409, service: 'tags' });
    expect(stale(TAGS_LIST, RECORD)).toEqual([false, false]);
  });
});

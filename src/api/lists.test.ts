import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { ApiError } from './errors';
import { configureHttp, DEFAULT_TIMEOUT_MS } from './http';
import {
  encodeListQuery,
  fetchList,
  findById,
  invalidateList,
  listQueryKey,
  readList,
  serviceOf,
  updatePosition,
} from './lists';
import { queryClient } from './query';
import { jsonResponse, scriptedFetch, type RecordedCall } from './testing';

const rowSchema = z.object({ id: z.string(), name: z.string() });

/** A list API answering every `GET v1/rows?...` with page-numbered rows. */
function fakeApi() {
  const calls: RecordedCall[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/v1/rows') {
      calls.push({
        method: 'GET',
        path: `v1/rows${url.search}`,
        authorization: null,
        ifMatch: null,
        body: undefined,
      });
      const page = Number(url.searchParams.get('page') ?? 1);
      return Promise.resolve(
        jsonResponse(200, {
          data: [{ id: `p${page}`, name: `Page ${page}` }],
          pagination: { page, limit: 1, totalDocs: 3, totalPages: 3, hasNextPage: page < 3 },
        }),
      );
    }
    return Promise.resolve(
      jsonResponse(404, { status: 404, code: 'NOT_FOUND', message: 'No route' }),
    );
  };
  configureHttp({ baseUrl: 'http://api.test/', fetch });
  return { calls };
}

beforeEach(() => {
  queryClient.clear();
});

afterEach(() => {
  configureHttp({ timeoutMs: DEFAULT_TIMEOUT_MS, fetch: globalThis.fetch });
});

describe('list query encoding', () => {
  it('repeats arrays, drops empty values and encodes descending order with a minus', () => {
    const params = encodeListQuery({
      page: 2,
      limit: 25,
      order: { name: 'desc' },
      filter: { type: ['hair', 'top'], search: '', tags: [], locked: false, gender: 'male' },
    });
    expect(params.toString()).toBe('page=2&limit=25&order=-name&type=hair&type=top&gender=male');
    expect(encodeListQuery({ order: { name: 'asc' } }).toString()).toBe('order=name');
  });

  it('names the service after the resource', () => {
    expect(serviceOf('v1/assets')).toBe('assets');
    expect(serviceOf('/private/v1/cage-meshes')).toBe('cage-meshes');
  });

  it('keys equal queries alike whatever the filter key order or empty values', () => {
    const a = listQueryKey('v1/rows', { page: 1, filter: { a: 'x', b: 'y', c: [] } });
    const b = listQueryKey('/v1/rows', { page: 1, filter: { b: 'y', a: 'x' } });
    expect(queryClient.getQueryCache().build(queryClient, { queryKey: a }).queryHash).toBe(
      queryClient.getQueryCache().build(queryClient, { queryKey: b }).queryHash,
    );
  });
});

describe('fetchList', () => {
  it('sends the encoded query through the app client and keeps the pagination', async () => {
    const api = fakeApi();
    const answer = await fetchList(
      '/v1/rows',
      { page: 2, limit: 1, order: { name: 'desc' }, filter: { type: ['a', 'b'], q: null } },
      rowSchema,
    );
    expect(api.calls.map((call) => call.path)).toEqual([
      'v1/rows?page=2&limit=1&order=-name&type=a&type=b',
    ]);
    expect(answer).toEqual({
      data: [{ id: 'p2', name: 'Page 2' }],
      pagination: { page: 2, limit: 1, totalDocs: 3, totalPages: 3, hasNextPage: true },
    });
  });

  it('keeps the fixed query parameters an endpoint carries on every page', async () => {
    const api = fakeApi();
    await fetchList(
      'v1/rows?applicationId=app-1',
      { page: 3, filter: { type: 'hair' } },
      rowSchema,
    );
    expect(api.calls.map((call) => call.path)).toEqual([
      'v1/rows?page=3&type=hair&applicationId=app-1',
    ]);
  });

  it('rejects a malformed answer with a PARSING_ERROR tagged with the service', async () => {
    fakeApi();
    const error = await fetchList(
      'v1/rows',
      {},
      z.object({ id: z.string(), name: z.number() }),
    ).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 'PARSING_ERROR', service: 'rows' });
  });
});

describe('readList (cached)', () => {
  it('serves a page read again within 60 s from the cache, and refetches when fresh or invalidated', async () => {
    const api = fakeApi();
    for (const page of [1, 2, 1, 2]) await readList('v1/rows', { page, limit: 1 }, rowSchema);
    expect(api.calls).toHaveLength(2);
    await readList('v1/rows', { page: 1, limit: 1 }, rowSchema, { fresh: true });
    expect(api.calls).toHaveLength(3);
    await invalidateList('v1/rows');
    await readList('v1/rows', { page: 2, limit: 1 }, rowSchema);
    expect(api.calls).toHaveLength(4);
  });

  it('cancels the request in flight when its signal aborts', async () => {
    let aborted = false;
    configureHttp({
      baseUrl: 'http://api.test/',
      fetch: (input, init) =>
        new Promise((_resolve, reject) => {
          const request = input instanceof Request ? input : new Request(input, init);
          request.signal.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('Aborted', 'AbortError'));
          });
        }),
    });
    const controller = new AbortController();
    const read = readList('v1/rows', { page: 1 }, rowSchema, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    await expect(read).rejects.toBeDefined();
    expect(aborted).toBe(true);
  });
});

describe('order update and find-by-id', () => {
  it('PATCHes the position and filter to the endpoint with the id in place of {id}', async () => {
    const routes = scriptedFetch({
      'PATCH v1/rows/r%201/position': () => jsonResponse(200, { data: { id: 'r 1', name: 'x' } }),
      'GET v1/rows/r2': () => jsonResponse(200, { data: { id: 'r2', name: 'Two' } }),
      'PATCH v1/rows/r3': () => jsonResponse(409, { status: 409, code: 'CONFLICT', message: 'no' }),
    });
    configureHttp({ baseUrl: 'http://api.test/', fetch: routes.fetch });
    await updatePosition('v1/rows/{id}/position', { id: 'r 1', position: 3, filter: { t: 'a' } });
    expect(routes.calls[0]?.body).toEqual({ position: 3, filter: { t: 'a' } });
    await expect(findById('v1/rows', 'r2', rowSchema)).resolves.toEqual({ id: 'r2', name: 'Two' });
    await expect(updatePosition('v1/rows', { id: 'r3', position: 1 })).rejects.toMatchObject({
      status: 409,
      service: 'rows',
    });
  });
});

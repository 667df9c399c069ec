/**
 * Test doubles for the HTTP layer: unsigned JWTs with chosen claims, a scripted API the HTTP
 * layer sends to, and what a test reads back (the calls sent, the cache's state, a failure).
 * Used by tests only.
 */
import ky, { HTTPError } from 'ky';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkJob } from '../../contract/bulk-jobs';
import type { Asset } from '../../contract/schemas';
import { ApiError } from './errors';
import { configureHttp } from './http';
import { applyLiveMessage } from './live-cache';
import { queryClient } from './query';
import { configureSession, type SessionBridge } from './session-bridge';

const base64Url = (value: unknown) =>
  btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

/** The HTTPError ky throws when the server answers `response` to a request for `url`. */
export async function httpError(response: Response, url = 'http://api.test/'): Promise<HTTPError> {
  const fetch = () => Promise.resolve(response);
  const error = await ky(url, { fetch, retry: 0, timeout: false }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HTTPError)) throw new Error(`ky took ${response.status} as an answer`);
  return error;
}

/** An unsigned JWT carrying `claims` (the client never verifies signatures). */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(claims)}.signature`;
}

/** A currently valid access token: issued now, expiring in `ttlSeconds`, with an ability claim. */
export function freshToken(nowMs = Date.now(), ttlSeconds = 900, extra: object = {}): string {
  const iat = Math.floor(nowMs / 1000);
  return fakeJwt({
    sub: 'u1',
    role: 'user',
    ability: [['read', 'Asset']],
    iat,
    exp: iat + ttlSeconds,
    ...extra,
  });
}

/** The session of a signed-in user `u1` holding a fresh access token, for `configureSession`. */
export const signedInSession = (): SessionBridge => ({
  getTokens: () => ({ token: freshToken(), refreshToken: 'r', _id: 'u1', email: 'a@b.c' }),
  onRefreshed: () => undefined,
  onSessionInvalid: () => undefined,
});

/** A JSON response like the API's. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | null;
  /** The base version a change was sent on (docs/api.md "Versions and conflicts"). */
  ifMatch: string | null;
  body: unknown;
}

type Handler = (call: RecordedCall, request: Request) => Response | Promise<Response>;

/** A fetch that routes `METHOD path` (path without the leading slash) to handlers and records calls. */
export function scriptedFetch(routes: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const call: RecordedCall = {
      method: request.method,
      path: `${url.pathname.slice(1)}${url.search}`,
      authorization: request.headers.get('authorization'),
      ifMatch: request.headers.get('if-match'),
      body: text === '' ? undefined : (JSON.parse(text) as unknown),
    };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`];
    if (!handler) return jsonResponse(404, { status: 404, code: 'NOT_FOUND', message: 'No route' });
    return handler(call, request);
  };
  return { fetch, calls };
}

/** The API at http://api.test/ answering each request with `answer`, installed as the HTTP layer's fetch. */
export function serveRequests(
  answer: (url: URL, request: Request) => Response | Promise<Response>,
) {
  configureHttp({
    baseUrl: 'http://api.test/',
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      return answer(new URL(request.url), request);
    },
  });
}

/** A route's answer: a handler, or the status and JSON body it always answers. */
type Answer = Handler | [status: number, body: unknown];

/**
 * The API at http://api.test/ answering each `METHOD path` as given, installed as the HTTP
 * layer's fetch. `sent()` lists the calls as `METHOD path body`.
 */
export function serveApi(routes: Record<string, Answer>) {
  const server = scriptedFetch(
    Object.fromEntries(
      Object.entries(routes).map(([route, answer]) => [
        route,
        typeof answer === 'function' ? answer : () => jsonResponse(answer[0], answer[1]),
      ]),
    ),
  );
  configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
  const sent = () =>
    server.calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body) ?? ''}`);
  return { ...server, sent };
}

/** Whether the next read of each of `keys` fetches again (stale), or 'gone' from the cache. */
export const staleness = (...keys: (readonly unknown[])[]) =>
  keys.map((queryKey) => {
    const state = queryClient.getQueryState(queryKey);
    return state === undefined ? 'gone' : state.isInvalidated;
  });

/** What `promise` rejects with, or null when it resolves. */
export const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

/** One request function's call as the server sees it (spec §7) and the service it names (§8). */
export interface CallCase {
  name: string;
  call: () => Promise<unknown>;
  /** `METHOD path?query` as the server sees it. */
  route: string;
  body?: unknown;
  /** The whole answer (list calls answer `{ data, pagination }`). */
  answer: unknown;
  /** What the call resolves to; defaults to `answer.data`. */
  result?: unknown;
  service: string;
}

/**
 * For each case, signed in: the call sends its method, path, body and token and resolves to
 * the answer, and a failure (a 409 with `code`) rejects as an ApiError naming its service.
 */
export function describeCalls(cases: CallCase[], code = 'CONFLICT') {
  beforeEach(() => configureSession(signedInSession()));
  afterEach(() => configureSession(null));

  describe.each(cases)('$name', ({ call, route, body, answer, result, service }) => {
    it(`sends ${route} with its body and reads the answer`, async () => {
      const server = serveApi({ [route]: [200, answer] });
      const value = await call();
      expect(server.calls).toHaveLength(1);
      const [sent] = server.calls;
      expect(`${sent?.method} ${sent?.path}`).toBe(route);
      expect(sent?.body).toEqual(body);
      expect(sent?.authorization).toMatch(/^Bearer /);
      expect(value).toEqual(result ?? (answer as { data: unknown }).data);
    });

    it(`tags a failure with service '${service}'`, async () => {
      serveApi({ [route]: [409, { status: 409, code, message: 'Refused' }] });
      const error = await failure(call());
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 409, code, message: 'Refused', service });
    });
  });
}

/** An unlocked asset `a1` without files or tags, as the API answers it. */
export const testAsset = (changes: Partial<Asset> = {}): Asset => ({
  id: 'a1',
  name: 'Jacket',
  type: 'top',
  gender: 'unisex',
  description: '',
  iconUrl: null,
  modelUrl: null,
  textureUrl: null,
  normalMapUrl: null,
  sourceUrl: null,
  isTemplate: false,
  templateId: null,
  locked: false,
  position: 1,
  tags: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...changes,
});

/** A bulk job of user u1 as the server answers it, queued over 100,000 assets. */
export const testBulkJob = (changes: Partial<BulkJob> = {}): BulkJob => ({
  id: 'job1',
  userId: 'u1',
  action: 'lock',
  list: 'assets',
  filter: { search: 'hoodie' },
  tagId: null,
  state: 'queued',
  total: 100_000,
  totalIsEstimate: false,
  done: 0,
  changed: 0,
  skipped: 0,
  error: null,
  cancelledBy: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  ...changes,
});

let liveSeq = 1000;
/** The live stream's progress event of `job` as it now is, delivered to the page. */
export function sendBulkJobProgress(job: BulkJob) {
  liveSeq += 1;
  const { id, action, state, done, total, totalIsEstimate, changed, skipped } = job;
  applyLiveMessage({
    type: 'event',
    event: {
      id: `e${liveSeq}`,
      seq: liveSeq,
      routingKey: 'bulk-job.progressed.v1',
      assetId: null,
      cageMeshId: null,
      bulkJobId: id,
      actorId: 'u1',
      actorEmail: 'admin@example.com',
      data: { action, state, done, total, totalIsEstimate, changed, skipped },
      createdAt: '2030-01-01T00:00:01.000Z',
    },
  });
}

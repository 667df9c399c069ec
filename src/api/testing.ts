/**
 * Test doubles for the HTTP layer: unsigned JWTs with chosen claims and a scripted fetch.
 * Used by the api and machines tests only.
 */
import type { SessionBridge } from './session-bridge';
import type { Asset } from '../../contract/schemas';

const base64Url = (value: unknown) =>
  btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

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
  /** The base version a change was sent on (README "Versions and conflicts"). */
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

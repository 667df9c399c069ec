import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import {
  apiList,
  apiRequest,
  configureHttp,
  DEFAULT_TIMEOUT_MS,
  httpClient,
  REFRESH_LOCK_NAME,
  refreshSession,
} from './http';
import { ApiError } from './errors';
import { configureSession, type SessionTokens } from './session-bridge';
import { freshToken, jsonResponse, scriptedFetch } from './testing';
import { listResponseSchema, tagSchema } from '../../contract/schemas';

const TAG = { id: 't1', name: 'Summer' };
const tagAnswer = z.object({ id: z.string(), name: z.string() });

/** A session of user u1 holding `tokens`, its calls recorded. */
function session(tokens: SessionTokens | null) {
  let stored = tokens;
  const bridge = {
    getTokens: () => stored,
    onRefreshed: vi.fn((data: { token: string; refreshToken: string }) => {
      stored = { ...stored!, ...data };
    }),
    onSessionInvalid: vi.fn(),
  };
  configureSession(bridge);
  return bridge;
}
const signedIn = () =>
  session({ token: freshToken(), refreshToken: 'r', _id: 'u1', email: 'a@b.c' });

const rejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a rejection');
};

/** A fetch that never answers until its request is aborted; the requests are kept. */
function silentServer() {
  const requests: Request[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request);
    return new Promise<Response>((_, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason as Error));
    });
  };
  return { fetch, requests };
}

/** What an aborted call's failure was (its cause's name: an AbortError). */
const abortName = (error: ApiError) => (error.cause as Error | undefined)?.name;

beforeEach(() => {
  configureHttp({ baseUrl: 'http://api.test/', timeoutMs: DEFAULT_TIMEOUT_MS });
});

afterEach(() => {
  configureSession(null);
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('where the client sends its calls by default', () => {
  /** The address of a call made by a freshly loaded client (the settings read as it loads). */
  async function firstAddress(): Promise<string> {
    vi.resetModules();
    const fresh = await import('./http');
    const server = scriptedFetch({});
    const addresses: string[] = [];
    fresh.configureHttp({
      fetch: (input, init) => {
        addresses.push(input instanceof Request ? input.url : String(input));
        return server.fetch(input, init);
      },
    });
    await fresh.apiRequest('v1/tags', tagAnswer, { auth: false, json: undefined }).catch(() => {});
    return addresses[0]!;
  }

  it('calls the site root from any page when VITE_API_BASE is not set, or set empty', async () => {
    vi.stubGlobal('location', { href: 'https://studio.example/assets/a1?filter=x' });
    vi.stubEnv('VITE_API_BASE', undefined);
    expect(await firstAddress()).toBe('https://studio.example/v1/tags');
    vi.stubEnv('VITE_API_BASE', '');
    expect(await firstAddress()).toBe('https://studio.example/v1/tags');
  });

  it('calls under VITE_API_BASE, a path on the site or another address', async () => {
    vi.stubGlobal('location', { href: 'https://studio.example/users/u1' });
    vi.stubEnv('VITE_API_BASE', '/api/');
    expect(await firstAddress()).toBe('https://studio.example/api/v1/tags');
    vi.stubEnv('VITE_API_BASE', 'https://api.example/v2/');
    expect(await firstAddress()).toBe('https://api.example/v2/v1/tags');
  });

  it('calls localhost where there is no page (no location)', async () => {
    vi.stubEnv('VITE_API_BASE', '');
    vi.stubGlobal('location', undefined);
    expect(await firstAddress()).toBe('http://localhost/v1/tags');
  });
});

describe('bodies at their edges', () => {
  it('sends a JSON body of null as JSON, not as a flagged body', async () => {
    const server = scriptedFetch({ 'POST v1/tags': () => jsonResponse(200, { data: TAG }) });
    configureHttp({ fetch: server.fetch });
    signedIn();
    expect(await apiRequest('v1/tags', tagAnswer, { method: 'post', json: null })).toEqual(TAG);
    expect(server.calls).toMatchObject([{ method: 'POST', path: 'v1/tags', body: null }]);
  });

  it('resolves a silent call whose error answer is empty, with no body', async () => {
    const server = scriptedFetch({ 'POST v1/tags': () => new Response(null, { status: 409 }) });
    configureHttp({ fetch: server.fetch });
    signedIn();
    const json = { name: 'Summer', silent: true as const };
    expect(await apiRequest('v1/tags', tagAnswer, { method: 'post', json })).toEqual({
      ok: false,
      status: 409,
      body: undefined,
    });
    expect(server.calls[0]!.body).toEqual({ name: 'Summer' });
  });
});

describe("a call's own timeout and signal", () => {
  it('gives up at the timeout the call asks for, before the client-wide one', async () => {
    vi.useFakeTimers();
    const server = silentServer();
    configureHttp({ fetch: server.fetch });
    signedIn();

    const pending = rejection(apiRequest('v1/tags/t1', tagAnswer, { timeout: 1_000 }));
    let settled = false;
    void pending.finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ status: 'TIMEOUT_ERROR' });
  });

  it("stops when the caller's signal aborts", async () => {
    const server = silentServer();
    configureHttp({ fetch: server.fetch });
    signedIn();
    const controller = new AbortController();

    const pending = rejection(apiRequest('v1/tags/t1', tagAnswer, { signal: controller.signal }));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    controller.abort();
    expect(abortName(await pending)).toBe('AbortError');
  });

  it("keeps the caller's signal on a request sent again after a refresh", async () => {
    const controller = new AbortController();
    let refreshed = '';
    const server = scriptedFetch({
      'POST v1/auth/refresh': () => {
        refreshed = freshToken(Date.now(), 900, { jti: 'new' });
        // The caller gives up while the refresh is on its way.
        controller.abort();
        return jsonResponse(200, { data: { token: refreshed, refreshToken: 'r2' } });
      },
      'GET v1/tags/t1': ({ authorization }, request) =>
        request.signal.aborted
          ? Promise.reject(request.signal.reason as Error)
          : authorization === `Bearer ${refreshed}`
            ? jsonResponse(200, { data: TAG })
            : jsonResponse(401, { status: 401, code: 'UNAUTHORIZED', message: 'Ended' }),
    });
    configureHttp({ fetch: server.fetch });
    signedIn();

    const error = await rejection(
      apiRequest('v1/tags/t1', tagAnswer, { signal: controller.signal }),
    );
    expect(abortName(error)).toBe('AbortError');
  });
});

describe('signed-in POSTs sent again', () => {
  /** The tag create's server: `answers` in turn ('hang' never answers), recording keys. */
  function tagServer(...answers: (Response | 'hang')[]) {
    const keys: (string | null)[] = [];
    const server = scriptedFetch({
      'POST v1/tags': (_call, request) => {
        keys.push(request.headers.get('idempotency-key'));
        const answer = answers.shift() ?? jsonResponse(201, { data: TAG });
        if (answer !== 'hang') return answer;
        return new Promise<Response>((_, reject) => {
          request.signal.addEventListener('abort', () => reject(request.signal.reason as Error));
        });
      },
    });
    configureHttp({ fetch: server.fetch });
    return { keys, calls: server.calls };
  }
  const unavailable = (retryAfter: string) =>
    new Response(JSON.stringify({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Down' }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
    });
  const create = (timeout?: number) =>
    apiRequest('v1/tags', tagAnswer, {
      method: 'post',
      json: { name: 'Summer' },
      ...(timeout === undefined ? {} : { timeout }),
    });

  beforeEach(() => {
    signedIn();
  });

  it('waits the Retry-After a 503 asks for before the next attempt', async () => {
    vi.useFakeTimers();
    const server = tagServer(unavailable('2'));

    const pending = create();
    await vi.advanceTimersByTimeAsync(1_500);
    expect(server.keys).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(await pending).toEqual(TAG);
    expect(server.keys).toHaveLength(2);
  });

  it('waits at most 5 s however long the Retry-After', async () => {
    vi.useFakeTimers();
    const server = tagServer(unavailable('60'));

    const pending = create();
    await vi.advanceTimersByTimeAsync(4_900);
    expect(server.keys).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toEqual(TAG);
  });

  it('sends a create that timed out again, with the same key', async () => {
    const server = tagServer('hang');

    expect(await create(200)).toEqual(TAG);
    expect(server.keys).toHaveLength(2);
    expect(server.keys[1]).toBe(server.keys[0]);
  });

  it('writes the key as 32 hex digits, small bytes padded with a zero', async () => {
    vi.stubGlobal('crypto', {
      getRandomValues: (bytes: Uint8Array) => bytes.map((_, i) => i),
    });
    const server = tagServer();

    await create();
    expect(server.keys).toEqual(['000102030405060708090a0b0c0d0e0f']);
  });

  it('gives no key to a signed-in change other than a POST, and does not send it again', async () => {
    const sent: (string | null)[] = [];
    configureHttp({
      fetch: (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        sent.push(request.headers.get('idempotency-key'));
        return Promise.resolve(unavailable('0'));
      },
    });

    expect(
      await rejection(apiRequest('v1/tags/t1', tagAnswer, { method: 'put', json: TAG })),
    ).toMatchObject({ status: 503 });
    expect(sent).toEqual([null]);
  });
});

describe('bodies sent again after a refused token', () => {
  /** An upload route that answers only the refreshed token, recording the bodies it got. */
  function uploads() {
    let current = '';
    const bodies: string[] = [];
    configureHttp({
      fetch: async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        if (request.url.endsWith('v1/auth/refresh')) {
          current = freshToken(Date.now(), 900, { jti: 'new' });
          return jsonResponse(200, { data: { token: current, refreshToken: 'r2' } });
        }
        bodies.push(await request.text());
        return request.headers.get('authorization') === `Bearer ${current}`
          ? jsonResponse(200, { data: { key: 'k' } })
          : jsonResponse(401, { status: 401, code: 'UNAUTHORIZED', message: 'Ended' });
      },
    });
    return bodies;
  }
  const upload = (body: BodyInit) =>
    httpClient().post('v1/uploads/icon', { body, throwHttpErrors: false });

  it('sends a Blob, FormData, URLSearchParams or text again under the new token', async () => {
    const form = new FormData();
    form.set('name', 'icon');
    for (const body of [new Blob(['bytes']), form, new URLSearchParams({ a: '1' }), 'text']) {
      const bodies = uploads();
      const bridge = signedIn();
      const response = await upload(body);
      expect(response.status).toBe(200);
      expect(bodies).toHaveLength(2);
      // A form's parts are the same; each sending draws its own boundary.
      const parts = (text?: string) => text?.replace(/-+formdata-[\w-]+/g, '--');
      expect(parts(bodies[1])).toBe(parts(bodies[0]));
      expect(bodies[0]).not.toBe('');
      expect(bridge.onSessionInvalid).not.toHaveBeenCalled();
    }
  });

  it('does not send a stream again: its 401 ends the session', async () => {
    const bodies = uploads();
    const bridge = signedIn();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('bytes'));
        controller.close();
      },
    });

    const response = await httpClient().post('v1/uploads/icon', {
      body: stream,
      throwHttpErrors: false,
      // A stream body is sent half-duplex.
      ...({ duplex: 'half' } as object),
    });
    expect(response.status).toBe(401);
    expect(bodies).toEqual(['bytes']);
    expect(bridge.onSessionInvalid).toHaveBeenCalledTimes(1);
  });
});

describe('a list answer (apiList)', () => {
  const page = listResponseSchema(tagSchema);
  const pagination = { page: 2, limit: 1, totalDocs: 3, totalPages: 3, hasNextPage: true };

  it('answers the whole page, pagination beside the rows, with the query sent', async () => {
    const tag = { id: 't1', name: 'Summer', assetCount: 0 };
    const server = scriptedFetch({
      'GET v1/tags?page=2&limit=1': () => jsonResponse(200, { data: [tag], pagination }),
    });
    configureHttp({ fetch: server.fetch });
    signedIn();

    const answer = await apiList('v1/tags', page, { searchParams: { page: 2, limit: 1 } });
    expect(answer.pagination).toEqual(pagination);
    expect(answer.data.map((row) => row.id)).toEqual(['t1']);
  });

  it("rejects a refusal with the server's code, and an answer of the wrong shape as PARSING_ERROR", async () => {
    const server = scriptedFetch({
      'GET v1/tags': () => jsonResponse(403, { status: 403, code: 'FORBIDDEN', message: 'No' }),
      'GET v1/tags?page=1': () => jsonResponse(200, { data: 'rows' }),
    });
    configureHttp({ fetch: server.fetch });
    signedIn();

    expect(await rejection(apiList('v1/tags', page))).toMatchObject({ code: 'FORBIDDEN' });
    expect(await rejection(apiList('v1/tags', page, { searchParams: { page: 1 } }))).toMatchObject({
      status: 'PARSING_ERROR',
    });
  });
});

describe('the refresh of a signed-out session', () => {
  it('answers no tokens and calls nothing when the session holds none', async () => {
    const server = scriptedFetch({});
    configureHttp({ fetch: server.fetch });
    session(null);

    expect(await refreshSession()).toBeNull();
    expect(await refreshSession({ refused: 'old' })).toBeNull();
    expect(server.calls).toHaveLength(0);
  });

  it("is serialised across tabs under the lock name every tab's build shares", () => {
    // Tabs of two builds open during a deploy must take the same lock.
    expect(REFRESH_LOCK_NAME).toBe('avatar-studio:refresh');
  });
});

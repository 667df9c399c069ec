import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, signupPasswordless } from './auth';
import { createTag } from './tags';
import { ApiError, tagService } from './errors';
import {
  apiRequest,
  configureHttp,
  DEFAULT_TIMEOUT_MS,
  REFRESH_LOCK_NAME,
  refreshSession,
} from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { countByTypeSchema, tagSchema, type RefreshResult } from '../../contract/schemas';
import { firstStreamPosition, streamStarted, streamStopped } from './read-positions';
import { configureSession, type SessionBridge, type SessionTokens } from './session-bridge';
import { fakeJwt, freshToken, jsonResponse, scriptedFetch, type RecordedCall } from './testing';

/**
 * One request as a resource module makes it (the asset counts, as features/assets/api/requests.ts
 * asks for them): what these tests send through the client.
 */
const countByType = (searchParams?: Record<string, string>) =>
  tagService('assets')(() =>
    apiRequest(
      endpoint(ENDPOINTS.assetCounts),
      countByTypeSchema,
      searchParams === undefined ? {} : { searchParams },
    ),
  );

const expiredToken = () => freshToken(Date.now() - 3_600_000, 60);
const COUNTS = [{ type: 'outfit', count: 2 }];

/** A session bridge over an in-memory "storage" slot, like app-session's over localStorage. */
function fakeSession(initial: SessionTokens) {
  let stored = initial;
  const onRefreshed = vi.fn((data: RefreshResult) => {
    stored = { ...stored, ...data };
  });
  const onSessionInvalid = vi.fn();
  const bridge: SessionBridge = { getTokens: () => stored, onRefreshed, onSessionInvalid };
  configureSession(bridge);
  return {
    onRefreshed,
    onSessionInvalid,
    read: () => stored,
    write: (next: SessionTokens) => {
      stored = next;
    },
  };
}

/** The session of user u1 (a@b.c) with `token` and refresh token 'r'. */
const signedIn = (token: string | null) =>
  fakeSession({ token, refreshToken: 'r', _id: 'u1', email: 'a@b.c' });

/** An API whose countByType answers only a bearer of `validToken()`, and whose refresh rotates. */
function fakeApi(overrides: Parameters<typeof scriptedFetch>[0] = {}) {
  let rotation = 0;
  let current = '';
  const server = scriptedFetch({
    'POST v1/auth/refresh': async () => {
      // Yield so that concurrent requests really overlap with the refresh in flight.
      await new Promise((resolve) => setTimeout(resolve, 0));
      rotation += 1;
      current = freshToken(Date.now(), 900, { jti: rotation });
      return jsonResponse(200, { data: { token: current, refreshToken: `refresh-${rotation}` } });
    },
    'GET v1/assets/countByType': ({ authorization }) =>
      authorization === `Bearer ${current}`
        ? jsonResponse(200, { data: COUNTS })
        : jsonResponse(401, { status: 401, code: 'UNAUTHORIZED', message: 'Bad token' }),
    ...overrides,
  });
  configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
  return {
    calls: server.calls,
    callsTo: (path: string) => server.calls.filter((call: RecordedCall) => call.path === path),
    useToken: (token: string) => {
      current = token;
    },
  };
}

const rejection = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a rejection');
};

beforeEach(() => {
  configureHttp({ timeoutMs: DEFAULT_TIMEOUT_MS });
});

afterEach(() => {
  configureSession(null);
  vi.useRealTimers();
});

describe('session refresh rule in the beforeRequest hook', () => {
  it('shares one refresh between 20 concurrent requests with an expired token', async () => {
    const api = fakeApi();
    const expired = expiredToken();
    const session = fakeSession({
      token: expired,
      refreshToken: 'refresh-0',
      _id: 'u1',
      email: 'a@b.c',
    });

    const results = await Promise.all(Array.from({ length: 20 }, () => countByType()));

    expect(results).toEqual(Array.from({ length: 20 }, () => COUNTS));
    expect(api.callsTo('v1/auth/refresh')).toHaveLength(1);
    // Spec §7: the refresh call carries the token with the refresh token.
    expect(api.callsTo('v1/auth/refresh')[0]?.body).toEqual({
      token: expired,
      refreshToken: 'refresh-0',
    });
    const newToken = session.read().token;
    expect(api.callsTo('v1/assets/countByType').map((call) => call.authorization)).toEqual(
      Array.from({ length: 20 }, () => `Bearer ${newToken}`),
    );
    expect(session.onRefreshed).toHaveBeenCalledTimes(1);
    expect(session.onSessionInvalid).not.toHaveBeenCalled();
  });

  it('sends a fresh token as is, without refreshing', async () => {
    const api = fakeApi();
    const token = freshToken();
    api.useToken(token);
    signedIn(token);

    await countByType();

    expect(api.callsTo('v1/auth/refresh')).toHaveLength(0);
    expect(api.calls[0]?.authorization).toBe(`Bearer ${token}`);
  });

  it('refreshes when the token is missing but a refresh token exists', async () => {
    const api = fakeApi();
    signedIn(null);

    await countByType();

    expect(api.callsTo('v1/auth/refresh')[0]?.body).toEqual({ refreshToken: 'r' });
  });

  it('refreshes before every batch of an anonymous session', async () => {
    const api = fakeApi();
    fakeSession({ token: freshToken(), refreshToken: 'r', _id: 'guest', email: null });

    await countByType();
    await countByType();

    expect(api.callsTo('v1/auth/refresh')).toHaveLength(2);
  });

  it('sends no Authorization and does not refresh without any tokens', async () => {
    const api = fakeApi({
      'GET v1/assets/countByType': () => jsonResponse(200, { data: COUNTS }),
    });
    fakeSession({ token: null, refreshToken: null });

    await countByType();

    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]?.authorization).toBeNull();
  });

  it('does not apply the rule to public auth calls but still sends the bearer token', async () => {
    const token = expiredToken();
    const api = fakeApi({
      'POST v1/auth/login': () =>
        jsonResponse(401, { status: 401, code: 'INVALID_CREDENTIALS', message: 'Wrong password' }),
    });
    const session = signedIn(token);

    const error = await rejection(login({ email: 'a@b.c', password: 'nope' }));

    expect(error).toMatchObject({
      status: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'Wrong password',
    });
    expect(api.calls.map((call) => call.path)).toEqual(['v1/auth/login']);
    expect(api.calls[0]?.authorization).toBe(`Bearer ${token}`);
    // A wrong password is not a dead session.
    expect(session.onSessionInvalid).not.toHaveBeenCalled();
  });

  it('refreshes a refused token once and sends the request again (session ended elsewhere, role changed)', async () => {
    const api = fakeApi(); // its countByType refuses any token it did not issue
    const refused = freshToken();
    const session = signedIn(refused);

    await expect(countByType()).resolves.toEqual(COUNTS);

    const counts = api.callsTo('v1/assets/countByType');
    expect(counts).toHaveLength(2);
    expect(counts[0]?.authorization).toBe(`Bearer ${refused}`);
    expect(counts[1]?.authorization).toBe(`Bearer ${session.read().token}`);
    expect(api.callsTo('v1/auth/refresh')).toHaveLength(1);
    expect(session.onSessionInvalid).not.toHaveBeenCalled();
  });

  it('ends the session when the request is refused again after the refresh', async () => {
    const api = fakeApi({
      'GET v1/assets/countByType': () =>
        jsonResponse(401, { status: 401, code: 'UNAUTHORIZED', message: 'Session ended' }),
    });
    const session = signedIn(freshToken());

    const error = await rejection(countByType());

    expect(error.status).toBe(401);
    expect(api.callsTo('v1/assets/countByType')).toHaveLength(2);
    expect(api.callsTo('v1/auth/refresh')).toHaveLength(1);
    expect(session.onSessionInvalid).toHaveBeenCalledTimes(1);
  });

  it('ends the session when the refresh a 401 asked for is refused (signed out elsewhere)', async () => {
    const api = fakeApi({
      'POST v1/auth/refresh': () =>
        jsonResponse(401, {
          status: 401,
          code: 'REFRESH_TOKEN_REVOKED',
          message: 'Refresh token revoked',
        }),
    });
    const session = signedIn(freshToken());

    const error = await rejection(countByType());

    expect(error.message).toBe('Refresh token revoked');
    expect(api.callsTo('v1/assets/countByType')).toHaveLength(1);
    expect(session.onSessionInvalid).toHaveBeenCalledTimes(1);
  });

  it.each([
    [401, 'Refresh token expired'],
    [401, 'Refresh token revoked'],
    [401, 'Refresh token not found'],
    [400, 'Refresh token revoked'],
    [404, 'Gone'],
  ])('ends the session when the refresh fails with %i "%s"', async (status, message) => {
    const api = fakeApi({
      'POST v1/auth/refresh': () =>
        jsonResponse(status, { status, code: 'REFRESH_FAILED', message }),
    });
    const session = signedIn(expiredToken());

    const errors = await Promise.all([rejection(countByType()), rejection(countByType())]);

    expect(errors.map((error) => error.message)).toEqual([message, message]);
    expect(session.onSessionInvalid).toHaveBeenCalledTimes(1);
    expect(session.onRefreshed).not.toHaveBeenCalled();
    expect(api.callsTo('v1/assets/countByType')).toHaveLength(0);
  });

  it('keeps the session when the refresh fails for another reason', async () => {
    fakeApi({
      'POST v1/auth/refresh': () =>
        jsonResponse(503, { status: 503, code: 'UNAVAILABLE', message: 'Try later' }),
    });
    const session = signedIn(expiredToken());

    const error = await rejection(countByType());

    expect(error).toMatchObject({ status: 503, service: 'assets' });
    expect(session.onSessionInvalid).not.toHaveBeenCalled();
  });

  describe('with Web Locks', () => {
    const requested: string[] = [];
    let beforeGrant: () => void = () => {};

    beforeEach(() => {
      requested.length = 0;
      beforeGrant = () => {};
      Object.defineProperty(navigator, 'locks', {
        configurable: true,
        value: {
          request: async <T>(name: string, callback: () => Promise<T>) => {
            requested.push(name);
            beforeGrant();
            return callback();
          },
        },
      });
    });

    afterEach(() => {
      Reflect.deleteProperty(navigator, 'locks');
    });

    it('refreshes under the cross-tab lock', async () => {
      const api = fakeApi();
      signedIn(expiredToken());

      await Promise.all([countByType(), countByType()]);

      expect(requested).toEqual([REFRESH_LOCK_NAME]);
      expect(api.callsTo('v1/auth/refresh')).toHaveLength(1);
    });

    it('takes no lock for a token that needs no refresh', async () => {
      const api = fakeApi();
      const token = freshToken();
      api.useToken(token);
      signedIn(token);

      await countByType();

      expect(requested).toEqual([]);
    });

    it('uses the pair another tab rotated while this one waited for the lock', async () => {
      const api = fakeApi();
      const session = signedIn(expiredToken());
      const otherTabsToken = freshToken();
      api.useToken(otherTabsToken);
      beforeGrant = () =>
        session.write({ ...session.read(), token: otherTabsToken, refreshToken: 'r2' });

      await countByType();

      expect(api.callsTo('v1/auth/refresh')).toHaveLength(0);
      expect(api.calls[0]?.authorization).toBe(`Bearer ${otherTabsToken}`);
      expect(session.onRefreshed).not.toHaveBeenCalled();
    });
  });
});

describe('body handling', () => {
  it('strips the silent flag and resolves statuses >= 300 with the parsed body', async () => {
    const conflict = { status: 409, code: 'EMAIL_TAKEN', message: 'Taken' };
    const api = fakeApi({
      'POST v1/auth/signup/passwordless': ({ body }) =>
        (body as { email: string }).email === 'taken@b.c'
          ? jsonResponse(409, conflict)
          : jsonResponse(200, { data: { sent: true } }),
    });

    const failed = await signupPasswordless({ email: 'taken@b.c', silent: true });
    const sent = await signupPasswordless({ email: 'new@b.c', silent: true });

    expect(failed).toEqual({ ok: false, status: 409, body: conflict });
    expect(sent).toEqual({ ok: true, status: 200, data: { sent: true } });
    expect(api.calls.map((call) => call.body)).toEqual([
      { email: 'taken@b.c' },
      { email: 'new@b.c' },
    ]);
  });

  it('rejects statuses >= 300 without the silent flag, keeping the server code and message', async () => {
    fakeApi({
      'POST v1/auth/signup/passwordless': () =>
        jsonResponse(409, { status: 409, code: 'EMAIL_TAKEN', message: 'Taken' }),
    });

    const error = await rejection(signupPasswordless({ email: 'taken@b.c' }));

    expect(error).toMatchObject({ status: 409, code: 'EMAIL_TAKEN', message: 'Taken' });
    expect(error.data).toEqual({ status: 409, code: 'EMAIL_TAKEN', message: 'Taken' });
  });
});

describe('Idempotency-Key on signed-in POSTs', () => {
  const TAG = { id: 't1', name: 'Summer' };
  /** The tag create's server: `answers` in turn (a Response, or a network failure), recording keys. */
  function tagServer(...answers: (Response | 'network failure')[]) {
    const keys: (string | null)[] = [];
    const server = scriptedFetch({
      'POST v1/tags': (_call, request) => {
        keys.push(request.headers.get('idempotency-key'));
        const answer = answers.shift() ?? jsonResponse(201, { data: TAG });
        if (answer === 'network failure') throw new TypeError('Failed to fetch');
        return answer;
      },
      'POST v1/auth/login': () => unavailable(),
    });
    configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
    return { keys, calls: server.calls };
  }
  const unavailable = () =>
    new Response(
      JSON.stringify({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Database down' }),
      { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' } },
    );

  beforeEach(() => {
    signedIn(freshToken());
  });

  it('sends a create again with the same key after a 503, and answers what the retry got', async () => {
    const server = tagServer(unavailable());

    expect(await createTag('Summer')).toEqual(TAG);
    expect(server.keys).toHaveLength(2);
    expect(server.keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(server.keys[1]).toBe(server.keys[0]);
  });

  it('sends it again with the same key after a network failure, and while the first is being served', async () => {
    const inUse = jsonResponse(409, {
      status: 409,
      code: 'IDEMPOTENCY_KEY_IN_USE',
      message: 'Still being served',
    });
    const server = tagServer('network failure', inUse);

    expect(await createTag('Summer')).toEqual(TAG);
    expect(server.keys).toHaveLength(3);
    expect(new Set(server.keys).size).toBe(1);
  });

  it('gives each create its own key, and gives up after three attempts with the server error', async () => {
    const server = tagServer(unavailable(), unavailable(), unavailable());

    expect(await rejection(createTag('Summer'))).toMatchObject({ status: 503 });
    expect(server.keys).toHaveLength(3);
    await createTag('Winter');
    expect(server.keys[3]).not.toBe(server.keys[0]);
  });

  it('sends no key on public calls and does not retry them', async () => {
    const server = tagServer();

    expect(await rejection(login({ email: 'a@b.c', password: 'pw' }))).toMatchObject({
      status: 503,
    });
    expect(server.calls.filter((call) => call.path === 'v1/auth/login')).toHaveLength(1);
  });

  it('does not retry a create the server refused', async () => {
    const server = tagServer(
      jsonResponse(409, { status: 409, code: 'NAME_TAKEN', message: 'Taken' }),
    );

    expect(await rejection(createTag('Summer'))).toMatchObject({ code: 'NAME_TAKEN' });
    expect(server.keys).toHaveLength(1);
  });
});

describe('error normalisation', () => {
  it('turns a network failure into FETCH_ERROR', async () => {
    configureHttp({
      baseUrl: 'http://api.test/',
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });

    expect(await rejection(login({ email: 'a@b.c', password: 'pw' }))).toMatchObject({
      status: 'FETCH_ERROR',
      code: 'FETCH_ERROR',
    });
  });

  it('turns a request that outlives the timeout into TIMEOUT_ERROR', async () => {
    vi.useFakeTimers();
    configureHttp({
      baseUrl: 'http://api.test/',
      timeoutMs: 5_000,
      // A server that never answers; the abort from ky's timeout ends it.
      fetch: (input) =>
        new Promise((_, reject) => {
          (input as Request).signal.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    });

    const pending = rejection(login({ email: 'a@b.c', password: 'pw' }));
    await vi.advanceTimersByTimeAsync(4_999);
    let settled = false;
    void pending.finally(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    expect(await pending).toMatchObject({ status: 'TIMEOUT_ERROR' });
  });

  it('turns a body that is not JSON into PARSING_ERROR', async () => {
    configureHttp({
      baseUrl: 'http://api.test/',
      fetch: () => Promise.resolve(new Response('<html>oops</html>', { status: 200 })),
    });

    expect(await rejection(login({ email: 'a@b.c', password: 'pw' }))).toMatchObject({
      status: 'PARSING_ERROR',
    });
  });

  it('turns a body of the wrong shape into PARSING_ERROR', async () => {
    fakeApi({ 'POST v1/auth/login': () => jsonResponse(200, { data: { token: 1 } }) });

    expect(await rejection(login({ email: 'a@b.c', password: 'pw' }))).toMatchObject({
      status: 'PARSING_ERROR',
    });
  });

  it('keeps the HTTP status when an error body is not JSON', async () => {
    configureHttp({
      baseUrl: 'http://api.test/',
      fetch: () =>
        Promise.resolve(new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' })),
    });

    expect(
      await rejection(apiRequest('v1/anything', countByTypeSchema, { auth: false })),
    ).toMatchObject({
      status: 502,
      code: 'HTTP_502',
      message: 'Bad Gateway',
      data: 'Bad gateway',
    });
  });
});

describe('service tagging', () => {
  it('tags failures of the assets module with its service name', async () => {
    fakeApi({
      'GET v1/assets/countByType?type=outfit': () =>
        jsonResponse(500, { status: 500, code: 'INTERNAL', message: 'Boom' }),
    });
    signedIn(freshToken());

    const error = await rejection(countByType({ type: 'outfit' }));

    expect(error).toMatchObject({ status: 500, code: 'INTERNAL', service: 'assets' });
    expect(error.toJSON()).toEqual({
      status: 500,
      code: 'INTERNAL',
      message: 'Boom',
      service: 'assets',
    });
  });

  it('leaves errors of untagged modules without a service', async () => {
    fakeApi({
      'POST v1/auth/login': () =>
        jsonResponse(500, { status: 500, code: 'INTERNAL', message: 'Boom' }),
    });

    expect((await rejection(login({ email: 'a@b.c', password: 'pw' }))).service).toBeUndefined();
  });
});

it('treats a token that is not a JWT as needing a refresh', async () => {
  const api = fakeApi();
  signedIn(fakeJwt({ sub: 'u1' }).slice(0, 10));

  await countByType();

  expect(api.callsTo('v1/auth/refresh')).toHaveLength(1);
});

describe('read positions (the live stream starts where the first reads were taken)', () => {
  const readAt = (position: string) => {
    const response = jsonResponse(200, { data: COUNTS });
    response.headers.set('event-position', position);
    return response;
  };

  it('notes the lowest Event-Position of the reads answered before the stream starts', async () => {
    const positions = ['40', '37', 'not-a-number', '41'];
    fakeApi({ 'GET v1/assets/countByType': () => readAt(positions.shift()!) });
    signedIn(freshToken(Date.now(), 900));
    for (let i = 0; i < 4; i += 1) await countByType();
    expect(firstStreamPosition()).toBe(37);
    streamStopped();
  });

  it('calls a read sent before the start and answered after it below the start a gap, and one sent after it never', async () => {
    let answer: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    let position = '8';
    fakeApi({
      'GET v1/assets/countByType': async () => {
        await gate;
        return readAt(position);
      },
    });
    signedIn(freshToken(Date.now(), 900));
    const gap = vi.fn();
    const early = countByType();
    await new Promise((resolve) => setTimeout(resolve, 0));
    streamStarted(10, gap, false);
    answer!();
    await early;
    expect(gap).toHaveBeenCalledTimes(1);
    position = '2';
    await countByType();
    expect(gap).toHaveBeenCalledTimes(1);
    streamStopped();
  });
});

describe('a 401 on a change, and sessions without a refresh token', () => {
  const TAG = { id: 't1', name: 'Summer' };
  /** An API whose tag create answers only a bearer of the token its refresh issued last. */
  function tagsApi() {
    let current = '';
    const keys: (string | null)[] = [];
    const server = scriptedFetch({
      'POST v1/auth/refresh': () => {
        current = freshToken(Date.now(), 900, { jti: 'rotated' });
        return jsonResponse(200, { data: { token: current, refreshToken: 'r2' } });
      },
      'POST v1/tags': ({ authorization }, request) => {
        keys.push(request.headers.get('idempotency-key'));
        return authorization === `Bearer ${current}`
          ? jsonResponse(201, { data: TAG })
          : jsonResponse(401, { status: 401, code: 'UNAUTHORIZED', message: 'Session ended' });
      },
    });
    configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
    return { calls: server.calls, keys };
  }

  it('sends a refused create again once, with its JSON body and key, under the new token', async () => {
    const api = tagsApi();
    const session = signedIn(freshToken());

    expect(await createTag('Summer')).toEqual(TAG);

    const creates = api.calls.filter((call) => call.path === 'v1/tags');
    expect(creates.map((call) => call.body)).toEqual([{ name: 'Summer' }, { name: 'Summer' }]);
    expect(creates[1]?.authorization).toBe(`Bearer ${session.read().token}`);
    expect(api.keys[1]).toBe(api.keys[0]);
    expect(session.onSessionInvalid).not.toHaveBeenCalled();
  });

  it('ends a session that has no refresh token when a request is refused, without refreshing', async () => {
    const api = tagsApi();
    const refused = freshToken();
    const session = fakeSession({ token: refused, refreshToken: null, _id: 'u1', email: 'a@b.c' });

    expect(await rejection(createTag('Summer'))).toMatchObject({ status: 401 });

    expect(api.calls.map((call) => call.path)).toEqual(['v1/tags']);
    expect(session.onSessionInvalid).toHaveBeenCalledTimes(1);
  });

  it('sends an expired token as it is when there is no refresh token to renew it with', async () => {
    const expired = expiredToken();
    const api = fakeApi({ 'GET v1/assets/countByType': () => jsonResponse(200, { data: COUNTS }) });
    fakeSession({ token: expired, refreshToken: null, _id: 'u1', email: 'a@b.c' });

    await countByType();

    expect(api.calls.map((call) => [call.path, call.authorization])).toEqual([
      ['v1/assets/countByType', `Bearer ${expired}`],
    ]);
  });

  it('refreshes a fresh session only when forced, and says which tokens it holds', async () => {
    const api = fakeApi();
    const token = freshToken();
    const session = signedIn(token);

    expect(await refreshSession()).toMatchObject({ token, refreshToken: 'r' });
    expect(api.callsTo('v1/auth/refresh')).toHaveLength(0);

    const forced = await refreshSession({ force: true });
    expect(api.callsTo('v1/auth/refresh')).toHaveLength(1);
    expect(forced).toMatchObject({ token: session.read().token, refreshToken: 'refresh-1' });
    expect(forced?.token).not.toBe(token);
    expect(session.onRefreshed).toHaveBeenCalledTimes(1);
  });

  it('refreshes a token the server refused even while it looks fresh', async () => {
    const api = fakeApi();
    const token = freshToken();
    signedIn(token);

    await refreshSession({ refused: token });
    await refreshSession({ refused: 'some older token' });

    expect(api.callsTo('v1/auth/refresh')).toHaveLength(1);
  });

  it('answers null without a session, and refreshes nothing', async () => {
    const api = fakeApi();
    configureSession(null);

    expect(await refreshSession({ force: true })).toBeNull();
    expect(api.calls).toHaveLength(0);
  });
});

describe('a 401 without a session, or signed out', () => {
  const refusing = () =>
    scriptedFetch({
      'GET v1/assets/countByType': () =>
        jsonResponse(401, { status: 401, code: 'UNAUTHORIZED', message: 'Sign in' }),
    });

  it('sends a read without a session as it is, and answers its 401 as a 401', async () => {
    const server = refusing();
    configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
    configureSession(null);

    expect(await rejection(countByType())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(server.calls.map((call) => call.authorization)).toEqual([null]);
  });

  it('ends a signed-out session on a 401 without trying to refresh it', async () => {
    const server = refusing();
    configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
    const session = fakeSession({ token: null, refreshToken: null });

    expect(await rejection(countByType())).toMatchObject({ status: 401 });
    expect(server.calls).toHaveLength(1);
    expect(session.onSessionInvalid).toHaveBeenCalledTimes(1);
  });
});

describe('what a request carries', () => {
  it('sends the version a change is based on as If-Match, and nothing without one', async () => {
    const server = scriptedFetch({
      'PATCH v1/tags/t1': () => jsonResponse(200, { data: { id: 't1', name: 'Autumn' } }),
    });
    configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
    signedIn(freshToken());
    const rename = (baseVersion?: number) =>
      apiRequest('v1/tags/t1', tagSchema, {
        method: 'patch',
        json: { name: 'Autumn' },
        ...(baseVersion === undefined ? {} : { baseVersion }),
      });

    await rename(7);
    await rename();

    expect(server.calls.map((call) => call.ifMatch)).toEqual(['"7"', null]);
  });

  it('strips a silent: false flag from the body and still rejects a refusal', async () => {
    const api = fakeApi({
      'POST v1/auth/signup/passwordless': () =>
        jsonResponse(409, { status: 409, code: 'EMAIL_TAKEN', message: 'Taken' }),
    });

    const silentFalse = { email: 'taken@b.c', silent: false } as unknown as { email: string };
    expect(await rejection(signupPasswordless(silentFalse))).toMatchObject({ status: 409 });
    expect(api.calls[0]?.body).toEqual({ email: 'taken@b.c' });
  });

  it('keeps an error without a body as the bare status', async () => {
    configureHttp({
      baseUrl: 'http://api.test/',
      fetch: () => Promise.resolve(new Response('', { status: 500, statusText: 'Server Error' })),
    });

    const error = await rejection(apiRequest('v1/anything', countByTypeSchema, { auth: false }));
    expect(error).toMatchObject({ status: 500, code: 'HTTP_500' });
    expect(error.data).toBeUndefined();
  });

  it('answers an empty success body as no data, which a schema that wants data refuses', async () => {
    configureHttp({
      baseUrl: 'http://api.test/',
      fetch: () => Promise.resolve(new Response('', { status: 200 })),
    });

    expect(
      await rejection(apiRequest('v1/anything', countByTypeSchema, { auth: false })),
    ).toMatchObject({ status: 'PARSING_ERROR' });
  });

  it('notes an Event-Position only when it is a plain number of at most 15 digits', async () => {
    let position = '';
    fakeApi({
      'GET v1/assets/countByType': () => {
        const response = jsonResponse(200, { data: COUNTS });
        response.headers.set('event-position', position);
        return response;
      },
    });
    signedIn(freshToken(Date.now(), 900));
    const noted = async (value: string) => {
      streamStopped();
      position = value;
      await countByType();
      return firstStreamPosition();
    };

    expect(await noted('123456789012345')).toBe(123456789012345);
    expect(await noted('7')).toBe(7);
    for (const value of ['1234567890123456', '-5', '1e3', '5a', '']) {
      expect(await noted(value)).toBeUndefined();
    }
    streamStopped();
  });

  it('asks for JSON', async () => {
    const server = scriptedFetch({
      'GET v1/anything': (_call, request) =>
        jsonResponse(200, { data: [{ type: request.headers.get('accept'), count: 1 }] }),
    });
    configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });

    expect(await apiRequest('v1/anything', countByTypeSchema, { auth: false })).toEqual([
      { type: 'application/json', count: 1 },
    ]);
  });

  it('answers a silent change refused again after the refresh as a value, and ends the session', async () => {
    const refused = jsonResponse(401, { status: 401, code: 'UNAUTHORIZED', message: 'Ended' });
    const api = fakeApi({ 'POST v1/anything': () => refused.clone() });
    const session = signedIn(freshToken());

    const result = await apiRequest('v1/anything', countByTypeSchema, {
      method: 'post',
      json: { silent: true as const },
    });

    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(api.callsTo('v1/anything')).toHaveLength(2);
    expect(session.onSessionInvalid).toHaveBeenCalledTimes(1);
  });
});

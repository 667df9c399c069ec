import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { apiRequest, configureHttp, DEFAULT_TIMEOUT_MS } from './http';
import { configureSession } from './session-bridge';
import { freshToken, jsonResponse, scriptedFetch } from './testing';

const asset = z.object({ id: z.string(), name: z.string() });
const TOKEN = freshToken();

/** The API answering GET v1/assets/a1 with `name`; signed in with TOKEN. */
function server(name: string) {
  const api = scriptedFetch({
    'GET v1/assets/a1': () => jsonResponse(200, { data: { id: 'a1', name } }),
  });
  configureHttp({ baseUrl: 'http://api.test/', timeoutMs: DEFAULT_TIMEOUT_MS, fetch: api.fetch });
  configureSession({
    getTokens: () => ({ token: TOKEN, refreshToken: 'r', _id: 'u1', email: 'a@b.c' }),
    onRefreshed: () => {},
    onSessionInvalid: () => {},
  });
  return api;
}

/** What src/boot.ts leaves for the app: its read of `url`, answered with `response`. */
const earlyRead = (url: string, response: Response | Error, token = TOKEN) => {
  window.avatarStudioFirstRead = {
    url,
    authorization: `Bearer ${token}`,
    answer: response instanceof Error ? Promise.reject(response) : Promise.resolve(response),
  };
};

beforeEach(() => delete window.avatarStudioFirstRead);
afterEach(() => configureSession(null));

describe("the app's first read of a record boot.ts has read", () => {
  it("takes boot.ts's answer instead of asking again, once", async () => {
    const api = server('Asked');
    earlyRead(
      'http://api.test/v1/assets/a1',
      jsonResponse(200, { data: { id: 'a1', name: 'Early' } }),
    );
    expect(await apiRequest('v1/assets/a1', asset)).toEqual({ id: 'a1', name: 'Early' });
    expect(api.calls).toEqual([]);
    // A later read of it is the app's own.
    expect(await apiRequest('v1/assets/a1', asset)).toEqual({ id: 'a1', name: 'Asked' });
    expect(api.calls).toHaveLength(1);
  });

  it('asks itself when boot.ts read another address, with another token, or failed', async () => {
    const api = server('Asked');
    const early = () => jsonResponse(200, { data: { id: 'a1', name: 'Early' } });
    earlyRead('http://api.test/v1/assets/a2', early());
    expect((await apiRequest('v1/assets/a1', asset)).name).toBe('Asked');
    earlyRead('http://api.test/v1/assets/a1', early(), freshToken(Date.now() - 60_000));
    expect((await apiRequest('v1/assets/a1', asset)).name).toBe('Asked');
    earlyRead('http://api.test/v1/assets/a1', jsonResponse(401, { code: 'UNAUTHORIZED' }));
    expect((await apiRequest('v1/assets/a1', asset)).name).toBe('Asked');
    earlyRead('http://api.test/v1/assets/a1', new TypeError('Failed to fetch'));
    expect((await apiRequest('v1/assets/a1', asset)).name).toBe('Asked');
    expect(api.calls).toHaveLength(4);
  });
});

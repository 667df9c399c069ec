/**
 * A user's role change: the cache takes the answer; a conflict reads the user again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureHttp } from '../../../api/http';
import { setUserRole } from './mutations';
import { queryClient } from '../../../api/query';
import { configureSession } from '../../../api/session-bridge';
import { jsonResponse, scriptedFetch, signedInSession } from '../../../api/testing';

const NOW = '2026-01-01T00:00:00.000Z';

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
});

afterEach(() => {
  configureSession(null);
  queryClient.clear();
});

describe('setUserRole', () => {
  const USER = {
    id: 'u2',
    email: 'dev@avatar.studio',
    role: 'developer',
    verifiedAt: NOW,
    createdAt: NOW,
    version: 2,
    status: 'active',
    disabledAt: null,
    lastSignInAt: null,
  };

  it('a role someone else changed meanwhile is refused; the user is read again', async () => {
    queryClient.setQueryData(['users', 'u2'], USER);
    const server = serve({
      'PATCH private/v1/users/u2': [
        409,
        { status: 409, code: 'EDIT_CONFLICT', message: 'Changed since', conflicts: [] },
      ],
    });
    const error = await failure(setUserRole('u2', 'admin', 2));
    expect(sent(server)).toEqual(['PATCH private/v1/users/u2 {"role":"admin"}']);
    expect(error).toMatchObject({ status: 409, code: 'EDIT_CONFLICT' });
    expect(stale(['users', 'u2'])).toEqual([true]);
  });

  it('another failure leaves the user as it was', async () => {
    queryClient.setQueryData(['users', 'u2'], USER);
    serve({
      'PATCH private/v1/users/u2': [403, { status: 403, code: 'FORBIDDEN', message: 'No' }],
    });
    expect(await failure(setUserRole('u2', 'admin', 2))).toMatchObject({ code: 'FORBIDDEN' });
    expect(stale(['users', 'u2'])).toEqual([false]);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise, waitFor } from 'xstate';
import { apiRequest, configureHttp } from '../api/http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { countByTypeSchema, type AuthResult, type SignupResult } from '../../contract/schemas';
import type { SignInResult } from '../../contract/account-schemas';
import { freshToken, jsonResponse, scriptedFetch } from '../api/testing';
import {
  createAppSession,
  selectError,
  selectIsAnonymous,
  selectIsBusy,
  selectIsLoggedIn,
  selectIsLoggingOut,
  selectLastVerificationId,
  selectUser,
  type AppSession,
} from './app-session';
import {
  sessionMachine,
  type CodeCredentials,
  type PasswordCredentials,
  type SignupCredentials,
} from './session.machine';
import { SESSION_STORAGE_KEY, toPersisted } from './session-persistence';

/** A request through the client as any resource module makes one (the asset counts). */
const countByType = () => apiRequest(endpoint(ENDPOINTS.assetCounts), countByTypeSchema);

const EMAIL = 'ada@example.com';

function authResult(overrides: Partial<AuthResult> = {}): AuthResult {
  return {
    _id: 'u1',
    email: EMAIL,
    verifiedAt: null,
    role: 'user',
    assets: [],
    wallets: [],
    settings: { isPasswordUpdated: false, isEmailVerified: false },
    token: freshToken(),
    refreshToken: 'refresh-1',
    ...overrides,
  };
}

/** The real machine with server calls answered in memory and counted. */
function fakeServerMachine(result: () => AuthResult = () => authResult()) {
  const logout = vi.fn(() => Promise.resolve({ success: true }));
  const machine = sessionMachine.provide({
    actors: {
      login: fromPromise<SignInResult, PasswordCredentials | CodeCredentials>(() =>
        Promise.resolve(result()),
      ),
      signup: fromPromise<SignupResult, SignupCredentials>(() =>
        Promise.resolve({ ...result(), verificationId: 'ver-1' }),
      ),
      logout: fromPromise<unknown, { refreshToken: string }>(logout),
    },
  });
  return { machine, logout };
}

const sessions: AppSession[] = [];
let channelCount = 0;

/** One "tab": its own session on the shared localStorage and a per-test channel. */
function openTab(
  machine = fakeServerMachine().machine,
  channelName = `test-channel-${channelCount}`,
) {
  const redirectToSignin = vi.fn();
  const session = createAppSession({ machine, redirectToSignin, channelName });
  sessions.push(session);
  return { ...session, redirectToSignin };
}

/** Logs `first` in and waits until the tab `second` is logged in too. */
async function logInAcross(first: ReturnType<typeof openTab>, second: ReturnType<typeof openTab>) {
  first.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
  await waitFor(second.actor, selectIsLoggedIn);
}

const storedRecord = () =>
  JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null') as unknown;

afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
  channelCount += 1;
  vi.restoreAllMocks();
});

describe('createAppSession', () => {
  it('persists every change and restores it in the next session', async () => {
    const tab = openTab();
    expect(storedRecord()).toMatchObject({ isLoggedIn: false });

    tab.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
    await waitFor(tab.actor, selectIsLoggedIn);
    tab.actor.send({ type: 'PASSWORD_UPDATED' });

    expect(storedRecord()).toEqual(toPersisted(tab.actor.getSnapshot().context));
    tab.dispose();
    const reopened = openTab();
    expect(selectUser(reopened.actor.getSnapshot())).toEqual(selectUser(tab.actor.getSnapshot()));
    expect(reopened.actor.getSnapshot().context.isRestored).toBe(true);
  });

  it('exposes narrow selectors for the UI', async () => {
    const tab = openTab();
    const snapshot = () => tab.actor.getSnapshot();

    tab.actor.send({ type: 'SIGNUP', email: EMAIL, password: 'pw' });
    expect(selectIsBusy(snapshot())).toBe(true);
    await waitFor(tab.actor, (s) => !selectIsBusy(s));

    expect(selectIsLoggedIn(snapshot())).toBe(true);
    expect(selectIsAnonymous(snapshot())).toBe(false);
    expect(selectLastVerificationId(snapshot())).toBe('ver-1');
    expect(selectError(snapshot())).toBeNull();
    tab.actor.send({ type: 'LOGOUT' });
    expect(selectIsLoggingOut(snapshot())).toBe(true);
    await waitFor(tab.actor, (s) => !selectIsLoggingOut(s));
    expect(selectIsLoggedIn(snapshot())).toBe(false);
  });

  describe('plugged into the HTTP layer', () => {
    const serve = (routes: Parameters<typeof scriptedFetch>[0]) => {
      const server = scriptedFetch(routes);
      configureHttp({ baseUrl: 'http://api.test/', fetch: server.fetch });
      return server.calls;
    };

    it('authenticates with the pair in storage, which another tab may have rotated', async () => {
      const tab = openTab();
      tab.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
      await waitFor(tab.actor, selectIsLoggedIn);
      const rotated = freshToken(Date.now(), 600);
      localStorage.setItem(
        SESSION_STORAGE_KEY,
        JSON.stringify(
          toPersisted({ data: { ...selectUser(tab.actor.getSnapshot()), token: rotated } }),
        ),
      );
      const calls = serve({ 'GET v1/assets/countByType': () => jsonResponse(200, { data: [] }) });

      await countByType();

      expect(calls[0]?.authorization).toBe(`Bearer ${rotated}`);
    });

    it('stores a refreshed pair in the session', async () => {
      const expired = freshToken(Date.now() - 3_600_000, 60);
      const tab = openTab(fakeServerMachine(() => authResult({ token: expired })).machine);
      tab.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
      await waitFor(tab.actor, selectIsLoggedIn);
      const renewed = freshToken();
      serve({
        'POST v1/auth/refresh': () =>
          jsonResponse(200, {
            data: { token: renewed, refreshToken: 'refresh-2', assets: ['a9'] },
          }),
        'GET v1/assets/countByType': () => jsonResponse(200, { data: [] }),
      });

      await countByType();

      expect(selectUser(tab.actor.getSnapshot())).toMatchObject({
        token: renewed,
        refreshToken: 'refresh-2',
        assets: ['a9'],
        email: EMAIL,
      });
      expect(storedRecord()).toMatchObject({ data: { token: renewed, refreshToken: 'refresh-2' } });
    });

    it('resets and redirects to sign-in when the server rejects the session', async () => {
      const tab = openTab();
      tab.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
      await waitFor(tab.actor, selectIsLoggedIn);
      // Signed out elsewhere: the token is refused, and so is the refresh that follows.
      serve({
        'GET v1/assets/countByType': () =>
          jsonResponse(401, { status: 401, code: 'UNAUTHORIZED', message: 'Session ended' }),
        'POST v1/auth/refresh': () =>
          jsonResponse(401, {
            status: 401,
            code: 'REFRESH_TOKEN_REVOKED',
            message: 'Refresh token revoked',
          }),
      });

      await expect(countByType()).rejects.toMatchObject({
        status: 401,
        message: 'Refresh token revoked',
      });

      expect(selectIsLoggedIn(tab.actor.getSnapshot())).toBe(false);
      expect(tab.redirectToSignin).toHaveBeenCalledTimes(1);
      expect(storedRecord()).toMatchObject({ isLoggedIn: false, data: { token: null } });
    });

    it('unplugs the session on dispose', async () => {
      const tab = openTab();
      tab.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
      await waitFor(tab.actor, selectIsLoggedIn);
      tab.dispose();
      const calls = serve({ 'GET v1/assets/countByType': () => jsonResponse(200, { data: [] }) });

      await countByType();

      expect(calls[0]?.authorization).toBeNull();
    });
  });

  describe('across tabs', () => {
    it('hands a login to the other tabs, without echoing it back', async () => {
      const post = vi.spyOn(BroadcastChannel.prototype, 'postMessage');
      const first = openTab();
      const second = openTab();

      await logInAcross(first, second);

      expect(selectUser(second.actor.getSnapshot())).toEqual(selectUser(first.actor.getSnapshot()));
      // LOGIN resets first (nothing to announce from logged out), then the result is announced once.
      expect(post.mock.calls.map(([message]) => (message as { type: string }).type)).toEqual([
        'sync',
      ]);
    });

    it('hands a refresh to the other tabs', async () => {
      const first = openTab();
      const second = openTab();
      await logInAcross(first, second);

      first.actor.send({
        type: 'REFRESHED',
        data: { token: 'rotated', refreshToken: 'refresh-2' },
      });
      await waitFor(second.actor, (s) => selectUser(s).token === 'rotated');

      expect(selectUser(second.actor.getSnapshot()).refreshToken).toBe('refresh-2');
    });

    it('logs the other tabs out without calling the server again', async () => {
      const firstServer = fakeServerMachine();
      const secondServer = fakeServerMachine();
      const first = openTab(firstServer.machine);
      const second = openTab(secondServer.machine);
      await logInAcross(first, second);

      first.actor.send({ type: 'LOGOUT' });
      await waitFor(second.actor, (s) => !selectIsLoggedIn(s));

      expect(firstServer.logout).toHaveBeenCalledTimes(1);
      expect(secondServer.logout).not.toHaveBeenCalled();
      expect(second.redirectToSignin).not.toHaveBeenCalled();
    });

    it('logs the other tabs out when the session is found invalid, redirecting only this tab', async () => {
      const first = openTab();
      const second = openTab();
      await logInAcross(first, second);

      first.actor.send({ type: 'SESSION_INVALID' });
      await waitFor(second.actor, (s) => !selectIsLoggedIn(s));

      expect(first.redirectToSignin).toHaveBeenCalledTimes(1);
      expect(second.redirectToSignin).not.toHaveBeenCalled();
    });

    it('ignores messages that are not session news', async () => {
      const tab = openTab();
      tab.actor.send({ type: 'LOGIN', email: EMAIL, password: 'pw' });
      await waitFor(tab.actor, selectIsLoggedIn);
      const stranger = new BroadcastChannel(`test-channel-${channelCount}`);
      // A bystander that hears both messages proves they were delivered.
      const received = new Promise<void>((resolve) => {
        const listener = new BroadcastChannel(`test-channel-${channelCount}`);
        let heard = 0;
        listener.addEventListener('message', () => {
          heard += 1;
          if (heard < 2) return;
          listener.close();
          resolve();
        });
      });

      stranger.postMessage({ type: 'sync', record: 42 });
      stranger.postMessage('logout');
      await received;
      stranger.close();

      expect(selectIsLoggedIn(tab.actor.getSnapshot())).toBe(true);
    });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import * as auth from './auth';
import { configureSession } from './session-bridge';
import { freshToken, jsonResponse, serveApi } from './testing';

const user = {
  _id: 'u1',
  email: 'ada@example.com',
  verifiedAt: null,
  role: 'user',
  assets: [],
  wallets: [],
  settings: { isPasswordUpdated: false, isEmailVerified: false },
};
const authResult = { ...user, token: 't', refreshToken: 'r' };

afterEach(() => {
  configureSession(null);
});

describe('auth resource', () => {
  it('signs up and hands back the verificationId', async () => {
    const { calls } = serveApi({
      'POST v1/auth/signup': () =>
        jsonResponse(201, { data: { ...authResult, verificationId: 'ver-1' } }),
    });

    const result = await auth.signup({ email: 'ada@example.com', password: 'correct horse' });

    expect(result.verificationId).toBe('ver-1');
    expect(result.token).toBe('t');
    expect(calls[0]?.body).toEqual({ email: 'ada@example.com', password: 'correct horse' });
  });

  it('logs in with a code, strips silent, and keeps verifiedAt null', async () => {
    const { calls } = serveApi({
      'POST v1/auth/login': () => jsonResponse(200, { data: authResult }),
    });

    const result = await auth.login({ email: 'ada@example.com', code: '123456', silent: true });

    expect(result).toEqual({ ok: true, status: 200, data: authResult });
    expect(calls[0]?.body).toEqual({ email: 'ada@example.com', code: '123456' });
  });

  it('sends logout with the refresh token and no refresh beforehand', async () => {
    configureSession({
      getTokens: () => ({ token: null, refreshToken: 'r' }),
      onRefreshed: () => {},
      onSessionInvalid: () => {},
    });
    const { calls } = serveApi({
      'POST v1/auth/logout': () => jsonResponse(200, { data: { success: true } }),
    });

    expect(await auth.logout({ refreshToken: 'r' })).toEqual({ success: true });
    expect(calls.map((call) => call.path)).toEqual(['v1/auth/logout']);
    expect(calls[0]?.body).toEqual({ refreshToken: 'r' });
  });

  it('requests login codes and password-less sign-ups', async () => {
    const { calls } = serveApi({
      'POST v1/auth/request-login-code': () => jsonResponse(200, { data: { sent: true } }),
      'POST v1/auth/signup/passwordless': () => jsonResponse(200, { data: { sent: true } }),
    });

    expect(await auth.requestLoginCode({ email: 'ada@example.com' })).toEqual({ sent: true });
    expect(await auth.signupPasswordless({ email: 'ada@example.com' })).toEqual({ sent: true });
    expect(calls).toHaveLength(2);
  });

  it('verifies the password of the signed-in user with a bearer token', async () => {
    const token = freshToken();
    configureSession({
      getTokens: () => ({ token, refreshToken: 'r', _id: 'u1', email: 'ada@example.com' }),
      onRefreshed: () => {},
      onSessionInvalid: () => {},
    });
    const { calls } = serveApi({
      'POST v1/auth/password-id-verification': () =>
        jsonResponse(200, { data: { verified: true } }),
    });

    expect(await auth.passwordIdVerification({ password: 'pw' })).toEqual({ verified: true });
    expect(calls[0]?.authorization).toBe(`Bearer ${token}`);
  });

  it('refreshes a token pair directly, sending the token and the refresh token (spec §7)', async () => {
    const { calls } = serveApi({
      'POST v1/auth/refresh': () =>
        jsonResponse(200, { data: { token: 't2', refreshToken: 'r2', email: 'ada@example.com' } }),
    });

    expect(await auth.refresh({ token: 't', refreshToken: 'r' })).toEqual({
      token: 't2',
      refreshToken: 'r2',
      email: 'ada@example.com',
    });
    expect(calls[0]?.body).toEqual({ token: 't', refreshToken: 'r' });
    // Without a token (a session that lost it) only the refresh token goes.
    await auth.refresh({ token: null, refreshToken: 'r2' });
    expect(calls[1]?.body).toEqual({ refreshToken: 'r2' });
  });
});

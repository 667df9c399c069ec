import { SignJWT, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { authResultSchema } from '../contract/schemas';
import { REFRESH_RETRY_MS, revokeAllForUser } from './auth/refresh-tokens';
import { dataOf, expectError, TEST_SECRET, useTestApp } from './test-app';

const t = useTestApp();

const refresh = (refreshToken: string, token?: string) =>
  t.post('/v1/auth/refresh', { token, refreshToken });

async function refreshOk(refreshToken: string) {
  return authResultSchema.parse(dataOf(await refresh(refreshToken)));
}

function refreshMessage(response: Awaited<ReturnType<typeof refresh>>) {
  return expectError(response, 401).message;
}

describe('POST /v1/auth/refresh', () => {
  it('rotates the refresh token and answers a working access token with the user', async () => {
    const session = await t.signUp();
    t.advance(60_000);
    const next = await refreshOk(session.refreshToken);
    expect(next).toMatchObject({ _id: session._id, email: session.email, role: 'user' });
    expect(next.refreshToken).not.toBe(session.refreshToken);
    expect(next.token).not.toBe(session.token);
    expect(dataOf(await t.get('/v1/users/me', next.token))).toMatchObject({ _id: session._id });
    // The successor rotates too.
    await refreshOk(next.refreshToken);
  });

  it('treats reuse of a rotated token as theft once its retry window has passed: the whole family is revoked', async () => {
    const session = await t.signUp();
    const second = await refreshOk(session.refreshToken);
    t.advance(REFRESH_RETRY_MS + 1);
    expect(refreshMessage(await refresh(session.refreshToken))).toBe('Refresh token revoked');
    // The newest token of the family no longer works either.
    expect(refreshMessage(await refresh(second.refreshToken))).toBe('Refresh token revoked');
  });

  it('treats reuse as theft at once when the successor has been used', async () => {
    const session = await t.signUp();
    const second = await refreshOk(session.refreshToken);
    const third = await refreshOk(second.refreshToken);
    expect(refreshMessage(await refresh(session.refreshToken))).toBe('Refresh token revoked');
    expect(refreshMessage(await refresh(third.refreshToken))).toBe('Refresh token revoked');
  });

  it('answers a retry within 10 s (a page reloaded before the answer arrived) with the same unused successor', async () => {
    expect(REFRESH_RETRY_MS).toBe(10_000);
    const session = await t.signUp();
    const lost = await refreshOk(session.refreshToken);
    t.advance(9_000);
    const retried = await refreshOk(session.refreshToken);
    expect(retried.refreshToken).toBe(lost.refreshToken);
    expect(dataOf(await t.get('/v1/users/me', retried.token))).toMatchObject({ _id: session._id });
    // The session goes on with the one successor; the first token is now a copy.
    await refreshOk(retried.refreshToken);
    expect(refreshMessage(await refresh(session.refreshToken))).toBe('Refresh token revoked');
  });

  it('leaves the other sessions of the user alone on reuse', async () => {
    const session = await t.signUp();
    const other = await t.login(session.email!, 'password-123');
    await refreshOk(session.refreshToken);
    t.advance(REFRESH_RETRY_MS + 1);
    expectError(await refresh(session.refreshToken), 401);
    await refreshOk(other.refreshToken);
  });

  it('gives several concurrent refreshes with the same token one and the same successor', async () => {
    const session = await t.signUp();
    // Open several pooled connections first (PostgreSQL), so the refreshes really overlap.
    await Promise.all(Array.from({ length: 5 }, () => t.db.query('SELECT 1')));
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => refresh(session.refreshToken)),
    );
    const successors = responses.map((r) => authResultSchema.parse(dataOf(r)).refreshToken);
    expect(new Set(successors).size).toBe(1);
    await refreshOk(successors[0]!);
  });

  it('keeps the absolute family expiry across rotations', async () => {
    const session = await t.signUp();
    const ttlMs = t.config.refreshTokenTtl * 1000;
    t.advance(ttlMs - 60_000);
    const rotated = await refreshOk(session.refreshToken);
    t.advance(60_000);
    expect(refreshMessage(await refresh(rotated.refreshToken))).toBe('Refresh token expired');
  });

  it('answers "Refresh token not found" for a token never issued', async () => {
    expect(refreshMessage(await refresh('x'.repeat(43)))).toBe('Refresh token not found');
  });

  it('rejects missing or wrongly typed fields with 400', async () => {
    expectError(await t.post('/v1/auth/refresh', {}), 400, 'VALIDATION_ERROR');
    expectError(await t.post('/v1/auth/refresh', { refreshToken: '' }), 400, 'VALIDATION_ERROR');
    expectError(await t.post('/v1/auth/refresh', { refreshToken: 42 }), 400, 'VALIDATION_ERROR');
    expectError(
      await t.post('/v1/auth/refresh', { refreshToken: 'abc', token: 1 }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('POST /v1/auth/logout', () => {
  it('revokes the session', async () => {
    const session = await t.signUp();
    const rotated = await refreshOk(session.refreshToken);
    expect(dataOf(await t.post('/v1/auth/logout', { refreshToken: rotated.refreshToken }))).toEqual(
      { success: true },
    );
    expect(refreshMessage(await refresh(rotated.refreshToken))).toBe('Refresh token revoked');
    // Logging out twice is harmless.
    dataOf(await t.post('/v1/auth/logout', { refreshToken: rotated.refreshToken }));
  });

  it('answers 401 for an unknown token and 400 for a missing one', async () => {
    const response = await t.post('/v1/auth/logout', { refreshToken: 'unknown-token' });
    expect(refreshMessage(response)).toBe('Refresh token not found');
    expectError(await t.post('/v1/auth/logout', {}), 400, 'VALIDATION_ERROR');
  });
});

describe('access tokens', () => {
  const sign = (
    claims: Record<string, unknown>,
    secret = t.config.keys.tokenSigning,
    expiresIn = 600,
    issuedAheadS = 0,
  ) => {
    const iat = Math.floor(t.clock.current.getTime() / 1000) + issuedAheadS;
    return new SignJWT({ sub: 'someone', ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + expiresIn)
      .sign(new TextEncoder().encode(secret));
  };

  it('expire after ACCESS_TOKEN_TTL', async () => {
    const session = await t.signUp();
    t.advance((t.config.accessTokenTtl - 1) * 1000);
    dataOf(await t.get('/v1/users/me', session.token));
    t.advance(2000);
    const body = expectError(await t.get('/v1/users/me', session.token), 401, 'UNAUTHORIZED');
    expect(body.message).toBe('Access token expired');
  });

  it('are rejected when missing, malformed, tampered or signed with another key', async () => {
    const session = await t.signUp();
    const [header, payload, signature] = session.token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const forgedPayload = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload, 'base64url').toString()),
        role: 'admin',
      }),
    ).toString('base64url');
    const badTokens = [
      `${header}.${payload}.${flipped}`,
      `${header}.${forgedPayload}.${signature}`,
      await sign(
        { role: 'admin', ability: [['manage', 'all']] },
        'another-secret-another-secret-xx',
      ),
      // The server secret itself is not the signing key (a key is derived for each use).
      await sign({ role: 'admin', ability: [['manage', 'all']] }, TEST_SECRET),
      await sign({ role: 'admin' }), // no ability claim
      await sign({ role: 'emperor', ability: [] }),
      await sign({ role: 'user', ability: 'everything' }),
      'garbage',
    ];
    for (const token of badTokens) {
      expectError(await t.get('/v1/users/me', token), 401, 'UNAUTHORIZED');
    }
    expectError(await t.get('/v1/users/me'), 401, 'UNAUTHORIZED');
    const basic = await t.request('GET', '/v1/users/me', {
      headers: { authorization: `Basic ${session.token}` },
    });
    expectError(basic, 401, 'UNAUTHORIZED');
  });

  it('are refused when issued in the future (beyond 5 s of clock skew)', async () => {
    // Signed for a real session, so that only the issue time is wrong.
    const { sub, sid } = decodeJwt((await t.signUp()).token);
    const claims = { sub, sid, role: 'user', ability: [['read', 'Asset']] };
    const me = (token: string) => t.get('/v1/assets?limit=1', token);
    expect((await me(await sign(claims))).status).toBe(200);
    expect((await me(await sign(claims, undefined, 600, 5))).status).toBe(200);
    expectError(await me(await sign(claims, undefined, 600, 60)), 401, 'UNAUTHORIZED');
  });
});

// On PostgreSQL these requests really run at once; a revocation that missed the token a
// concurrent refresh inserted would leave that token working.
describe('revocation while a refresh is in flight', () => {
  const ROUNDS = 15;

  it('after a logout returns, no token of its family refreshes', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const session = await t.signUp();
      const [refreshed, logout] = await Promise.all([
        refresh(session.refreshToken),
        t.post('/v1/auth/logout', { refreshToken: session.refreshToken }),
      ]);
      dataOf(logout);
      // Neither the signed-out access token nor one the racing refresh got still works.
      expectError(await t.get('/v1/users/me', session.token), 401, 'UNAUTHORIZED');
      if (refreshed.status === 200) {
        const next = authResultSchema.parse(dataOf(refreshed));
        expectError(await refresh(next.refreshToken), 401, 'REFRESH_TOKEN_REVOKED');
        expectError(await t.get('/v1/users/me', next.token), 401, 'UNAUTHORIZED');
      }
    }
  });

  it("after a reset's revocation of every session returns, no token of the user refreshes", async () => {
    // The revocation a password reset (and a proven address) makes, run right beside the refresh.
    for (let round = 0; round < ROUNDS; round += 1) {
      const session = await t.signUp();
      // Started a little later each round, to sweep the refresh's transaction.
      const revoke = async () => {
        await new Promise((resolve) => setTimeout(resolve, round % 8));
        await revokeAllForUser(t.db, session._id, t.clock.current);
      };
      const [refreshed] = await Promise.all([refresh(session.refreshToken), revoke()]);
      if (refreshed.status === 200) {
        const next = authResultSchema.parse(dataOf(refreshed)).refreshToken;
        expectError(await refresh(next), 401, 'REFRESH_TOKEN_REVOKED');
      }
    }
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken, type TokenSettings } from './access-token';

const user = { id: 'u1', role: 'admin' as const, verified_at: new Date('2030-01-01T00:00:00Z') };

function settingsAt(
  iso: string,
  secret = 'a secret long enough for HS256 signing!!',
): TokenSettings {
  return { secret, ttlSeconds: 900, now: () => new Date(iso) };
}

const issued = settingsAt('2030-01-01T00:00:00Z');

/** A token issued at `issued`'s time for `session`, and checked once there (so it is cached). */
async function checkedToken(session: string): Promise<string> {
  const token = await signAccessToken(issued, user, session);
  expect((await verifyAccessToken(issued, token)).ok).toBe(true);
  return token;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('verifyAccessToken', () => {
  it('checks the signature of a token once, not on every request that carries it', async () => {
    const token = await signAccessToken(issued, user, 'session-1');
    const verify = vi.spyOn(globalThis.crypto.subtle, 'verify');
    for (let i = 0; i < 5; i++) {
      const result = await verifyAccessToken(issued, token);
      expect(result.ok && result.claims.userId).toBe('u1');
    }
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('still refuses a token it checked before once it has expired', async () => {
    const token = await checkedToken('session-2');
    expect((await verifyAccessToken(settingsAt('2030-01-01T00:14:59Z'), token)).ok).toBe(true);
    expect(await verifyAccessToken(settingsAt('2030-01-01T00:15:00Z'), token)).toEqual({
      ok: false,
      expired: true,
    });
  });

  it('still refuses a token it checked before under another secret, or from the future', async () => {
    const token = await checkedToken('session-3');
    const otherSecret = settingsAt(
      '2030-01-01T00:00:00Z',
      'another secret long enough for HS256!!',
    );
    expect(await verifyAccessToken(otherSecret, token)).toEqual({ ok: false, expired: false });
    // The same token seen by a server whose clock is a minute behind the one that issued it.
    expect(await verifyAccessToken(settingsAt('2029-12-31T23:59:00Z'), token)).toEqual({
      ok: false,
      expired: false,
    });
  });

  it('refuses a token whose signature was changed, even after the genuine one was checked', async () => {
    const token = await checkedToken('session-4');
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await verifyAccessToken(issued, forged)).toEqual({ ok: false, expired: false });
  });
});

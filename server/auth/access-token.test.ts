import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken, type TokenSettings } from './access-token';

const user = { id: 'u1', role: 'admin' as const, verified_at: new Date('2030-01-01T00:00:00Z') };

function settingsAt(
  iso: string,
  secret = 'a secret long enough for HS256 signing!!',
): TokenSettings {
  return { secret, ttlSeconds: 900, now: () => new Date(iso) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('verifyAccessToken', () => {
  it('checks the signature of a token once, not on every request that carries it', async () => {
    const settings = settingsAt('2030-01-01T00:00:00Z');
    const token = await signAccessToken(settings, user, 'session-1');
    const verify = vi.spyOn(globalThis.crypto.subtle, 'verify');
    for (let i = 0; i < 5; i++) {
      const result = await verifyAccessToken(settings, token);
      expect(result.ok && result.claims.userId).toBe('u1');
    }
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('still refuses a token it checked before once it has expired', async () => {
    const token = await signAccessToken(settingsAt('2030-01-01T00:00:00Z'), user, 'session-2');
    expect((await verifyAccessToken(settingsAt('2030-01-01T00:14:59Z'), token)).ok).toBe(true);
    expect(await verifyAccessToken(settingsAt('2030-01-01T00:15:00Z'), token)).toEqual({
      ok: false,
      expired: true,
    });
  });

  it('still refuses a token it checked before under another secret, or from the future', async () => {
    const settings = settingsAt('2030-01-01T00:00:00Z');
    const token = await signAccessToken(settings, user, 'session-3');
    expect((await verifyAccessToken(settings, token)).ok).toBe(true);
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
    const settings = settingsAt('2030-01-01T00:00:00Z');
    const token = await signAccessToken(settings, user, 'session-4');
    expect((await verifyAccessToken(settings, token)).ok).toBe(true);
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await verifyAccessToken(settings, forged)).toEqual({ ok: false, expired: false });
  });
});

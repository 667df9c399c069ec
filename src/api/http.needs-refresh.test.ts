import { describe, expect, it } from 'vitest';
import { needsRefresh, REFRESH_MARGIN_MS, TOKEN_CUTOFF } from './http';
import { fakeJwt } from './testing';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const nowS = NOW / 1000;
const registered = { _id: 'u1', email: 'ada@example.com' };
const token = (claims: Record<string, unknown>) =>
  fakeJwt({ sub: 'u1', ability: [['read', 'Asset']], iat: nowS, exp: nowS + 900, ...claims });

describe('needsRefresh (spec §7 session refresh rule)', () => {
  it('keeps a token with ability, issued after the cutoff and far from expiry', () => {
    expect(needsRefresh(token({}), registered, NOW)).toBe(false);
  });

  it('refreshes when the token is missing', () => {
    expect(needsRefresh(null, registered, NOW)).toBe(true);
    expect(needsRefresh(undefined, registered, NOW)).toBe(true);
    expect(needsRefresh('', registered, NOW)).toBe(true);
  });

  it('refreshes a token without an ability claim', () => {
    expect(needsRefresh(token({ ability: undefined }), registered, NOW)).toBe(true);
    expect(needsRefresh(token({ ability: null }), registered, NOW)).toBe(true);
  });

  it('accepts an empty ability (no rules is still a claim)', () => {
    expect(needsRefresh(token({ ability: [] }), registered, NOW)).toBe(false);
  });

  it('refreshes the token of an anonymous session (id, no e-mail)', () => {
    expect(needsRefresh(token({}), { _id: 'guest' }, NOW)).toBe(true);
    expect(needsRefresh(token({}), { _id: 'guest', email: null }, NOW)).toBe(true);
  });

  it('does not treat a session without an id as anonymous', () => {
    expect(needsRefresh(token({}), { _id: null, email: null }, NOW)).toBe(false);
    expect(needsRefresh(token({}), null, NOW)).toBe(false);
  });

  it('refreshes when the token expires within 30 s, inclusive', () => {
    const exp = nowS + 600;
    const expMs = exp * 1000;
    expect(REFRESH_MARGIN_MS).toBe(30_000);
    expect(needsRefresh(token({ exp }), registered, expMs - 30_000)).toBe(true);
    expect(needsRefresh(token({ exp }), registered, expMs - 30_001)).toBe(false);
    expect(needsRefresh(token({ exp }), registered, expMs + 1)).toBe(true);
  });

  it('refreshes a token issued before 2022-07-19 UTC', () => {
    const cutoffS = TOKEN_CUTOFF / 1000;
    expect(new Date(TOKEN_CUTOFF).toISOString()).toBe('2022-07-19T00:00:00.000Z');
    expect(needsRefresh(token({ iat: cutoffS }), registered, NOW)).toBe(false);
    expect(needsRefresh(token({ iat: cutoffS - 1 }), registered, NOW)).toBe(true);
  });

  it('refreshes a token that cannot prove freshness or cannot be decoded', () => {
    expect(needsRefresh(token({ exp: undefined }), registered, NOW)).toBe(true);
    expect(needsRefresh(token({ iat: undefined }), registered, NOW)).toBe(true);
    expect(needsRefresh('not-a-jwt', registered, NOW)).toBe(true);
  });
});

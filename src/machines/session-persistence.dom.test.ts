import { describe, expect, it } from 'vitest';
import { defaultSessionContext, defaultSessionUser, type SessionContext } from './session.machine';
import { persist, restore, SESSION_STORAGE_KEY, type SessionStorage } from './session-persistence';

const user = {
  token: 'access',
  refreshToken: 'refresh',
  _id: 'u1',
  email: 'ada@example.com',
  verifiedAt: '2025-01-01T00:00:00.000Z',
  assets: ['a1'],
  wallets: ['w1'],
  settings: { isPasswordUpdated: true, isEmailVerified: true },
};

const busyContext: SessionContext = {
  data: user,
  isLoggingOut: true,
  isCreating: true,
  isRestored: true,
  error: { status: 500, code: 'BOOM', message: 'boom' },
  lastVerificationId: 'ver-1',
  secondFactor: { secondFactor: 'totp', challenge: 'challenge-1', expiresAt: '2030-01-01' },
};

const stored = () => localStorage.getItem(SESSION_STORAGE_KEY);
const store = (value: unknown) =>
  localStorage.setItem(
    SESSION_STORAGE_KEY,
    typeof value === 'string' ? value : JSON.stringify(value),
  );

describe('persist', () => {
  it('writes the record under persist:user with exactly the documented keys', () => {
    persist(localStorage, busyContext);

    const written = JSON.parse(stored() ?? 'null') as Record<string, unknown>;
    expect(written).toEqual({ data: user, isLoggedIn: true, isAnonymous: false });
    expect(Object.keys(written).sort()).toEqual(['data', 'isAnonymous', 'isLoggedIn']);
    expect(Object.keys(written.data as object).sort()).toEqual(
      [
        '_id',
        'assets',
        'email',
        'refreshToken',
        'settings',
        'token',
        'verifiedAt',
        'wallets',
      ].sort(),
    );
    for (const transient of [
      'isLoggingOut',
      'isCreating',
      'isRestored',
      'error',
      'lastVerificationId',
    ]) {
      expect(stored()).not.toContain(transient);
    }
  });

  it('marks an anonymous session as such', () => {
    persist(localStorage, { data: { ...user, email: null } });

    expect(JSON.parse(stored() ?? 'null')).toMatchObject({ isLoggedIn: true, isAnonymous: true });
  });

  it('survives a storage that refuses writes', () => {
    const full: SessionStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(() => persist(full, busyContext)).not.toThrow();
  });
});

describe('restore', () => {
  it('round-trips a persisted session, dropping every session flag', () => {
    persist(localStorage, busyContext);

    expect(restore(localStorage)).toEqual({
      ...defaultSessionContext(),
      data: user,
      isRestored: true,
    });
  });

  it('drops a stored isCreating flag', () => {
    store({ data: user, isCreating: true, isLoggingOut: true });

    const restored = restore(localStorage);

    expect(restored.isCreating).toBe(false);
    expect(restored.isLoggingOut).toBe(false);
    expect(restored.data).toEqual(user);
  });

  it.each([
    ['corrupt JSON', '{"data": {"token": '],
    ['JSON null', 'null'],
    ['an array', '[]'],
    ['data of the wrong type', { data: 5 }],
  ])('falls back to logged out on %s', (_label, value) => {
    store(value);
    expect(restore(localStorage)).toEqual(defaultSessionContext());
  });

  it('falls back to logged out and not anonymous when the record has no token', () => {
    store({ data: { ...user, token: null, email: null } });

    const restored = restore(localStorage);

    expect(restored).toEqual(defaultSessionContext());
    expect(restored.data._id).toBeNull();
  });

  it('starts logged out when nothing is stored or storage is unreadable', () => {
    expect(restore(localStorage)).toEqual(defaultSessionContext());
    const broken: SessionStorage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {},
    };
    expect(restore(broken)).toEqual(defaultSessionContext());
  });

  it('repairs damaged fields instead of dropping the session', () => {
    store({
      data: { token: 'access', refreshToken: 'refresh', _id: 'u1', assets: 'x', settings: null },
    });

    expect(restore(localStorage).data).toEqual({
      ...defaultSessionUser(),
      token: 'access',
      refreshToken: 'refresh',
      _id: 'u1',
    });
  });
});

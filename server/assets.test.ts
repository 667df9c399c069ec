import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { authResultSchema, countByTypeSchema } from '../src/api/schemas';
import { abilityFromPacked } from './auth/abilities';
import { demoAssets } from './seed';
import { dataOf, expectError, useTestApp } from './test-app';

const t = useTestApp();

function expectedCounts() {
  const counts = new Map<string, number>();
  for (const asset of demoAssets()) counts.set(asset.type, (counts.get(asset.type) ?? 0) + 1);
  return [...counts]
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => (a.type < b.type ? -1 : 1));
}

async function anonymousToken() {
  return authResultSchema.parse(dataOf(await t.post('/v1/auth/signup', {}))).token;
}

describe('GET /v1/assets/countByType', () => {
  it('counts the seeded assets per type, ordered by type, for any signed-in role', async () => {
    for (const token of [await anonymousToken(), (await t.signUp()).token]) {
      const counts = countByTypeSchema.parse(dataOf(await t.get('/v1/assets/countByType', token)));
      expect(counts).toEqual(expectedCounts());
      expect(counts.reduce((sum, row) => sum + row.count, 0)).toBe(300);
    }
  });

  it('needs a bearer token', async () => {
    expectError(await t.get('/v1/assets/countByType'), 401, 'UNAUTHORIZED');
  });
});

describe('/private/v1', () => {
  it('is open to admins and developers', async () => {
    for (const role of ['admin', 'developer'] as const) {
      const { token } = await t.loginAs(role);
      const counts = dataOf(await t.get('/private/v1/assets/countByType', token));
      expect(counts).toEqual(expectedCounts());
    }
  });

  it('answers 403 to users and anonymous users and 401 without a token', async () => {
    const user = await t.signUp();
    expectError(await t.get('/private/v1/assets/countByType', user.token), 403, 'FORBIDDEN');
    expectError(await t.get('/private/v1/assets/countByType', await anonymousToken()), 403);
    expectError(await t.get('/private/v1/assets/countByType'), 401, 'UNAUTHORIZED');
  });

  it('answers 404 for unknown routes once access is granted', async () => {
    const { token } = await t.loginAs('admin');
    expectError(await t.get('/private/v1/no-such-thing', token), 404, 'NOT_FOUND');
    expectError(await t.get('/v1/no-such-thing', token), 404, 'NOT_FOUND');
  });
});

describe('the ability claim', () => {
  it('carries the rules of the role', async () => {
    const admin = await t.login('admin@test.avatar', 'admin-password');
    const developer = await t.loginAs('developer');
    const user = await t.signUp();
    const anonymous = await anonymousToken();
    const ability = (token: string) => abilityFromPacked(decodeJwt(token).ability);

    expect(ability(admin.token).can('delete', 'Asset')).toBe(true);
    expect(ability(developer.token).can('update', 'CageMesh')).toBe(true);
    expect(ability(developer.token).can('delete', 'Asset')).toBe(false);
    expect(ability(developer.token).can('access', 'PrivateApi')).toBe(true);
    expect(ability(user.token).can('read', 'Tag')).toBe(true);
    expect(ability(user.token).can('update', 'Asset')).toBe(false);
    expect(ability(user.token).can('access', 'PrivateApi')).toBe(false);
    expect(ability(anonymous).can('read', 'Asset')).toBe(true);
    expect(ability(anonymous).can('read', 'Tag')).toBe(false);
  });
});

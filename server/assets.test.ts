import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  assetSchema,
  authResultSchema,
  countByTypeSchema,
  listResponseSchema,
} from '../contract/schemas';
import { abilityFromPacked } from '../contract/ability';
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

  it('counts only the assets the list filters keep, with the list’s filter syntax', async () => {
    const { token } = await t.signUp();
    const counts = async (query: string) =>
      countByTypeSchema.parse(dataOf(await t.get(`/v1/assets/countByType?${query}`, token)));
    const count = (filter: (asset: ReturnType<typeof demoAssets>[number]) => boolean) =>
      expectedCounts().flatMap(({ type }) => {
        const n = demoAssets().filter((a) => a.type === type && filter(a)).length;
        return n > 0 ? [{ type, count: n }] : [];
      });

    expect(await counts('type=hair&type=beard')).toEqual(
      count((a) => a.type === 'hair' || a.type === 'beard'),
    );
    expect(await counts('gender=female')).toEqual(count((a) => a.gender === 'female'));
    expect(await counts('gender=male&type=body')).toEqual(
      count((a) => a.gender === 'male' && a.type === 'body'),
    );
    const [first] = demoAssets();
    const search = await counts(`search=${encodeURIComponent(first!.name)}`);
    expect(search).toEqual(count((a) => a.name.toLowerCase().includes(first!.name.toLowerCase())));
    expect(await counts('type=hair&gender=female&locked=true&search=zzz')).toEqual([]);
    // Paging and order of the list are accepted and change nothing.
    expect(await counts('page=3&limit=5&order=-name')).toEqual(expectedCounts());
    expect(
      expectError(await t.get('/v1/assets/countByType?colour=red', token), 400).message,
    ).toMatch(/^colour: Unknown filter/);
    expectError(await t.get('/v1/assets/countByType?gender=robot', token), 400, 'VALIDATION_ERROR');
  });

  it('filters on the private mount too', async () => {
    const { token } = await t.loginAs('developer');
    const counts = countByTypeSchema.parse(
      dataOf(await t.get('/private/v1/assets/countByType?type=glasses', token)),
    );
    expect(counts).toEqual(expectedCounts().filter((row) => row.type === 'glasses'));
  });
});

describe('GET /v1/assets/authorize-default', () => {
  const page = (response: Parameters<typeof dataOf>[0]) =>
    listResponseSchema(assetSchema).parse(response.body);

  type DemoAsset = ReturnType<typeof demoAssets>[number];
  /**
   * Per type, the id of the first seeded asset in catalogue order (its position) among those
   * `keep` keeps, in that order. The tests before the move below leave the catalogue as seeded.
   */
  function firstPerType(keep: (asset: DemoAsset) => boolean = () => true) {
    const first = new Map<string, DemoAsset>();
    for (const asset of demoAssets().sort((a, b) => a.position - b.position)) {
      if (keep(asset) && !first.has(asset.type)) first.set(asset.type, asset);
    }
    return [...first.values()].map((asset) => asset.id);
  }

  it('answers, per type, the first asset in catalogue order, for any signed-in role', async () => {
    const expected = firstPerType();
    expect(expected).toHaveLength(10);
    for (const token of [await anonymousToken(), (await t.signUp()).token]) {
      const answer = page(await t.get('/v1/assets/authorize-default?limit=100', token));
      expect(answer.data.map((asset) => asset.id)).toEqual(expected);
      expect(answer.pagination).toMatchObject({ totalDocs: 10, totalPages: 1 });
      expect(new Set(answer.data.map((asset) => asset.type)).size).toBe(10);
    }
    expectError(await t.get('/v1/assets/authorize-default'), 401, 'UNAUTHORIZED');
  });

  it('picks among the assets the list filters keep, and pages and sorts like the list', async () => {
    const { token } = await t.signUp();
    const ids = async (query: string) =>
      page(await t.get(`/v1/assets/authorize-default?${query}`, token)).data.map((a) => a.id);
    expect(await ids('gender=female&limit=100')).toEqual(
      firstPerType((a) => a.gender === 'female'),
    );
    expect(await ids('type=hair&type=top&gender=male')).toEqual(
      firstPerType((a) => (a.type === 'hair' || a.type === 'top') && a.gender === 'male'),
    );
    const all = firstPerType();
    expect(await ids('limit=3&page=2')).toEqual(all.slice(3, 6));
    // Sorted by name descending as the asset list sorts the same assets.
    const listed = [];
    for (const n of [1, 2, 3]) {
      listed.push(...page(await t.get(`/v1/assets?order=-name&limit=100&page=${n}`, token)).data);
    }
    const byName = listed.map((asset) => asset.id).filter((id) => all.includes(id));
    expect(byName).toHaveLength(all.length);
    expect(byName).not.toEqual(all);
    expect(await ids('order=-name&limit=100')).toEqual(byName);
    expectError(await t.get('/v1/assets/authorize-default?colour=red', token), 400);
  });

  it('follows the catalogue order: moving an asset first makes it the default of its type', async () => {
    const developer = (await t.loginAs('developer')).token;
    const { rows } = await t.db.query<{ id: string }>(
      "SELECT id FROM assets WHERE type = 'beard' ORDER BY position LIMIT 2",
    );
    const [first, second] = rows.map((row) => row.id);
    const defaultBeard = async () =>
      page(await t.get('/v1/assets/authorize-default?type=beard', developer)).data.map((a) => a.id);
    expect(await defaultBeard()).toEqual([first]);
    dataOf(
      await t.patch(
        `/v1/assets/${second}/position`,
        { position: 1, filter: { type: ['beard'] } },
        developer,
      ),
    );
    expect(await defaultBeard()).toEqual([second]);
  });

  it('is on the private mount for admins and developers', async () => {
    const admin = (await t.loginAs('admin')).token;
    const ids = async (path: string) =>
      page(await t.get(`${path}/assets/authorize-default?limit=100`, admin)).data.map((a) => a.id);
    // The same answer as the public mount's (the catalogue order has changed above).
    expect(await ids('/private/v1')).toEqual(await ids('/v1'));
    expect(await ids('/v1')).toHaveLength(10);
    const user = (await t.signUp()).token;
    expectError(await t.get('/private/v1/assets/authorize-default', user), 403, 'FORBIDDEN');
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
    const user = await t.loginAs('user');
    // Signed up, address not proven yet: a guest's rules.
    const unverified = await t.signUp();
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
    expect(ability(unverified.token).can('read', 'Asset')).toBe(true);
    expect(ability(unverified.token).can('read', 'Tag')).toBe(false);
  });
});

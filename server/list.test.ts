import { beforeAll, describe, expect, it } from 'vitest';
import { assetSchema, listResponseSchema, type Asset } from '../contract/schemas';
import { demoAssets } from './seed';
import { expectError, useTestApp, type JsonResponse } from './test-app';

const t = useTestApp();
let token = '';
beforeAll(async () => {
  token = (await t.loginAs('admin')).token;
});

const assetList = listResponseSchema(assetSchema);
function listOf(response: JsonResponse) {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return assetList.parse(response.body);
}
const list = async (query: string) => listOf(await t.get(`/v1/assets?${query}`, token));

/** Every page of a query, concatenated. */
async function allPages(query: string, limit = 100): Promise<Asset[]> {
  const rows: Asset[] = [];
  for (let page = 1; ; page += 1) {
    const result = await list(`${query}&limit=${limit}&page=${page}`);
    rows.push(...result.data);
    if (!result.pagination.hasNextPage) return rows;
  }
}

const LIST_ENDPOINTS = [
  '/v1/assets',
  '/v1/assets/authorized',
  '/v1/assets/editable',
  '/private/v1/assets',
  '/v1/applications',
  '/v1/tags',
  '/v1/cage-meshes',
  '/v1/morphed-asset-queue',
  '/private/v1/morphed-assets',
];

describe('the list protocol on every list endpoint', () => {
  it('answers 400 VALIDATION_ERROR for bad page, limit, order and unknown filters', async () => {
    const bad = [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1.5',
      'page=0',
      'page=-1',
      'page=x',
      'page=1&page=2',
      'order=password_hash',
      'order=-',
      'noSuchFilter=1',
    ];
    for (const path of LIST_ENDPOINTS) {
      for (const query of bad) {
        const body = expectError(await t.get(`${path}?${query}`, token), 400, 'VALIDATION_ERROR');
        expect(body.message.length, `${path}?${query}`).toBeGreaterThan(0);
      }
    }
  });

  it('answers the default page with pagination', async () => {
    for (const path of LIST_ENDPOINTS) {
      const response = await t.get(path, token);
      expect(response.status, path).toBe(200);
      const { pagination, data } = response.body as { pagination: unknown; data: unknown[] };
      expect(pagination).toMatchObject({ page: 1, limit: 10 });
      expect(data.length).toBeLessThanOrEqual(10);
    }
  });

  it('names the allowed fields when an order is refused', async () => {
    const body = expectError(await t.get('/v1/assets?order=-secret', token), 400);
    expect(body.message).toContain('name, type, gender, createdAt, updatedAt, position');
    expect(expectError(await t.get('/v1/assets?wat=1', token), 400).message).toContain('search');
  });

  it('needs a bearer token', async () => {
    for (const path of LIST_ENDPOINTS) expectError(await t.get(path), 401, 'UNAUTHORIZED');
  });
});

describe('GET /v1/assets', () => {
  const demo = demoAssets();

  it('pages through the catalogue in position order with correct totals', async () => {
    const first = await list('');
    expect(first.pagination).toEqual({
      page: 1,
      limit: 10,
      totalDocs: 300,
      totalPages: 30,
      hasNextPage: true,
    });
    expect(first.data.map((a) => a.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const last = await list('page=30');
    expect(last.pagination.hasNextPage).toBe(false);
    expect(last.data.at(-1)?.position).toBe(300);
    const odd = await list('limit=7&page=43');
    expect(odd.data).toHaveLength(6);
    expect(odd.pagination).toMatchObject({ totalPages: 43, hasNextPage: false });
  });

  it('answers an empty page beyond the end with the real totals', async () => {
    const beyond = await list('page=31');
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination).toMatchObject({ page: 31, totalDocs: 300, totalPages: 30 });
  });

  it('answers an empty list when nothing matches', async () => {
    const none = await list('search=zzz-no-such-asset');
    expect(none).toEqual({
      data: [],
      pagination: { page: 1, limit: 10, totalDocs: 0, totalPages: 0, hasNextPage: false },
    });
  });

  it('filters by search (case-insensitive, wildcards literal)', async () => {
    const rows = await allPages('search=hoODie');
    expect(rows.length).toBe(demo.filter((a) => /hoodie/i.test(a.name)).length);
    expect(rows.length).toBeGreaterThan(0);
    expect((await list('search=%25')).pagination.totalDocs).toBe(0);
    expect((await list('search=_')).pagination.totalDocs).toBe(0);
  });

  it('filters by type and gender, repeated parameters meaning any of them', async () => {
    const hairOrTop = await allPages('type=hair&type=top');
    expect(hairOrTop.length).toBe(demo.filter((a) => ['hair', 'top'].includes(a.type)).length);
    expect((await list('type=beard')).pagination.totalDocs).toBe(20);
    const male = demo.filter((a) => a.gender === 'male').length;
    expect((await list('gender=male')).pagination.totalDocs).toBe(male);
    const femaleHair = demo.filter((a) => a.type === 'hair' && a.gender === 'female').length;
    expect((await list('type=hair&gender=female')).pagination.totalDocs).toBe(femaleHair);
    expectError(await t.get('/v1/assets?gender=robot', token), 400, 'VALIDATION_ERROR');
  });

  it('filters by locked', async () => {
    const locked = demo.filter((a) => a.locked).length;
    expect((await list('locked=true')).pagination.totalDocs).toBe(locked);
    expect((await list('locked=false')).pagination.totalDocs).toBe(300 - locked);
    expectError(await t.get('/v1/assets?locked=yes', token), 400);
    expectError(await t.get('/v1/assets?locked=true&locked=false', token), 400);
  });

  it('filters by application and tag', async () => {
    const [{ id: applicationId, count }] = (
      await t.db.query<{ id: string; count: number }>(
        `SELECT application_id AS id, count(*)::int AS count FROM application_assets
         GROUP BY application_id ORDER BY application_id LIMIT 1`,
      )
    ).rows as [{ id: string; count: number }];
    expect((await list(`applicationId=${applicationId}`)).pagination.totalDocs).toBe(count);
    const tags = (
      await t.db.query<{ id: string; count: number }>(
        `SELECT tag_id AS id, count(*)::int AS count FROM asset_tags GROUP BY tag_id
         ORDER BY tag_id LIMIT 2`,
      )
    ).rows;
    const ids = async (query: string) => (await allPages(query)).map((a) => a.id).sort();
    const [first, second] = [await ids(`tagId=${tags[0]!.id}`), await ids(`tagId=${tags[1]!.id}`)];
    expect(first).toHaveLength(tags[0]!.count);
    // Two tags: the assets carrying either.
    const both = await allPages(`tagId=${tags[0]!.id}&tagId=${tags[1]!.id}`);
    expect(both.map((a) => a.id).sort()).toEqual([...new Set([...first, ...second])].sort());
    for (const asset of both) {
      expect(asset.tags.some((tag) => tag.id === tags[0]!.id || tag.id === tags[1]!.id)).toBe(true);
    }
  });

  it('sorts ascending and descending with the id as tie-breaker', async () => {
    for (const field of ['type', 'gender', 'createdAt', 'position', 'name']) {
      const key = (a: Asset) => {
        const value = a[field as 'type' | 'gender' | 'createdAt' | 'position'];
        return typeof value === 'number' ? String(value).padStart(4, '0') : value;
      };
      const ascending = await allPages(`order=${field}`);
      expect(new Set(ascending.map((a) => a.id)).size).toBe(300);
      // Another page size and the reverse direction see the same total order.
      const descending = await allPages(`order=-${field}`, 37);
      expect(descending.map((a) => a.id)).toEqual(ascending.map((a) => a.id).reverse());
      // Names compare by the database collation; the other keys are plain ASCII.
      if (field === 'name') continue;
      const expected = [...ascending].sort((a, b) =>
        key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : 1,
      );
      expect(ascending.map((a) => a.id)).toEqual(expected.map((a) => a.id));
    }
  });

  it('answers the asset shape, tags included', async () => {
    const tagged = await list('order=-name&limit=100');
    expect(tagged.data.some((a) => a.tags.length > 0)).toBe(true);
  });
});

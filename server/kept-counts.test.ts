/**
 * The counts the list screens show without counting rows on each read (migration 033): assets
 * per type (GET /v1/assets/countByType, unfiltered) and assets per tag (the tags list's
 * assetCount). They must stay equal to counting the rows after every kind of change: create,
 * type change, delete to the Trash, restore, bulk changes, tagging, a tag's delete and restore.
 */
import { describe, expect, it } from 'vitest';
import {
  assetSchema,
  countByTypeSchema,
  listResponseSchema,
  tagRowSchema,
  type Asset,
} from '../contract/schemas';
import { dataOf, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);
const tagPage = listResponseSchema(tagRowSchema);
const assetPage = listResponseSchema(assetSchema);

async function newAsset(name: string, type: string): Promise<Asset> {
  const body = { name, type, gender: 'male' };
  return assetSchema.parse(dataOf(await t.post('/v1/assets', body, tokens.admin)));
}

/** What the API answers, and what counting the assets says. */
async function typeCounts() {
  const answered = countByTypeSchema.parse(
    dataOf(await t.get('/v1/assets/countByType', tokens.admin)),
  );
  const { rows } = await t.db.query<{ type: string; count: number }>(
    'SELECT type, count(*)::int AS count FROM assets GROUP BY type ORDER BY type',
  );
  return { answered, counted: rows };
}

async function expectTypeCountsRight() {
  const { answered, counted } = await typeCounts();
  expect(answered).toEqual(counted);
  // Kept, not counted: the rows of migration 033 agree on their own.
  const { rows } = await t.db.query<{ type: string; count: number }>(
    `SELECT type, sum(n)::int AS count FROM asset_type_counts GROUP BY type
     HAVING sum(n) <> 0 ORDER BY type`,
  );
  expect(rows).toEqual(counted);
}

/** The tags list's count of `tagId` and the links counted. */
async function expectTagCountRight(tagId: string, expected: number) {
  const row = tagRowSchema.parse(dataOf(await t.get(`/v1/tags/${tagId}`, tokens.admin)));
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM asset_tags WHERE tag_id = $1',
    [tagId],
  );
  expect(rows[0]!.n).toBe(expected);
  expect(row.assetCount).toBe(expected);
  const kept = await t.db.query<{ n: number | null }>(
    'SELECT sum(n)::int AS n FROM tag_asset_counts WHERE tag_id = $1',
    [tagId],
  );
  expect(kept.rows[0]!.n ?? 0).toBe(expected);
}

describe('assets per type, kept', () => {
  it('stay equal to counting after creates, type changes, deletes, restores and bulk deletes', async () => {
    await expectTypeCountsRight();
    const before = (await typeCounts()).answered;
    const facewear = before.find((row) => row.type === 'facewear')?.count ?? 0;
    const made = [
      await newAsset('Kept count one', 'facewear'),
      await newAsset('Kept count two', 'facewear'),
      await newAsset('Kept count three', 'hair'),
    ];
    await expectTypeCountsRight();
    expect((await typeCounts()).answered).toContainEqual({ type: 'facewear', count: facewear + 2 });

    // A change of type moves the asset from one count to the other; a rename moves nothing.
    const changed = await t.patch(`/v1/assets/${made[2]!.id}`, { type: 'facewear' }, tokens.admin);
    expect(changed.status).toBe(200);
    await t.patch(`/v1/assets/${made[0]!.id}`, { name: 'Kept count renamed' }, tokens.admin);
    expect((await typeCounts()).answered).toContainEqual({ type: 'facewear', count: facewear + 3 });
    await expectTypeCountsRight();

    // To the Trash one by one and in bulk.
    expect(
      (await t.request('DELETE', `/v1/assets/${made[0]!.id}`, { token: tokens.admin })).status,
    ).toBe(200);
    const bulk = await t.post(
      '/v1/assets/bulk-delete',
      { ids: [made[1]!.id, made[2]!.id] },
      tokens.admin,
    );
    expect(bulk.status).toBe(200);
    await expectTypeCountsRight();
    expect((await typeCounts()).answered).toEqual(before);

    // Back from the Trash.
    const restored = await t.post(
      '/v1/trash/bulk-restore',
      { items: made.map(({ id }) => ({ kind: 'asset', id })) },
      tokens.admin,
    );
    expect(restored.status).toBe(200);
    expect((await typeCounts()).answered).toContainEqual({ type: 'facewear', count: facewear + 3 });
    await expectTypeCountsRight();
  });
});

describe('assets per tag, kept', () => {
  it('stay equal to counting after tagging, untagging, bulk tags, asset and tag deletes and restores', async () => {
    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: 'Kept count tag' }, tokens.admin)),
    );
    const assets = [
      await newAsset('Tagged one', 'hair'),
      await newAsset('Tagged two', 'hair'),
      await newAsset('Tagged three', 'hair'),
    ];
    await expectTagCountRight(tag.id, 0);
    const ok = (response: { status: number }) => expect(response.status).toBe(200);

    ok(await t.post('/v1/tags/set-tag', { assetId: assets[0]!.id, tagId: tag.id }, tokens.admin));
    // Setting it again changes nothing.
    ok(await t.post('/v1/tags/set-tag', { assetId: assets[0]!.id, tagId: tag.id }, tokens.admin));
    await expectTagCountRight(tag.id, 1);
    ok(
      await t.post(
        '/v1/assets/bulk-set-tag',
        { ids: assets.map(({ id }) => id), tagId: tag.id },
        tokens.admin,
      ),
    );
    await expectTagCountRight(tag.id, 3);
    ok(
      await t.post('/v1/tags/remove-tag', { assetId: assets[1]!.id, tagId: tag.id }, tokens.admin),
    );
    await expectTagCountRight(tag.id, 2);

    // An asset in the Trash leaves the count and comes back with it.
    ok(await t.request('DELETE', `/v1/assets/${assets[0]!.id}`, { token: tokens.admin }));
    await expectTagCountRight(tag.id, 1);
    ok(
      await t.post(
        '/v1/trash/bulk-restore',
        { items: [{ kind: 'asset', id: assets[0]!.id }] },
        tokens.admin,
      ),
    );
    await expectTagCountRight(tag.id, 2);

    // The tag itself to the Trash (its links with it) and back.
    ok(await t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.admin }));
    const { rows } = await t.db.query('SELECT 1 FROM tag_asset_counts WHERE tag_id = $1', [tag.id]);
    expect(rows).toEqual([]);
    ok(
      await t.post(
        '/v1/trash/bulk-restore',
        { items: [{ kind: 'tag', id: tag.id }] },
        tokens.admin,
      ),
    );
    await expectTagCountRight(tag.id, 2);
  });

  it("answers the assets list's exact total for one tag and for types from the kept counts", async () => {
    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: 'Kept list total' }, tokens.admin)),
    );
    const made = [await newAsset('Listed one', 'beard'), await newAsset('Listed two', 'glasses')];
    for (const { id } of made) {
      const tagged = await t.post('/v1/tags/set-tag', { assetId: id, tagId: tag.id }, tokens.admin);
      expect(tagged.status).toBe(200);
    }
    const deleted = await t.request('DELETE', `/v1/assets/${made[0]!.id}`, { token: tokens.admin });
    expect(deleted.status).toBe(200);
    const cases: [string, string, unknown[]][] = [
      [`tagId=${tag.id}`, 'SELECT 1 FROM asset_tags WHERE tag_id = $1', [tag.id]],
      ['type=beard', "SELECT 1 FROM assets WHERE type = 'beard'", []],
      ['type=beard&type=glasses', "SELECT 1 FROM assets WHERE type IN ('beard', 'glasses')", []],
      [
        `type=glasses&tagId=${tag.id}`,
        'SELECT 1 FROM assets a JOIN asset_tags x ON x.asset_id = a.id WHERE x.tag_id = $1 AND a.type = $2',
        [tag.id, 'glasses'],
      ],
    ];
    for (const [query, sql, params] of cases) {
      const { pagination } = assetPage.parse(
        (await t.get(`/v1/assets?limit=1&${query}`, tokens.admin)).body,
      );
      const { rows } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (${sql}) matches`,
        params as string[],
      );
      expect(pagination.totalDocs, query).toBe(rows[0]!.n);
      expect(pagination.totalIsEstimate).toBeUndefined();
    }
  });

  it('sorts the tags list by the kept count', async () => {
    const page = tagPage.parse(
      (await t.get('/v1/tags?limit=100&order=-assetCount', tokens.admin)).body,
    );
    const counts = page.data.map((row) => row.assetCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM asset_tags GROUP BY tag_id ORDER BY 1 DESC LIMIT 1',
    );
    expect(counts[0]).toBe(rows[0]?.n ?? 0);
  });
});

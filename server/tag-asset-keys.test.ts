/**
 * The assets list filtered by one tag pages over the tag's links alone, by copies of their
 * assets' sort keys (migration 040). The copies must equal the assets after every kind of write
 * (tagging and untagging one or many, a change of the tags in an edit, rename, type and gender,
 * a move, delete to the Trash, restore, purge, a tag's delete and restore, bulk jobs), and the
 * list's pages must be the ones the assets themselves give, in every sort and with other filters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { assetSchema, listResponseSchema, tagRowSchema, type Asset } from '../contract/schemas';
import { startBulkWorker } from './bulk-job-worker';
import { dataOf, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);
const assetPage = listResponseSchema(assetSchema);
const ok = (response: { status: number; body: unknown }) =>
  expect(response.status, JSON.stringify(response.body)).toBe(200);

async function newAsset(name: string, type: string, gender = 'male'): Promise<Asset> {
  return assetSchema.parse(
    dataOf(await t.post('/v1/assets', { name, type, gender }, tokens.admin)),
  );
}

async function newTag(name: string): Promise<string> {
  return tagRowSchema.parse(dataOf(await t.post('/v1/tags', { name }, tokens.admin))).id;
}

/** The links whose copies differ from their assets (none, when they are kept), and the links. */
async function expectCopiesRight(links: number) {
  const { rows } = await t.db.query<{ n: number; wrong: string[] }>(
    `SELECT count(*)::int AS n,
       coalesce(array_agg(x.asset_id || ' ' || x.tag_id) FILTER (WHERE
         x.asset_position IS DISTINCT FROM a.position OR x.asset_rank IS DISTINCT FROM a.rank
         OR x.asset_name IS DISTINCT FROM a.name OR x.asset_type IS DISTINCT FROM a.type
         OR x.asset_gender IS DISTINCT FROM a.gender
         OR x.asset_created_at IS DISTINCT FROM a.created_at
         OR x.asset_updated_at IS DISTINCT FROM a.updated_at), '{}') AS wrong
     FROM asset_tags x JOIN assets a ON a.id = x.asset_id`,
  );
  expect(rows[0]).toEqual({ n: links, wrong: [] });
}

async function linkCount(): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM asset_tags');
  return rows[0]!.n;
}

describe("a tag's links keep copies of their assets' sort keys", () => {
  it('through tagging, edits, moves, the Trash, purges, tag deletes and bulk jobs', async () => {
    const tag = await newTag('Copied keys tag');
    const other = await newTag('Copied keys other');
    const assets = [
      await newAsset('Copied one', 'hair'),
      await newAsset('Copied two', 'top'),
      await newAsset('Copied three', 'hair'),
      await newAsset('Copied four', 'bottom'),
    ];
    const [one, two, three, four] = assets.map((asset) => asset.id) as [
      string,
      string,
      string,
      string,
    ];
    let links = await linkCount();
    await expectCopiesRight(links);

    ok(await t.post('/v1/tags/set-tag', { assetId: one, tagId: tag }, tokens.admin));
    ok(
      await t.post(
        '/v1/assets/bulk-set-tag',
        { ids: [two, three, four], tagId: tag },
        tokens.admin,
      ),
    );
    ok(await t.patch(`/v1/assets/${two}`, { tagIds: [tag, other] }, tokens.admin));
    links += 5;
    await expectCopiesRight(links);

    // Name, type and gender; then a move to the top (position and rank).
    ok(await t.patch(`/v1/assets/${one}`, { name: 'Copied renamed' }, tokens.admin));
    ok(await t.patch(`/v1/assets/${two}`, { type: 'footwear', gender: 'female' }, tokens.admin));
    ok(await t.patch(`/v1/assets/${three}/position`, { position: 1 }, tokens.admin));
    ok(await t.patch(`/v1/assets/${four}/position`, { position: 2 }, tokens.admin));
    await expectCopiesRight(links);

    ok(await t.post('/v1/tags/remove-tag', { assetId: four, tagId: tag }, tokens.admin));
    links -= 1;
    await expectCopiesRight(links);

    // To the Trash and back: the restored links copy the asset as it comes back, whatever the
    // links captured with it say.
    ok(await t.request('DELETE', `/v1/assets/${two}`, { token: tokens.admin }));
    links -= 2;
    await expectCopiesRight(links);
    await t.db.query(
      `UPDATE trash SET data = jsonb_set(data, '{relations,asset_tags,0,asset_name}', '"Stale"')
       WHERE kind = 'asset' AND id = $1`,
      [two],
    );
    ok(
      await t.post('/v1/trash/bulk-restore', { items: [{ kind: 'asset', id: two }] }, tokens.admin),
    );
    links += 2;
    await expectCopiesRight(links);

    // A tag to the Trash takes its links; back, they copy their assets as they are then.
    ok(await t.request('DELETE', `/v1/tags/${tag}`, { token: tokens.admin }));
    links -= 3;
    ok(await t.patch(`/v1/assets/${one}`, { name: 'Copied while the tag was away' }, tokens.admin));
    ok(await t.post('/v1/trash/bulk-restore', { items: [{ kind: 'tag', id: tag }] }, tokens.admin));
    links += 3;
    await expectCopiesRight(links);

    // Bulk jobs over a filter: tag, untag, and delete to the Trash, then purge.
    const worker = startBulkWorker(
      {
        db: t.db,
        now: () => new Date(t.clock.current),
        trashRetentionDays: 30,
        requireAdminSecondFactor: false,
      },
      { concurrency: 0, batchSize: 2 },
    );
    const job = async (body: unknown) => {
      ok(await t.post('/v1/bulk-jobs', body, tokens.admin));
      while (await worker.runOnce());
    };
    await job({ action: 'setTag', tagId: other, filter: { search: 'Copied' } });
    links += 3;
    await expectCopiesRight(links);
    await job({ action: 'removeTag', tagId: tag, filter: { tagId: tag } });
    links -= 3;
    await expectCopiesRight(links);
    await job({ action: 'delete', filter: { tagId: other } });
    links -= 4;
    await expectCopiesRight(links);
    ok(
      await t.post(
        '/v1/trash/bulk-restore',
        { items: [{ kind: 'asset', id: three }] },
        tokens.admin,
      ),
    );
    links += 1;
    ok(
      await t.post('/v1/trash/bulk-delete', { items: [{ kind: 'asset', id: one }] }, tokens.admin),
    );
    await expectCopiesRight(links);
    // The others can still come back with their links.
    ok(
      await t.post('/v1/trash/bulk-restore', { items: [{ kind: 'asset', id: two }] }, tokens.admin),
    );
    links += 1;
    await expectCopiesRight(links);
  });
});

describe('the assets list of one tag', () => {
  const names = [
    'Tag list b',
    'Tag list a',
    'Tag list b',
    'tag list lower',
    'Tag list c',
    'Tag list a',
  ];
  let tag = '';
  let made: string[] = [];

  beforeAll(async () => {
    tag = await newTag('Tag list');
    made = [];
    for (const [i, name] of names.entries()) {
      const asset = await newAsset(
        name,
        i % 2 === 0 ? 'hair' : 'top',
        i % 3 === 0 ? 'female' : 'male',
      );
      made.push(asset.id);
    }
    ok(await t.post('/v1/assets/bulk-set-tag', { ids: made, tagId: tag }, tokens.admin));
    // A place among the others, a lock and a later change, so each sort has ties and moves.
    ok(await t.patch(`/v1/assets/${made[4]}/position`, { position: 1 }, tokens.admin));
    ok(await t.request('PUT', `/v1/assets/${made[1]}/lock`, { body: {}, token: tokens.admin }));
    t.advance(60_000);
    ok(await t.patch(`/v1/assets/${made[0]}`, { description: 'later' }, tokens.admin));
  });

  /** The tag's asset ids for `query`, page by page, as the API answers them. */
  async function listed(query: string): Promise<string[]> {
    const ids: string[] = [];
    for (let page = 1; ; page += 1) {
      const response = await t.get(
        `/v1/assets?tagId=${tag}&${query}&limit=2&page=${page}`,
        tokens.admin,
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const { data, pagination } = assetPage.parse(response.body);
      ids.push(...data.map((asset) => asset.id));
      if (!pagination.hasNextPage) {
        expect(pagination.totalDocs).toBe(ids.length);
        return ids;
      }
    }
  }

  /** The same, read from the assets themselves. */
  async function expected(order: string, where = 'true', params: string[] = []): Promise<string[]> {
    const { rows } = await t.db.query<{ id: string }>(
      `SELECT a.id FROM assets a JOIN asset_tags x ON x.asset_id = a.id AND x.tag_id = $1
       WHERE ${where} ORDER BY ${order}`,
      [tag, ...params],
    );
    return rows.map((row) => row.id);
  }

  it('pages in every sort as the assets give them', async () => {
    const sorts: [string, string][] = [
      ['position', 'a.position, a.rank, a.id'],
      ['name', 'a.name, a.id'],
      ['type', 'a.type, a.id'],
      ['gender', 'a.gender, a.id'],
      ['createdAt', 'a.created_at, a.id'],
      ['updatedAt', 'a.updated_at, a.id'],
    ];
    for (const [field, order] of sorts) {
      const ascending = await expected(order);
      expect(ascending).toHaveLength(names.length);
      expect(await listed(`order=${field}`), field).toEqual(ascending);
      const descending = await expected(order.replaceAll(',', ' DESC,') + ' DESC');
      expect(await listed(`order=-${field}`), `-${field}`).toEqual(descending);
    }
    // The page shows each asset's place in the whole catalogue, as the unfiltered list does.
    const { data } = assetPage.parse(
      (await t.get(`/v1/assets?tagId=${tag}&limit=1`, tokens.admin)).body,
    );
    expect(data[0]!.id).toBe(made[4]);
    expect(data[0]!.position).toBe(1);
  });

  it('with the other filters and scopes', async () => {
    expect(await listed('order=name&search=LIST%20B')).toEqual(
      await expected('a.name, a.id', 'a.name ILIKE $2', ['%list b%']),
    );
    expect(await listed('order=-createdAt&type=top&gender=male')).toEqual(
      await expected('a.created_at DESC, a.id DESC', "a.type = 'top' AND a.gender = 'male'"),
    );
    expect(await listed('locked=true')).toEqual([made[1]]);
    // Editable: the unlocked ones.
    const response = await t.get(
      `/v1/assets/editable?tagId=${tag}&order=name&limit=100`,
      tokens.admin,
    );
    expect(assetPage.parse(response.body).data.map((asset) => asset.id)).toEqual(
      await expected('a.name, a.id', 'NOT a.locked'),
    );
    // Two tags: the assets on either, each once.
    const second = await newTag('Tag list second');
    ok(await t.post('/v1/tags/set-tag', { assetId: made[2], tagId: second }, tokens.admin));
    const both = await t.get(
      `/v1/assets?tagId=${tag}&tagId=${second}&order=name&limit=100`,
      tokens.admin,
    );
    expect(assetPage.parse(both.body).data.map((asset) => asset.id)).toEqual(
      await expected('a.name, a.id'),
    );
  });
});

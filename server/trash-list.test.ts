/**
 * The Trash list's totals (migration 038): without a search, the records of each kind are kept
 * by triggers instead of counted on each read. They must stay equal to counting the Trash after
 * deletes one by one and in bulk, restores and deletes for ever, per kind and for all kinds.
 */
import { describe, expect, it } from 'vitest';
import {
  assetSchema,
  cageMeshSchema,
  listResponseSchema,
  tagRowSchema,
  trashRowSchema,
} from '../contract/schemas';
import { dataOf, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);
const trashPage = listResponseSchema(trashRowSchema);

async function newAsset(name: string): Promise<string> {
  const body = { name, type: 'hair', gender: 'male' };
  return assetSchema.parse(dataOf(await t.post('/v1/assets', body, tokens.admin))).id;
}

const ok = (response: { status: number; body: unknown }) =>
  expect(response.status, JSON.stringify(response.body)).toBe(200);

/** The totals the list answers for each query, and the records counted in the Trash. */
async function expectTotalsRight() {
  const queries: [string, string[] | undefined][] = [
    ['', undefined],
    ['&kind=asset', ['asset']],
    ['&kind=tag&kind=cage-mesh', ['tag', 'cage-mesh']],
    ['&kind=application', ['application']],
  ];
  for (const [query, kinds] of queries) {
    const answer = await t.get(`/v1/trash?limit=1${query}`, tokens.admin);
    ok(answer);
    const { pagination } = trashPage.parse(answer.body);
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM trash WHERE $1::text[] IS NULL OR kind = ANY($1::text[])',
      [kinds ?? null],
    );
    expect(pagination.totalDocs, query).toBe(rows[0]!.n);
    expect(pagination.totalIsEstimate).toBeUndefined();
  }
  // Kept, not counted: the rows of migration 038 agree on their own.
  const kept = await t.db.query<{ kind: string; n: number }>(
    `SELECT kind, sum(n)::int AS n FROM trash_kind_counts GROUP BY kind HAVING sum(n) <> 0
     ORDER BY kind`,
  );
  const counted = await t.db.query<{ kind: string; n: number }>(
    'SELECT kind, count(*)::int AS n FROM trash GROUP BY kind ORDER BY kind',
  );
  expect(kept.rows).toEqual(counted.rows);
}

describe('the Trash list total', () => {
  it('stays equal to counting the Trash after deletes, bulk deletes, restores and deletes for ever', async () => {
    await expectTotalsRight();
    const assets = [
      await newAsset('Trash count one'),
      await newAsset('Trash count two'),
      await newAsset('Trash count three'),
    ];
    const tag = tagRowSchema.parse(
      dataOf(await t.post('/v1/tags', { name: 'Trash count tag' }, tokens.admin)),
    );
    const mesh = cageMeshSchema.parse(
      dataOf(
        await t.post(
          '/v1/cage-meshes',
          { name: 'Trash count mesh', gender: 'female', bodyType: 'slim' },
          tokens.admin,
        ),
      ),
    );

    ok(await t.request('DELETE', `/v1/assets/${assets[0]}`, { token: tokens.admin }));
    ok(await t.post('/v1/assets/bulk-delete', { ids: assets.slice(1) }, tokens.admin));
    ok(await t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.admin }));
    ok(await t.request('DELETE', `/v1/cage-meshes/${mesh.id}`, { token: tokens.admin }));
    await expectTotalsRight();
    const searched = trashPage.parse(
      (await t.get('/v1/trash?limit=1&search=Trash%20count', tokens.admin)).body,
    );
    expect(searched.pagination.totalDocs).toBe(5);

    ok(
      await t.post(
        '/v1/trash/bulk-restore',
        {
          items: [
            { kind: 'asset', id: assets[0] },
            { kind: 'tag', id: tag.id },
          ],
        },
        tokens.admin,
      ),
    );
    await expectTotalsRight();
    ok(await t.request('DELETE', `/v1/trash/asset/${assets[1]}`, { token: tokens.admin }));
    ok(
      await t.post(
        '/v1/trash/bulk-delete',
        { items: [{ kind: 'cage-mesh', id: mesh.id }] },
        tokens.admin,
      ),
    );
    await expectTotalsRight();
    const left = trashPage.parse(
      (await t.get('/v1/trash?limit=10&search=Trash%20count', tokens.admin)).body,
    );
    expect(left.data.map((row) => row.id)).toEqual([assets[2]]);
  });
});

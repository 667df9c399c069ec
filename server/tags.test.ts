import { describe, expect, it } from 'vitest';
import {
  assetEventSchema,
  assetSchema,
  listResponseSchema,
  tagRowSchema,
} from '../contract/schemas';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

const tagList = listResponseSchema(tagRowSchema);
const put = (path: string, body: unknown, token?: string) =>
  t.request('PUT', path, { body, token });
const tagOf = (response: Parameters<typeof dataOf>[0]) => tagRowSchema.parse(dataOf(response));

async function someAssetId(): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    'SELECT id FROM assets ORDER BY position LIMIT 1',
  );
  return rows[0]!.id;
}

describe('GET /v1/tags', () => {
  it('lists the seeded tags with their asset counts', async () => {
    const page = tagList.parse((await t.get('/v1/tags?limit=100', tokens.user)).body);
    expect(page.pagination.totalDocs).toBe(12);
    const names = page.data.map((tag) => tag.name);
    expect(names).toEqual([...names].sort());
    // Each count is how many assets the asset list finds with the tag.
    const assets = listResponseSchema(assetSchema);
    for (const tag of page.data) {
      const tagged = assets.parse((await t.get(`/v1/assets?tagId=${tag.id}`, tokens.user)).body);
      expect(tag.assetCount, tag.name).toBe(tagged.pagination.totalDocs);
    }
    expect(page.data.some((tag) => tag.assetCount > 0)).toBe(true);
    const byCount = tagList.parse(
      (await t.get('/v1/tags?order=-assetCount&limit=100', tokens.user)).body,
    );
    const counts = byCount.data.map((tag) => tag.assetCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const search = tagList.parse((await t.get('/v1/tags?search=sci', tokens.user)).body);
    expect(search.data.map((tag) => tag.name)).toEqual(['Sci-Fi']);
  });

  it('finds one by id (autocomplete) or answers 404', async () => {
    const [first] = tagList.parse((await t.get('/v1/tags', tokens.user)).body).data;
    expect(tagOf(await t.get(`/v1/tags/${first!.id}`, tokens.user))).toEqual(first);
    expectError(await t.get('/v1/tags/nope', tokens.user), 404);
  });

  it('needs read Tag', async () => {
    expectError(await t.get('/v1/tags', tokens.anonymous), 403);
    expectError(await t.get('/v1/tags'), 401);
  });
});

describe('tag writes', () => {
  it('creates, refuses duplicates ignoring case, renames and deletes', async () => {
    const tag = tagOf(await t.post('/v1/tags', { name: '  Neon Nights ' }, tokens.developer));
    expect(tag).toMatchObject({ name: 'Neon Nights', assetCount: 0 });
    expectError(
      await t.post('/v1/tags', { name: 'neon nights' }, tokens.developer),
      409,
      'CONFLICT',
    );
    expectError(await t.post('/v1/tags', { name: 'casual' }, tokens.developer), 409);
    expectError(
      await t.post('/v1/tags', { name: '   ' }, tokens.developer),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await t.post('/v1/tags', { name: 'x' }, tokens.user), 403);

    const renamed = tagOf(await put(`/v1/tags/${tag.id}`, { name: 'Neon' }, tokens.developer));
    expect(renamed.name).toBe('Neon');
    expectError(await put(`/v1/tags/${tag.id}`, { name: 'WINTER' }, tokens.developer), 409);
    expect(
      tagOf(await put(`/v1/tags/${tag.id}`, { name: 'neon' }, tokens.developer)),
    ).toMatchObject({
      name: 'neon',
    });
    expectError(await put('/v1/tags/nope', { name: 'Other' }, tokens.developer), 404);
    expectError(await put(`/v1/tags/${tag.id}`, {}, tokens.developer), 400);

    // Delete takes it off its assets too.
    const assetId = await someAssetId();
    dataOf(await t.post('/v1/tags/set-tag', { assetId, tagId: tag.id }, tokens.developer));
    expectError(await t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.developer }), 403);
    const deleted = tagOf(await t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.admin }));
    expect(deleted.assetCount).toBe(1);
    const asset = assetSchema.parse(dataOf(await t.get(`/v1/assets/${assetId}`, tokens.admin)));
    expect(asset.tags.map((x) => x.id)).not.toContain(tag.id);
    expectError(await t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.admin }), 404);
  });

  it('deleting a tag records the update on every asset it leaves, locked ones too', async () => {
    const doomed = tagOf(await t.post('/v1/tags', { name: 'Doomed' }, tokens.admin));
    const other = tagOf(await t.post('/v1/tags', { name: 'Staying' }, tokens.admin));
    const { rows } = await t.db.query<{ id: string }>(
      `SELECT id FROM assets a WHERE NOT EXISTS (SELECT 1 FROM asset_tags x WHERE x.asset_id = a.id)
       ORDER BY position LIMIT 3`,
    );
    const [plain, locked, untouched] = rows.map((row) => row.id);
    for (const assetId of [plain!, locked!]) {
      dataOf(await t.post('/v1/tags/set-tag', { assetId, tagId: doomed.id }, tokens.developer));
    }
    dataOf(
      await t.post('/v1/tags/set-tag', { assetId: locked, tagId: other.id }, tokens.developer),
    );
    dataOf(await put(`/v1/assets/${locked}/lock`, {}, tokens.developer));
    const changelog = async (id: string) =>
      listResponseSchema(assetEventSchema).parse(
        (await t.get(`/v1/assets/${id}/backoffice-changelog?limit=100`, tokens.admin)).body,
      ).data;
    const untouchedBefore = await changelog(untouched!);
    t.advance(60_000);

    const deleted = tagOf(
      await t.request('DELETE', `/v1/tags/${doomed.id}`, { token: tokens.admin }),
    );
    expect(deleted.assetCount).toBe(2);

    const now = t.clock.current.toISOString();
    for (const [id, from, to] of [
      [plain!, [doomed.id], []],
      [locked!, [doomed.id, other.id].sort(), [other.id]],
    ] as const) {
      const asset = assetSchema.parse(dataOf(await t.get(`/v1/assets/${id}`, tokens.admin)));
      expect(asset.tags.map((tag) => tag.id)).toEqual(to);
      expect(asset.updatedAt).toBe(now);
      const [v2, v1] = await changelog(id);
      expect(v1).toMatchObject({
        routingKey: 'asset.updated.v1',
        data: { changes: { tagIds: { from, to } } },
        createdAt: now,
      });
      expect(v2).toMatchObject({ routingKey: 'asset.updated.v2', data: { asset }, createdAt: now });
    }
    expect(await changelog(untouched!)).toEqual(untouchedBefore);
  });

  it('sets and removes a tag on an asset (idempotent)', async () => {
    const tag = tagOf(await t.post('/v1/tags', { name: 'Glow' }, tokens.admin));
    const assetId = await someAssetId();
    for (let i = 0; i < 2; i += 1) {
      const asset = assetSchema.parse(
        dataOf(await t.post('/v1/tags/set-tag', { assetId, tagId: tag.id }, tokens.developer)),
      );
      expect(asset.tags.filter((x) => x.id === tag.id)).toEqual([{ id: tag.id, name: 'Glow' }]);
    }
    expect(tagOf(await t.get(`/v1/tags/${tag.id}`, tokens.user)).assetCount).toBe(1);
    const filtered = listResponseSchema(assetSchema).parse(
      (await t.get(`/v1/assets?tagId=${tag.id}`, tokens.user)).body,
    );
    expect(filtered.data.map((asset) => asset.id)).toEqual([assetId]);
    const removed = assetSchema.parse(
      dataOf(await t.post('/v1/tags/remove-tag', { assetId, tagId: tag.id }, tokens.developer)),
    );
    expect(removed.tags.map((x) => x.id)).not.toContain(tag.id);

    expectError(await t.post('/v1/tags/set-tag', { assetId, tagId: 'nope' }, tokens.admin), 404);
    expectError(
      await t.post('/v1/tags/set-tag', { assetId: 'nope', tagId: tag.id }, tokens.admin),
      404,
    );
    expectError(await t.post('/v1/tags/set-tag', { assetId }, tokens.admin), 400);
    expectError(await t.post('/v1/tags/remove-tag', { assetId, tagId: tag.id }, tokens.user), 403);
  });
});

/**
 * Routes that lock a tag and assets take them in one order (asset-store.ts "Lock order"), so
 * tagging, untagging and deleting a tag at the same moment never deadlock on PostgreSQL (a
 * 40P01 would reach the client as a 500), and a tag deleted meanwhile is a clean 404, not a
 * foreign-key failure. On PGlite transactions run one at a time, so only PostgreSQL
 * (TEST_DATABASE_URL) races them for real; PGlite runs a few rounds for the end state.
 */
import { describe, expect, it } from 'vitest';
import { assetSchema, tagRowSchema } from '../contract/schemas';
import { dataOf, useRoleTokens, useTestApp, type JsonResponse } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const ROUNDS = onPostgres ? 60 : 5;

interface TagChange {
  from: string[];
  to: string[];
}

/** The `tagIds` changes the log recorded for `assetId`, in commit order. */
async function tagChanges(assetId: string): Promise<TagChange[]> {
  const { rows } = await t.db.query<{ data: { changes: { tagIds?: TagChange } } }>(
    `SELECT data FROM asset_events WHERE asset_id = $1 AND routing_key = 'asset.updated.v1'
     ORDER BY seq`,
    [assetId],
  );
  return rows.flatMap((row) => (row.data.changes.tagIds ? [row.data.changes.tagIds] : []));
}

describe('tag and asset lock order', () => {
  it('races set-tag, remove-tag and PATCH tagIds against deleting the tag without a deadlock', async () => {
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM assets WHERE NOT locked ORDER BY id LIMIT 5',
    );
    const ids = rows.map((row) => row.id);
    expect(ids).toHaveLength(5);
    const [tagged, alsoTagged, untagged, removing, patched] = ids as [
      string,
      string,
      string,
      string,
      string,
    ];
    const dev = tokens.developer;
    const failures: string[] = [];
    const tagIdsSeen: string[] = [];

    for (let round = 0; round < ROUNDS; round += 1) {
      const tag = tagRowSchema.parse(
        dataOf(await t.post('/v1/tags', { name: `Race ${round}` }, dev)),
      );
      tagIdsSeen.push(tag.id);
      // Assets the delete must lock (tagged already) and ones it must not (tagged meanwhile).
      for (const assetId of [tagged, alsoTagged, removing]) {
        dataOf(await t.post('/v1/tags/set-tag', { assetId, tagId: tag.id }, dev));
      }
      const { rows: kept } = await t.db.query<{ tag_id: string }>(
        'SELECT tag_id FROM asset_tags WHERE asset_id = $1',
        [patched],
      );
      const requests: [string, Promise<JsonResponse>][] = [
        [
          'set-tag on a tagged asset',
          t.post('/v1/tags/set-tag', { assetId: tagged, tagId: tag.id }, dev),
        ],
        [
          'set-tag on an untagged asset',
          t.post('/v1/tags/set-tag', { assetId: untagged, tagId: tag.id }, dev),
        ],
        ['remove-tag', t.post('/v1/tags/remove-tag', { assetId: removing, tagId: tag.id }, dev)],
        ['delete', t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.admin })],
        [
          'set-tag on the other tagged asset',
          t.post('/v1/tags/set-tag', { assetId: alsoTagged, tagId: tag.id }, dev),
        ],
        [
          'PATCH tagIds',
          t.patch(
            `/v1/assets/${patched}`,
            { tagIds: [...kept.map((row) => row.tag_id), tag.id] },
            dev,
          ),
        ],
      ];
      for (const [name, request] of requests) {
        const response = await request;
        // The tag may be gone by the time a change gets to it: 404 (400 for PATCH's tagIds).
        const allowed =
          name === 'delete' ? [200] : name === 'PATCH tagIds' ? [200, 400] : [200, 404];
        if (!allowed.includes(response.status)) {
          failures.push(
            `round ${round}, ${name}: ${response.status} ${JSON.stringify(response.body)}`,
          );
        }
        if (response.status === 200 && name !== 'delete') assetSchema.parse(dataOf(response));
      }
    }
    expect(failures).toEqual([]);

    // Every tag is gone from every asset, and each asset's log tells the same story: the tag
    // went on and came off in turns, and is off at the end.
    const { rows: left } = await t.db.query<{ tag_id: string }>(
      'SELECT tag_id FROM asset_tags WHERE tag_id = ANY($1::text[])',
      [tagIdsSeen],
    );
    expect(left).toEqual([]);
    for (const assetId of ids) {
      const changes = await tagChanges(assetId);
      for (const tagId of tagIdsSeen) {
        const turns = changes
          .filter((change) => change.from.includes(tagId) !== change.to.includes(tagId))
          .map((change) => (change.to.includes(tagId) ? 'on' : 'off'));
        const alternating = turns.every((turn, i) => turn === (i % 2 === 0 ? 'on' : 'off'));
        expect({
          assetId,
          tagId,
          alternating,
          ends: turns.length % 2 === 0 ? 'off' : 'on',
        }).toEqual({
          assetId,
          tagId,
          alternating: true,
          ends: 'off',
        });
      }
    }
  });
});

/**
 * Tags in the database (server/routes/tags.ts answers them): the list with asset counts, and
 * each change with the events it records.
 */
import type { Asset, TagRow } from '../contract/schemas';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from './db';
import { recordAssetEvents, recordTagEvent } from './events';
import { fail } from './http/errors';
import { findById, searchFilter, type ListSpec } from './list';
import { isoString } from './timestamps';
import { moveToTrash } from './trash';
import { changeOf, checkBase, checkWhole } from './versions';
import {
  assetForChange,
  findAssets,
  getAsset,
  shareTags,
  sortedTagIds,
  updateEvents,
} from './asset-store';

interface TagDbRow {
  id: string;
  name: string;
  asset_count: number;
  created_at: Date;
  updated_at: Date;
  version: number;
}

/** How many assets carry the tag: the stripes migration 033's triggers keep, summed. */
const ASSET_COUNT =
  '(SELECT coalesce(sum(x.n), 0)::int FROM tag_asset_counts x WHERE x.tag_id = t.id)';

export const tagListSpec: ListSpec<TagRow> = {
  from: 'tags t',
  columns: `t.id, t.name, t.created_at, t.updated_at, t.version, ${ASSET_COUNT} AS asset_count`,
  orders: { name: 't.name', createdAt: 't.created_at', assetCount: ASSET_COUNT },
  defaultOrder: 'name',
  idColumn: 't.id',
  filters: { search: searchFilter('t.name') },
  toRow: (row: TagDbRow) => ({
    id: row.id,
    name: row.name,
    assetCount: row.asset_count,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
    version: row.version,
  }),
};

export function getTag(db: Db, id: string): Promise<TagRow> {
  return findById(db, tagListSpec, id, 'tag');
}

/** Runs a write that may hit the case-insensitive unique name index; answers 409 then. */
export async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDbError(error, PG_UNIQUE_VIOLATION)) {
      fail(409, 'CONFLICT', `A tag named "${name}" already exists`);
    }
    throw error;
  }
}

/** Inserts tag `id` named `name` and records its creation; answers the tag. */
export async function createTag(
  tx: Db,
  tag: { id: string; name: string },
  actorId: string,
  now: Date,
): Promise<TagRow> {
  await tx.query('INSERT INTO tags (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)', [
    tag.id,
    tag.name,
    now,
  ]);
  const data = { name: tag.name };
  await recordTagEvent(tx, { tagId: tag.id, event: 'created', actorId, data, at: now });
  return getTag(tx, tag.id);
}

const TAGGING = {
  add: `INSERT INTO asset_tags (asset_id, tag_id, created_at) VALUES ($1, $2, $3)
        ON CONFLICT DO NOTHING RETURNING asset_id`,
  remove: 'DELETE FROM asset_tags WHERE asset_id = $1 AND tag_id = $2 RETURNING asset_id',
};

/**
 * Puts tag `tagId` on asset `assetId` (`adds`) or takes it off; answers the asset. The tag must
 * exist (404) and is locked before the asset (the lock order at `shareTags`), as a delete takes
 * them; a locked asset is refused (409). With `base` (If-Match), tags someone else changed since
 * that version are a 409. A change records the asset's update events; a no-op records none.
 */
export async function changeTagOnAsset(
  tx: Db,
  { assetId, tagId, adds }: { assetId: string; tagId: string; adds: boolean },
  base: number | undefined,
  actorId: string,
  at: Date,
): Promise<Asset> {
  const tagMissing = (await shareTags(tx, [tagId])).length > 0;
  const before = await assetForChange(tx, assetId);
  if (tagMissing) fail(404, 'NOT_FOUND', `No tag with id ${tagId}`);
  const from = sortedTagIds(before);
  const to = adds ? [...from, tagId].sort() : from.filter((id) => id !== tagId);
  const asked = changeOf('tagIds', from, to, from.includes(tagId) !== adds);
  await checkBase(tx, 'asset', before, base, asked);
  const { rows } = adds
    ? await tx.query(TAGGING.add, [assetId, tagId, at])
    : await tx.query(TAGGING.remove, [assetId, tagId]);
  if (rows.length === 0) return before;
  await tx.query('UPDATE assets SET updated_at = $2 WHERE id = $1', [assetId, at]);
  const after = await getAsset(tx, assetId);
  const changes = { tagIds: { from: sortedTagIds(before), to: sortedTagIds(after) } };
  await recordAssetEvents(tx, updateEvents(after, changes, actorId, at));
  return after;
}

/** Renames tag `id`; with `base` (If-Match), a name someone else changed since is a 409. */
export async function renameTag(
  tx: Db,
  id: string,
  name: string,
  base: number | undefined,
  actorId: string,
  at: Date,
): Promise<TagRow> {
  await tx.query('SELECT 1 FROM tags WHERE id = $1 FOR UPDATE', [id]);
  const before = await getTag(tx, id);
  await checkBase(tx, 'tag', before, base, changeOf('name', before.name, name));
  await tx.query('UPDATE tags SET name = $2, updated_at = $3 WHERE id = $1', [id, name, at]);
  if (before.name === name) return getTag(tx, id);
  await recordTagEvent(tx, {
    tagId: id,
    event: 'renamed',
    actorId,
    data: { changes: { name: { from: before.name, to: name } } },
    at,
  });
  return getTag(tx, id);
}

/**
 * Moves tag `id` to the Trash (server/trash.ts); it leaves every asset it was on, and each of
 * those assets records its update events, locked ones too (the tag is gone for all of them).
 * The tag row is locked first, so no asset can be tagged with it meanwhile (tagging waits on
 * it); the assets are then locked in id order, so two deletes never wait on each other. This is
 * the lock order every change that locks tags and assets keeps (see `shareTags`). With `base`
 * (If-Match), a tag changed since that version is not deleted (412). Answers the tag as it was.
 */
export async function trashTag(
  tx: Db,
  id: string,
  base: number | undefined,
  actorId: string,
  at: Date,
): Promise<TagRow> {
  await tx.query('SELECT 1 FROM tags WHERE id = $1 FOR UPDATE', [id]);
  const tag = await getTag(tx, id);
  checkWhole(tag, base);
  const { rows } = await tx.query<{ id: string }>(
    `SELECT a.id FROM assets a JOIN asset_tags x ON x.asset_id = a.id
     WHERE x.tag_id = $1 ORDER BY a.id FOR UPDATE OF a`,
    [tag.id],
  );
  // Read after the locks: an asset untagged meanwhile is no longer affected.
  const before = (
    await findAssets(
      tx,
      rows.map((row) => row.id),
    )
  ).filter((asset) => asset.tags.some((t) => t.id === tag.id));
  await moveToTrash(tx, { kind: 'tag', id: tag.id }, actorId, at);
  await tx.query('DELETE FROM tags WHERE id = $1', [tag.id]);
  const data = { name: tag.name };
  await recordTagEvent(tx, { tagId: tag.id, event: 'deleted', actorId, data, at });
  if (before.length === 0) return tag;
  const ids = before.map((asset) => asset.id);
  await tx.query('UPDATE assets SET updated_at = $2 WHERE id = ANY($1::text[])', [ids, at]);
  const after = await findAssets(tx, ids);
  await recordAssetEvents(
    tx,
    after.flatMap((asset, i) => {
      const changes = { tagIds: { from: sortedTagIds(before[i]!), to: sortedTagIds(asset) } };
      return updateEvents(asset, changes, actorId, at);
    }),
  );
  return tag;
}

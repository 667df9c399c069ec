/**
 * The writes that hold asset rows for the length of a transaction: deleting assets (one or
 * several, into the Trash), locking and unlocking them, putting a tag on several or taking it
 * off, and moving one in the catalogue order. Each records its asset events in the same
 * transaction. Rows are always locked in id order, after the locks of the orders they sit in,
 * so two of these never wait on each other's locks in opposite order.
 */
import type { z } from 'zod/mini';
import type { Asset, positionBodySchema } from '../contract/schemas';
import type { Db } from './db';
import {
  assetForChange,
  assetListSpec,
  ASSETS,
  changeTagOnAssets,
  findAssets,
  shareTags,
} from './asset-store';
import { recordAssetEvent, recordAssetEvents } from './events';
import { fail } from './http/errors';
import { filterFromJson } from './list';
import { applicationLockKey, lockPositions, moveToPosition } from './positions';
import { moveToTrash } from './trash';
import { changeOf, checkBase, checkWhole } from './versions';

interface HeldAsset {
  id: string;
  name: string;
  locked: boolean;
  version: number;
  position: number;
}

/** The rows of `ids` that exist, locked in id order until the transaction ends. */
export async function findHeldAssets(tx: Db, ids: readonly string[]): Promise<HeldAsset[]> {
  const { rows } = await tx.query<HeldAsset>(
    `SELECT id, name, locked, version, position FROM assets
     WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return rows;
}

/** The rows of `ids`, locked as `findHeldAssets` does; an unknown id is a 404. */
async function holdAssets(tx: Db, ids: readonly string[]): Promise<HeldAsset[]> {
  const rows = await findHeldAssets(tx, ids);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length === 0) return rows;
  return fail(
    404,
    'NOT_FOUND',
    ids.length === 1 ? `No asset with id ${ids[0]}` : `No assets with ids ${missing.join(', ')}`,
  );
}

/** 409 naming every locked one of `rows`: `doing` is what the caller asked, e.g. "deleted". */
function refuseLocked(rows: readonly HeldAsset[], doing: string) {
  const locked = rows.filter((row) => row.locked).map((row) => row.name);
  if (locked.length > 0) {
    fail(
      409,
      'ASSET_LOCKED',
      `Locked assets cannot be ${doing}; unlock them first: ${locked.join(', ')}`,
    );
  }
}

/**
 * Moves assets `ids` (held, unlocked) to the Trash and deletes them. The entries they leave in
 * applications close up, so each of those applications' order is locked first, in id order.
 */
export async function removeAssets(tx: Db, ids: readonly string[], actorId: string, at: Date) {
  const { rows } = await tx.query<{ application_id: string }>(
    `SELECT DISTINCT application_id FROM application_assets
     WHERE asset_id = ANY($1::text[]) ORDER BY application_id`,
    [ids],
  );
  for (const { application_id } of rows) {
    await lockPositions(tx, applicationLockKey(application_id));
  }
  for (const id of ids) await moveToTrash(tx, { kind: 'asset', id }, actorId, at);
  // The users they are assigned to, found through user_assets before the delete cascades to it.
  await tx.query(
    `UPDATE users SET assets = ARRAY(SELECT x FROM unnest(assets) AS x WHERE x <> ALL($1::text[]))
     WHERE id IN (SELECT user_id FROM user_assets WHERE asset_id = ANY($1::text[]))`,
    [ids],
  );
  await tx.query('DELETE FROM assets WHERE id = ANY($1::text[])', [ids]);
}

/**
 * Deletes one unlocked asset (404 unknown, 409 locked); with a `base` version (If-Match), one
 * changed since is a 409. Answers the asset as it was; its `deleted` event holds it whole.
 */
export async function deleteAsset(
  tx: Db,
  id: string,
  actorId: string,
  at: Date,
  base?: number,
): Promise<Asset> {
  await lockPositions(tx, ASSETS.lockKey);
  const asset = await assetForChange(tx, id);
  checkWhole(asset, base);
  await removeAssets(tx, [id], actorId, at);
  await recordAssetEvent(tx, { assetId: id, event: 'deleted', actorId, data: { asset }, at });
  return asset;
}

/**
 * Deletes assets `ids` (unique, sorted), all or none: an unknown id (404) or a locked asset
 * (409 naming every locked one) deletes nothing. Each records `bulkDeleted` with all the ids.
 */
export async function deleteAssets(
  tx: Db,
  ids: readonly string[],
  actorId: string,
  at: Date,
): Promise<void> {
  await lockPositions(tx, ASSETS.lockKey);
  refuseLocked(await holdAssets(tx, ids), 'deleted');
  const assets = await findAssets(tx, ids);
  await removeAssets(tx, ids, actorId, at);
  await recordAssetEvents(
    tx,
    assets.map((asset) => ({
      assetId: asset.id,
      event: 'bulkDeleted' as const,
      actorId,
      data: { asset, ids },
      at,
    })),
  );
}

interface LockChange {
  locked: boolean;
  /** Recorded in each `locked` event when given. */
  reason?: string | undefined;
}

/**
 * Sets `locked` on the held assets `ids` (those that differ) and records their `locked` events,
 * with `data` beside `locked` in each.
 */
export async function writeLock(
  tx: Db,
  ids: readonly string[],
  locked: boolean,
  actorId: string,
  at: Date,
  data: Record<string, unknown> = {},
) {
  if (ids.length === 0) return;
  await tx.query('UPDATE assets SET locked = $2, updated_at = $3 WHERE id = ANY($1::text[])', [
    ids,
    locked,
    at,
  ]);
  await recordAssetEvents(
    tx,
    ids.map((assetId) => ({
      assetId,
      event: 'locked' as const,
      actorId,
      data: { locked, ...data },
      at,
    })),
  );
}

const reasonOf = ({ reason }: LockChange) => (reason ? { reason } : {});

/**
 * Locks or unlocks one asset (404 unknown); one already so changes and records nothing. With a
 * `base` version (If-Match), a lock state someone else changed since is a 409.
 */
export async function setAssetLock(
  tx: Db,
  id: string,
  change: LockChange,
  actorId: string,
  at: Date,
  base?: number,
): Promise<void> {
  const [held] = await holdAssets(tx, [id]);
  await checkBase(tx, 'asset', held!, base, changeOf('locked', held!.locked, change.locked));
  const changed = held!.locked === change.locked ? [] : [id];
  await writeLock(tx, changed, change.locked, actorId, at, reasonOf(change));
}

/**
 * Locks or unlocks assets `ids` (unique, sorted), all or none (an unknown id is a 404); answers
 * the ids changed, those not already so.
 */
export async function setAssetsLock(
  tx: Db,
  ids: readonly string[],
  change: LockChange,
  actorId: string,
  at: Date,
): Promise<string[]> {
  const rows = await holdAssets(tx, ids);
  const changed = rows.filter((row) => row.locked !== change.locked).map((row) => row.id);
  await writeLock(tx, changed, change.locked, actorId, at, reasonOf(change));
  return changed;
}

/**
 * Puts tag `tagId` on assets `ids` (unique, sorted) or takes it off, all or none: a missing tag
 * or asset (404) or a locked asset (409 naming every locked one) changes nothing. Answers the
 * ids changed; each records its `updated` events as a single edit of its tags would.
 */
export async function changeTagOfAssets(
  tx: Db,
  ids: readonly string[],
  tag: { tagId: string; adds: boolean },
  actorId: string,
  at: Date,
): Promise<string[]> {
  // The tag before the assets (the lock order at `shareTags`): the tag cannot go while it is
  // put on, and a delete that holds it is waited for, not deadlocked with.
  if ((await shareTags(tx, [tag.tagId])).length > 0) {
    fail(404, 'NOT_FOUND', `No tag with id ${tag.tagId}`);
  }
  refuseLocked(await holdAssets(tx, ids), tag.adds ? 'tagged' : 'untagged');
  const { changed, events } = await changeTagOnAssets(tx, ids, tag, actorId, at);
  await recordAssetEvents(tx, events);
  return changed;
}

/**
 * Moves asset `id` to `position` in the catalogue order, or in the order of the list `filter`
 * shows (positions count among the matching assets); answers false for an unknown asset. With
 * a `base` version (If-Match), a position someone else changed since is a 409; with a filter
 * the position counts in another list, so any such change is.
 */
export async function moveAsset(
  tx: Db,
  id: string,
  { position, filter }: z.infer<typeof positionBodySchema>,
  base?: number,
): Promise<boolean> {
  const filters = filterFromJson(assetListSpec, filter);
  if (base !== undefined) {
    await lockPositions(tx, ASSETS.lockKey);
    const [held] = await findHeldAssets(tx, [id]);
    if (held) {
      const moves = filter !== undefined || held.position !== position;
      await checkBase(
        tx,
        'asset',
        held,
        base,
        changeOf('position', held.position, position, moves),
      );
    }
  }
  return moveToPosition(tx, assetListSpec, ASSETS, { id, position, filters });
}

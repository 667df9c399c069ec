/**
 * Assets assigned to users, from either side: a user's assets and an asset's holders, both
 * paged lists, and adding and removing assignments. users.assets mirrors user_assets in the
 * same transaction, which also records an asset event (user-assets-added / -removed) per asset
 * that changed.
 */
import type { Asset, UserAssetsResult } from '../contract/schemas';
import { assetListSpec } from './asset-store';
import type { Db } from './db';
import { recordAssetEvents } from './events';
import { fail } from './http/errors';
import {
  anyOfFilter,
  runList,
  scannedSearchFilter,
  type KeptCount,
  type ListQuery,
  type ListSpec,
} from './list';
import { userListSpec } from './user-admin';

// A page reads the user's assignments alone, by the copies of their assets' keys (migration
// 035), then the assets of its own rows. A search reads the user's range of the name index.
export const userAssetListSpec: ListSpec<Asset> = {
  ...assetListSpec,
  narrowedBy: undefined,
  keys: { from: 'user_assets x', idColumn: 'x.asset_id' },
  orders: { name: 'x.asset_name', createdAt: 'x.asset_created_at' },
  defaultOrder: 'name',
  filters: { search: scannedSearchFilter('x.asset_name'), type: anyOfFilter('x.asset_type') },
};

/** The user's assignments without filters: the count migration 040's triggers keep. */
const keptUserAssetCount =
  (userId: string): KeptCount =>
  (params, filters) =>
    Object.keys(filters).length > 0
      ? undefined
      : `SELECT coalesce(sum(n), 0)::int AS total FROM user_asset_counts
         WHERE user_id = ${params.add(userId)}`;

// A page reads one range of the asset's assignments (migration 044), then its users' rows.
export const assetHolderListSpec: ListSpec<ReturnType<typeof userListSpec.toRow>> = {
  ...userListSpec,
  keys: { from: 'user_assets x', idColumn: 'x.user_id' },
  orders: { assignedAt: 'x.created_at' },
  defaultOrder: '-assignedAt',
  filters: {},
};

/** A page of user `userId`'s assets. */
export function userAssetsOf(db: Db, userId: string, query: ListQuery) {
  const scope = (params: { add(value: string): string }) => [`x.user_id = ${params.add(userId)}`];
  return runList(db, userAssetListSpec, query, scope, keptUserAssetCount(userId));
}

/** A page of the users who hold asset `assetId` (404 for an unknown asset). */
export async function assetHolders(db: Db, assetId: string, query: ListQuery) {
  const { rows } = await db.query('SELECT 1 FROM assets WHERE id = $1', [assetId]);
  if (rows.length === 0) fail(404, 'NOT_FOUND', `No asset with id ${assetId}`);
  const scope = (params: { add(value: string): string }) => [`x.asset_id = ${params.add(assetId)}`];
  return runList(db, assetHolderListSpec, query, scope);
}

/** Rewrites users.assets from user_assets (oldest assignment first). */
async function syncUserAssets(tx: Db, userId: string): Promise<UserAssetsResult> {
  const { rows } = await tx.query<{ assets: string[] }>(
    `UPDATE users SET assets = ARRAY(
       SELECT asset_id FROM user_assets WHERE user_id = $1 ORDER BY created_at, asset_id)
     WHERE id = $1 RETURNING assets`,
    [userId],
  );
  return { userId, assetIds: rows[0]?.assets ?? [] };
}

/**
 * Finishes a change of user_assets in its transaction: one event per asset actually assigned
 * or unassigned (`rows`), with the user it concerns, then users.assets rewritten to match.
 */
async function finishUserAssetChange(
  tx: Db,
  event: 'userAssetsAdded' | 'userAssetsRemoved',
  rows: { asset_id: string }[],
  change: AssignmentChange,
): Promise<UserAssetsResult> {
  const { actorId, userId, at } = change;
  await recordAssetEvents(
    tx,
    rows.map((row) => ({ assetId: row.asset_id, event, actorId, data: { userId }, at })),
  );
  return syncUserAssets(tx, userId);
}

interface AssignmentChange {
  actorId: string;
  userId: string;
  at: Date;
}

/**
 * Assigns assets `assetIds` to the user; those already assigned stay as they are. Unknown ids
 * are refused as a whole (400 naming them), so nothing is half-applied.
 */
export async function assignAssets(
  tx: Db,
  assetIds: readonly string[],
  change: AssignmentChange,
): Promise<UserAssetsResult> {
  const { rows } = await tx.query<{ id: string }>(
    'SELECT id FROM assets WHERE id = ANY($1::text[])',
    [assetIds],
  );
  const known = new Set(rows.map((row) => row.id));
  const unknown = assetIds.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    fail(400, 'VALIDATION_ERROR', `assetIds: Unknown assets ${unknown.join(', ')}`);
  }
  // In id order: each new row share-locks its asset (migration 035), and writers of several
  // assets lock them in id order.
  const added = await tx.query<{ asset_id: string }>(
    `INSERT INTO user_assets (user_id, asset_id, created_at)
     SELECT $1, id, $3 FROM unnest($2::text[]) AS id ORDER BY id ON CONFLICT DO NOTHING
     RETURNING asset_id`,
    [change.userId, assetIds, change.at],
  );
  return finishUserAssetChange(tx, 'userAssetsAdded', added.rows, change);
}

/** Takes assets `assetIds` from the user; one the user does not have is left alone. */
export async function unassignAssets(
  tx: Db,
  assetIds: readonly string[],
  change: AssignmentChange,
): Promise<UserAssetsResult> {
  const removed = await tx.query<{ asset_id: string }>(
    `DELETE FROM user_assets WHERE user_id = $1 AND asset_id = ANY($2::text[])
     RETURNING asset_id`,
    [change.userId, assetIds],
  );
  return finishUserAssetChange(tx, 'userAssetsRemoved', removed.rows, change);
}

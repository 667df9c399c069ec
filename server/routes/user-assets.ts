/**
 * Assets assigned to users: GET /v1/user-assets/{userId} and, under /private/v1, also adding
 * and removing assignments. users.assets mirrors user_assets in the same transaction, which
 * also records an asset event (user-assets-added / -removed) per asset that changed.
 */
import { Hono, type Context } from 'hono';
import { subject } from '@casl/ability';
import { userAssetsBodySchema, type Asset, type UserAssetsResult } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { recordAssetEvents } from '../events';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import {
  anyOfFilter,
  parseListQuery,
  runList,
  scannedSearchFilter,
  type KeptCount,
  type ListSpec,
} from '../list';
import { findUserById } from '../users';
import { assetListSpec } from '../asset-store';

// A page reads the user's assignments alone, by the copies of their assets' keys (migration
// 035), then the assets of its own rows. A search reads the user's range of the name index.
const userAssetListSpec: ListSpec<Asset> = {
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

/** The user of the path, after checking the caller may `action` its assets (404 unknown). */
async function targetUser(
  deps: Deps,
  c: Context<AuthEnv>,
  action: 'read' | 'update',
): Promise<string> {
  const userId = c.req.param('userId') ?? '';
  // Own assets for users and anonymous users, any for roles with unconditioned rules.
  if (!c.get('auth').ability.can(action, subject('UserAsset', { userId }))) {
    fail(403, 'FORBIDDEN', `Your role may not ${action} the assets of this user`);
  }
  if (!(await findUserById(deps.db, userId))) fail(404, 'NOT_FOUND', `No user with id ${userId}`);
  return userId;
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
  change: { actorId: string; userId: string; at: Date },
): Promise<UserAssetsResult> {
  const { actorId, userId, at } = change;
  await recordAssetEvents(
    tx,
    rows.map((row) => ({ assetId: row.asset_id, event, actorId, data: { userId }, at })),
  );
  return syncUserAssets(tx, userId);
}

/**
 * Routes mounted at /v1/user-assets, each from its declaration (contract/routes.ts);
 * `{ manage: true }`: at /private/v1/user-assets, with POST and DELETE.
 */
export function userAssetRoutes(deps: Deps, options: { manage?: boolean } = {}) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const mount = options.manage ? '/private/v1/user-assets' : '/v1/user-assets';
  const on = declaredRoutes(app, deps, mount);

  on('get', `${mount}/{userId}`, undefined, async (c) => {
    const userId = await targetUser(deps, c, 'read');
    const query = parseListQuery(userAssetListSpec, c.req.queries());
    const scope = (params: { add(value: string): string }) => [`x.user_id = ${params.add(userId)}`];
    return c.json(await runList(db, userAssetListSpec, query, scope, keptUserAssetCount(userId)));
  });
  if (!options.manage) return app;

  // Unknown asset ids are refused as a whole (400 naming them) so nothing is half-applied.
  on('post', `${mount}/{userId}`, userAssetsBodySchema, async (c, { assetIds }) => {
    const userId = await targetUser(deps, c, 'update');
    const data = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        'SELECT id FROM assets WHERE id = ANY($1::text[])',
        [assetIds],
      );
      const known = new Set(rows.map((row) => row.id));
      const unknown = assetIds.filter((id) => !known.has(id));
      if (unknown.length > 0) {
        fail(400, 'VALIDATION_ERROR', `assetIds: Unknown assets ${unknown.join(', ')}`);
      }
      const at = deps.now();
      // In id order: each new row share-locks its asset (migration 035), and writers of several
      // assets lock them in id order.
      const added = await tx.query<{ asset_id: string }>(
        `INSERT INTO user_assets (user_id, asset_id, created_at)
         SELECT $1, id, $3 FROM unnest($2::text[]) AS id ORDER BY id ON CONFLICT DO NOTHING
         RETURNING asset_id`,
        [userId, assetIds, at],
      );
      const actorId = c.get('auth').userId;
      const change = { actorId, userId, at };
      const result = await finishUserAssetChange(tx, 'userAssetsAdded', added.rows, change);
      await keepAnswer(tx, c, c.json({ data: result }));
      return result;
    });
    return c.json({ data });
  });

  // Removing an asset the user does not have is a no-op.
  on('delete', `${mount}/{userId}`, userAssetsBodySchema, async (c, { assetIds }) => {
    const userId = await targetUser(deps, c, 'update');
    const data = await db.transaction(async (tx) => {
      const removed = await tx.query<{ asset_id: string }>(
        `DELETE FROM user_assets WHERE user_id = $1 AND asset_id = ANY($2::text[])
         RETURNING asset_id`,
        [userId, assetIds],
      );
      const change = { actorId: c.get('auth').userId, userId, at: deps.now() };
      return finishUserAssetChange(tx, 'userAssetsRemoved', removed.rows, change);
    });
    return c.json({ data });
  });

  return app;
}

/**
 * Changes of several assets at once, mounted on /v1/assets and /private/v1/assets next to the
 * asset routes, each from its declaration (contract/routes.ts): POST /bulk-lock, /bulk-unlock,
 * /bulk-set-tag and /bulk-remove-tag. Like POST /bulk-delete (routes/assets.ts) each is one
 * transaction, all or none: an unknown id (404), or for tags a missing tag (404) or a locked
 * asset (409 naming every locked one), changes nothing. Each asset the change touches records
 * the events its single route records (lock: `locked`; tags: `updated` v1/v2 with
 * `changes.tagIds`), so the changelog and the live stream read the same either way; an asset
 * already in the asked state records nothing. The answer names the assets changed, so an
 * Undo can put back exactly those. An If-Match (one record's version) is refused with 412.
 */
import { Hono } from 'hono';
import {
  assetBulkLockBodySchema,
  assetBulkTagBodySchema,
  type AssetBulkChangeResult,
} from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { recordAssetEvents } from '../events';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { changeTagOnAssets, findAssets, shareTags } from '../asset-store';
import { refuseIfMatch } from '../versions';

interface LockedRow {
  id: string;
  name: string;
  locked: boolean;
}

/**
 * Locks the rows of `ids` (sorted, so two bulk changes never wait on each other in opposite
 * order) and answers them; an unknown id is a 404 before anything changes.
 */
async function lockAssets(tx: Db, ids: readonly string[]): Promise<LockedRow[]> {
  const { rows } = await tx.query<LockedRow>(
    'SELECT id, name, locked FROM assets WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
    [ids],
  );
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) fail(404, 'NOT_FOUND', `No assets with ids ${missing.join(', ')}`);
  return rows;
}

const uniqueSorted = (ids: readonly string[]) => [...new Set(ids)].sort();

/** Routes mounted at `mount`: /v1/assets or /private/v1/assets. */
export function assetBulkRoutes(deps: Deps, mount: string) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, mount);

  for (const [action, locked] of [
    ['lock', true],
    ['unlock', false],
  ] as const) {
    on('post', `${mount}/bulk-${action}`, assetBulkLockBodySchema, async (c, body) => {
      refuseIfMatch(c);
      const ids = uniqueSorted(body.ids);
      const at = deps.now();
      const actorId = c.get('auth').userId;
      const data = await db.transaction(async (tx): Promise<AssetBulkChangeResult> => {
        const rows = await lockAssets(tx, ids);
        const changed = rows.filter((row) => row.locked !== locked).map((row) => row.id);
        if (changed.length > 0) {
          await tx.query(
            'UPDATE assets SET locked = $2, updated_at = $3 WHERE id = ANY($1::text[])',
            [changed, locked, at],
          );
          await recordAssetEvents(
            tx,
            changed.map((assetId) => ({
              assetId,
              event: 'locked' as const,
              actorId,
              data: { locked, ...(body.reason ? { reason: body.reason } : {}) },
              at,
            })),
          );
        }
        return { changed, assets: await findAssets(tx, ids) };
      });
      return c.json({ data });
    });
  }

  for (const [action, adds] of [
    ['set-tag', true],
    ['remove-tag', false],
  ] as const) {
    on('post', `${mount}/bulk-${action}`, assetBulkTagBodySchema, async (c, body) => {
      refuseIfMatch(c);
      const ids = uniqueSorted(body.ids);
      const { tagId } = body;
      const at = deps.now();
      const actorId = c.get('auth').userId;
      const data = await db.transaction(async (tx): Promise<AssetBulkChangeResult> => {
        // The tag before the assets (the lock order at `shareTags`): the tag cannot go while
        // it is put on, and a delete that holds it is waited for, not deadlocked with.
        if ((await shareTags(tx, [tagId])).length > 0) {
          fail(404, 'NOT_FOUND', `No tag with id ${tagId}`);
        }
        const rows = await lockAssets(tx, ids);
        const locked = rows.filter((row) => row.locked).map((row) => row.name);
        if (locked.length > 0) {
          fail(
            409,
            'ASSET_LOCKED',
            `Locked assets cannot be ${adds ? 'tagged' : 'untagged'}; unlock them first: ${locked.join(', ')}`,
          );
        }
        const { changed, events } = await changeTagOnAssets(tx, ids, { tagId, adds }, actorId, at);
        await recordAssetEvents(tx, events);
        return { changed, assets: await findAssets(tx, ids) };
      });
      return c.json({ data });
    });
  }

  return app;
}

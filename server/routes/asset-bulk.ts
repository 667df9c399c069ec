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
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { findAssets } from '../asset-store';
import { changeTagOfAssets, setAssetsLock } from '../asset-writes';
import { refuseIfMatch } from '../versions';

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
      const change = { locked, reason: body.reason };
      const data = await db.transaction(async (tx): Promise<AssetBulkChangeResult> => {
        const changed = await setAssetsLock(tx, ids, change, c.get('auth').userId, deps.now());
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
      const tag = { tagId: body.tagId, adds };
      const data = await db.transaction(async (tx): Promise<AssetBulkChangeResult> => {
        const changed = await changeTagOfAssets(tx, ids, tag, c.get('auth').userId, deps.now());
        return { changed, assets: await findAssets(tx, ids) };
      });
      return c.json({ data });
    });
  }

  return app;
}

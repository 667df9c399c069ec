/**
 * GET /private/v1/asset-users/{assetId}: the users who hold an asset (its assignments, the other
 * side of /private/v1/user-assets), newest assignment first, paged like every list.
 */
import { Hono } from 'hono';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { parseListQuery } from '../list';
import { assetHolderListSpec, assetHolders } from '../user-asset-store';

/** Routes mounted at /private/v1/asset-users: who holds an asset, for those who read both. */
export function assetUserRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/private/v1/asset-users');
  // Under /private/v1 only roles whose rules carry no condition get here, so the declared
  // `read UserAsset` and `read User` allow any.
  on('get', '/private/v1/asset-users/{assetId}', undefined, async (c) => {
    const query = parseListQuery(assetHolderListSpec, c.req.queries());
    return c.json(await assetHolders(deps.db, c.req.param('assetId')!, query));
  });
  return app;
}

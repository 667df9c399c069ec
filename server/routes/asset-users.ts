/**
 * GET /private/v1/asset-users/{assetId}: the users who hold an asset (its assignments, the other
 * side of /private/v1/user-assets), newest assignment first, paged like every list.
 */
import { Hono } from 'hono';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { parseListQuery, runList, type ListSpec } from '../list';
import { userListSpec } from '../user-admin';

// A page reads one range of the asset's assignments (migration 044), then its users' rows.
const assetHolderListSpec: ListSpec<ReturnType<typeof userListSpec.toRow>> = {
  ...userListSpec,
  keys: { from: 'user_assets x', idColumn: 'x.user_id' },
  orders: { assignedAt: 'x.created_at' },
  defaultOrder: '-assignedAt',
  filters: {},
};

/** Routes mounted at /private/v1/asset-users: who holds an asset, for those who read both. */
export function assetUserRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/private/v1/asset-users');
  // Under /private/v1 only roles whose rules carry no condition get here, so the declared
  // `read UserAsset` and `read User` allow any.
  on('get', '/private/v1/asset-users/{assetId}', undefined, async (c) => {
    const assetId = c.req.param('assetId')!;
    const { rows } = await deps.db.query('SELECT 1 FROM assets WHERE id = $1', [assetId]);
    if (rows.length === 0) fail(404, 'NOT_FOUND', `No asset with id ${assetId}`);
    const query = parseListQuery(assetHolderListSpec, c.req.queries());
    const scope = (params: { add(value: string): string }) => [
      `x.asset_id = ${params.add(assetId)}`,
    ];
    return c.json(await runList(deps.db, assetHolderListSpec, query, scope));
  });
  return app;
}

/**
 * Assets assigned to users: GET /v1/user-assets/{userId} and, under /private/v1, also adding
 * and removing assignments (server/user-asset-store.ts).
 */
import { Hono, type Context } from 'hono';
import { subject } from '@casl/ability';
import { userAssetsBodySchema } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { parseListQuery } from '../list';
import { findUserById } from '../users';
import { assignAssets, unassignAssets, userAssetListSpec, userAssetsOf } from '../user-asset-store';

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
    return c.json(await userAssetsOf(db, userId, query));
  });
  if (!options.manage) return app;

  on('post', `${mount}/{userId}`, userAssetsBodySchema, async (c, { assetIds }) => {
    const userId = await targetUser(deps, c, 'update');
    const data = await db.transaction(async (tx) => {
      const change = { actorId: c.get('auth').userId, userId, at: deps.now() };
      const result = await assignAssets(tx, assetIds, change);
      await keepAnswer(tx, c, c.json({ data: result }));
      return result;
    });
    return c.json({ data });
  });

  on('delete', `${mount}/{userId}`, userAssetsBodySchema, async (c, { assetIds }) => {
    const userId = await targetUser(deps, c, 'update');
    const change = { actorId: c.get('auth').userId, userId, at: deps.now() };
    const data = await db.transaction((tx) => unassignAssets(tx, assetIds, change));
    return c.json({ data });
  });

  return app;
}

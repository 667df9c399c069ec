/**
 * Saved views (contract/saved-views.ts), mounted at /v1/saved-views: a user's named filter, sort
 * and columns of one list screen. Only the owner lists, changes and deletes their views; anyone
 * who may read a view's list may open it by its id (a shared link). A view of a list the caller
 * may not read is a 404, as is a write to someone else's view: neither says the view exists.
 */
import { Hono, type Context } from 'hono';
import {
  SAVED_VIEW_LISTS,
  savedViewCreateBodySchema,
  savedViewListQuerySchema,
  savedViewPatchBodySchema,
  type SavedViewList,
} from '../../contract/saved-views';
import type { AccessClaims } from '../auth/access-token';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { readParam } from '../http/validate';
import {
  deleteView,
  findView,
  insertView,
  listOwnViews,
  notFound,
  uniqueName,
  updateView,
} from '../saved-view-store';
import { readIfMatch, setVersionTag } from '../versions';

const mayRead = (auth: AccessClaims, list: SavedViewList) => {
  const [action, subject] = SAVED_VIEW_LISTS[list].need;
  return auth.ability.can(action, subject);
};

const refuseList = (auth: AccessClaims, list: SavedViewList) => {
  if (!mayRead(auth, list)) fail(403, 'FORBIDDEN', `Your role may not read the ${list} list`);
};

/** Routes mounted at /v1/saved-views, each from its declaration (contract/routes.ts). */
export function savedViewRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/saved-views');
  const listOf = (c: Context<AuthEnv>) => {
    const { list } = readParam(savedViewListQuerySchema, { list: c.req.query('list') }, 'query');
    refuseList(c.get('auth'), list);
    return list;
  };

  on('get', '/v1/saved-views', undefined, async (c) =>
    c.json({ data: await listOwnViews(db, c.get('auth'), listOf(c)) }),
  );

  on('post', '/v1/saved-views', savedViewCreateBodySchema, async (c, body) => {
    const auth = c.get('auth');
    refuseList(auth, body.list);
    const data = await uniqueName(body.name, () =>
      db.transaction(async (tx) => {
        const view = await insertView(tx, auth, body, deps.now());
        await keepAnswer(tx, c, c.json({ data: view }));
        return view;
      }),
    );
    setVersionTag(c, data);
    return c.json({ data });
  });

  on('get', '/v1/saved-views/{id}', undefined, async (c) => {
    const auth = c.get('auth');
    const id = c.req.param('id')!;
    const data = await findView(db, auth, id);
    if (!data || !mayRead(auth, data.list)) return notFound(id);
    setVersionTag(c, data);
    return c.json({ data });
  });

  // A rename or a new search or columns; with If-Match, a view changed since is a 412.
  on('patch', '/v1/saved-views/{id}', savedViewPatchBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const data = await uniqueName(body.name ?? '', () =>
      db.transaction((tx) => updateView(tx, c.get('auth'), id, body, deps.now(), base)),
    );
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Answers the view as it was, so a client can offer to save it again (Undo).
  on('delete', '/v1/saved-views/{id}', undefined, async (c) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const data = await db.transaction((tx) => deleteView(tx, c.get('auth'), id, base));
    return c.json({ data });
  });

  return app;
}

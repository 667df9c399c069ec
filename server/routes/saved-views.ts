/**
 * Saved views (contract/saved-views.ts), mounted at /v1/saved-views: a user's named filter, sort
 * and columns of one list screen. Only the owner lists, changes and deletes their views; anyone
 * who may read a view's list may open it by its id (a shared link). A view of a list the caller
 * may not read is a 404, as is a write to someone else's view: neither says the view exists.
 */
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import {
  SAVED_VIEW_LISTS,
  SAVED_VIEW_MAX_PER_USER,
  savedViewCreateBodySchema,
  savedViewListQuerySchema,
  savedViewPatchBodySchema,
  type SavedView,
  type SavedViewList,
} from '../../contract/saved-views';
import type { AccessClaims } from '../auth/access-token';
import type { AuthEnv } from '../auth/middleware';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from '../db';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { readParam } from '../http/validate';
import { isoString } from '../timestamps';
import { checkWhole, readIfMatch, setVersionTag } from '../versions';

interface SavedViewRow {
  id: string;
  owner_id: string;
  owner_email: string | null;
  list: SavedViewList;
  name: string;
  search: SavedView['search'];
  columns: SavedView['columns'];
  created_at: Date;
  updated_at: Date;
  version: number;
}

const SELECT = `SELECT v.id, v.owner_id, u.email AS owner_email, v.list, v.name, v.search,
  v.columns, v.created_at, v.updated_at, v.version
  FROM saved_views v JOIN users u ON u.id = v.owner_id`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const mayRead = (auth: AccessClaims, list: SavedViewList) => {
  const [action, subject] = SAVED_VIEW_LISTS[list].need;
  return auth.ability.can(action, subject);
};

/** A view as the caller may see it: the owner's address only for those who may read users. */
function toView(row: SavedViewRow, auth: AccessClaims): SavedView {
  const mine = row.owner_id === auth.userId;
  return {
    id: row.id,
    list: row.list,
    name: row.name,
    search: row.search,
    columns: row.columns,
    owner: {
      id: row.owner_id,
      email: mine || auth.ability.can('read', 'User') ? row.owner_email : null,
    },
    mine,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
    version: row.version,
  };
}

const notFound = (id: string): never => fail(404, 'NOT_FOUND', `No saved view with id ${id}`);

/** View `id` as its owner holds it (FOR UPDATE); someone else's or none is a 404. */
async function ownView(tx: Db, auth: AccessClaims, id: string): Promise<SavedViewRow> {
  if (!UUID.test(id)) notFound(id);
  const { rows } = await tx.query<SavedViewRow>(
    `${SELECT} WHERE v.id = $1 AND v.owner_id = $2 FOR UPDATE OF v`,
    [id, auth.userId],
  );
  return rows[0] ?? notFound(id);
}

/** Runs a write that may meet the unique name of the owner's list; a clash is a 409. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDbError(error, PG_UNIQUE_VIOLATION)) {
      fail(409, 'NAME_TAKEN', `You already have a view of this list named "${name}"`);
    }
    throw error;
  }
}

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** Routes mounted at /v1/saved-views, each from its declaration (contract/routes.ts). */
export function savedViewRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/saved-views');
  const listOf = (c: Context<AuthEnv>) => {
    const { list } = readParam(savedViewListQuerySchema, { list: c.req.query('list') }, 'query');
    if (!mayRead(c.get('auth'), list)) {
      fail(403, 'FORBIDDEN', `Your role may not read the ${list} list`);
    }
    return list;
  };

  on('get', '/v1/saved-views', undefined, async (c) => {
    const auth = c.get('auth');
    const list = listOf(c);
    const { rows } = await db.query<SavedViewRow>(
      `${SELECT} WHERE v.owner_id = $1 AND v.list = $2 ORDER BY lower(v.name), v.id`,
      [auth.userId, list],
    );
    return c.json({ data: rows.map((row) => toView(row, auth)) });
  });

  on('post', '/v1/saved-views', savedViewCreateBodySchema, async (c, body) => {
    const auth = c.get('auth');
    if (!mayRead(auth, body.list)) {
      fail(403, 'FORBIDDEN', `Your role may not read the ${body.list} list`);
    }
    const at = deps.now();
    const data = await uniqueName(body.name, () =>
      db.transaction(async (tx) => {
        // Counted and inserted under one lock: a burst of creates cannot all see room for one more.
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `saved-views:${auth.userId}`,
        ]);
        const { rows: counted } = await tx.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM saved_views WHERE owner_id = $1',
          [auth.userId],
        );
        if ((counted[0]?.n ?? 0) >= SAVED_VIEW_MAX_PER_USER) {
          fail(
            409,
            'TOO_MANY_VIEWS',
            `You have ${SAVED_VIEW_MAX_PER_USER} saved views, the most one may keep: delete one first`,
          );
        }
        const id = randomUUID();
        await tx.query(
          `INSERT INTO saved_views (id, owner_id, list, name, search, columns, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $7)`,
          [
            id,
            auth.userId,
            body.list,
            body.name,
            JSON.stringify(body.search),
            json(body.columns ?? null),
            at,
          ],
        );
        const { rows } = await tx.query<SavedViewRow>(`${SELECT} WHERE v.id = $1`, [id]);
        const view = toView(rows[0]!, auth);
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
    if (!UUID.test(id)) notFound(id);
    const { rows } = await db.query<SavedViewRow>(`${SELECT} WHERE v.id = $1`, [id]);
    const row = rows[0];
    if (!row || !mayRead(auth, row.list)) notFound(id);
    const data = toView(row!, auth);
    setVersionTag(c, data);
    return c.json({ data });
  });

  // A rename or a new search or columns; with If-Match, a view changed since is a 412.
  on('patch', '/v1/saved-views/{id}', savedViewPatchBodySchema, async (c, body) => {
    const auth = c.get('auth');
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const data = await uniqueName(body.name ?? '', () =>
      db.transaction(async (tx) => {
        const before = await ownView(tx, auth, id);
        checkWhole(before, base);
        await tx.query(
          `UPDATE saved_views SET name = coalesce($2, name),
             search = CASE WHEN $3::boolean THEN $4::jsonb ELSE search END,
             columns = CASE WHEN $5::boolean THEN $6::jsonb ELSE columns END,
             updated_at = $7, version = version + 1
           WHERE id = $1`,
          [
            id,
            body.name ?? null,
            body.search !== undefined,
            body.search === undefined ? null : JSON.stringify(body.search),
            body.columns !== undefined,
            json(body.columns ?? null),
            deps.now(),
          ],
        );
        const { rows } = await tx.query<SavedViewRow>(`${SELECT} WHERE v.id = $1`, [id]);
        return toView(rows[0]!, auth);
      }),
    );
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Answers the view as it was, so a client can offer to save it again (Undo).
  on('delete', '/v1/saved-views/{id}', undefined, async (c) => {
    const auth = c.get('auth');
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const data = await db.transaction(async (tx) => {
      const before = await ownView(tx, auth, id);
      checkWhole(before, base);
      await tx.query('DELETE FROM saved_views WHERE id = $1', [id]);
      return toView(before, auth);
    });
    return c.json({ data });
  });

  return app;
}

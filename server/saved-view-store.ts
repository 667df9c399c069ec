/**
 * The saved views' store (contract/saved-views.ts): a user's named filter, sort and columns of
 * one list screen, as the caller may see them. Only the owner changes a view; a write to someone
 * else's view, or to none, is a 404 that does not say whether the view exists.
 */
import { randomUUID } from 'node:crypto';
import {
  SAVED_VIEW_MAX_PER_USER,
  type SavedView,
  type SavedViewCreateBody,
  type SavedViewList,
  type SavedViewPatchBody,
} from '../contract/saved-views';
import type { AccessClaims } from './auth/access-token';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from './db';
import { fail } from './http/errors';
import { isoString } from './timestamps';
import { checkWhole } from './versions';

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

export const notFound = (id: string): never =>
  fail(404, 'NOT_FOUND', `No saved view with id ${id}`);

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
export async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
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

/** The caller's views of `list`, by name. */
export async function listOwnViews(db: Db, auth: AccessClaims, list: SavedViewList) {
  const { rows } = await db.query<SavedViewRow>(
    `${SELECT} WHERE v.owner_id = $1 AND v.list = $2 ORDER BY lower(v.name), v.id`,
    [auth.userId, list],
  );
  return rows.map((row) => toView(row, auth));
}

/** View `id` whoever owns it, as the caller may see it; undefined when there is none. */
export async function findView(db: Db, auth: AccessClaims, id: string) {
  if (!UUID.test(id)) return undefined;
  const { rows } = await db.query<SavedViewRow>(`${SELECT} WHERE v.id = $1`, [id]);
  return rows[0] && toView(rows[0], auth);
}

/** A new view of the caller's; one past SAVED_VIEW_MAX_PER_USER is a 409. */
export async function insertView(
  tx: Db,
  auth: AccessClaims,
  body: SavedViewCreateBody,
  at: Date,
): Promise<SavedView> {
  // Counted and inserted under one lock: a burst of creates cannot all see room for one more.
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`saved-views:${auth.userId}`]);
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
  return (await findView(tx, auth, id))!;
}

/** Renames view `id` of the caller's or gives it a new search or columns. */
export async function updateView(
  tx: Db,
  auth: AccessClaims,
  id: string,
  body: SavedViewPatchBody,
  at: Date,
  base?: number,
): Promise<SavedView> {
  checkWhole(await ownView(tx, auth, id), base);
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
      at,
    ],
  );
  return (await findView(tx, auth, id))!;
}

/** Deletes view `id` of the caller's; answers it as it was. */
export async function deleteView(
  tx: Db,
  auth: AccessClaims,
  id: string,
  base?: number,
): Promise<SavedView> {
  const before = await ownView(tx, auth, id);
  checkWhole(before, base);
  await tx.query('DELETE FROM saved_views WHERE id = $1', [id]);
  return toView(before, auth);
}

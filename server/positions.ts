/**
 * Ordered collections (assets globally, application assets per application). A row's place is
 * its order key `(position, rank, id)`: `position` an integer, `rank` a fractional key
 * (fractional-indexing, as LexoRank) between rows of the same integer. A move, an insert, a
 * delete or a restore writes the rows involved only; the 1-based place the API shows is counted,
 * not stored: `order_blocks` (migration 021, kept by triggers) counts the rows of each block of
 * BLOCK integers, so a place is the rows of the blocks before plus those before it in its block,
 * and the row at a place is found the same way, whatever the size of the collection.
 *
 * Every writer of keys (move, insert, delete, restore) runs in a transaction holding the
 * collection's advisory lock, so concurrent moves are serialised and never read the same
 * neighbours.
 */
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import type { Db } from './db';
import { fail } from './http/errors';
import {
  SqlParams,
  filterConditions,
  type FilterValues,
  type ListScope,
  type ListSpec,
} from './list';

/** One ordered collection: the table, its alias in the list spec, and its lock key. */
export interface OrderedCollection {
  table: 'assets' | 'application_assets';
  alias: string;
  lockKey: string;
  /** The application whose entries these are (application_assets only). */
  applicationId?: string;
}

/** The integers one `order_blocks` row counts: 2 ** 10, as migration 021's `>> 10`. */
const BLOCK = 1024;

/** A longer rank than this is respread with its group (rows of the same position). */
const MAX_RANK_LENGTH = 48;

/** The SQL block of a position expression, as migration 021's trigger computes it (floor). */
const blockOf = (position: string) => `(${position} >> 10)`;

/** The `order_blocks` collection of the row of `alias` in `table`. */
const blocksKey = (table: OrderedCollection['table'], alias: string) =>
  table === 'assets' ? `'assets'` : `'application:' || ${alias}.application_id`;

/**
 * SQL of the 1-based place of the row of `alias` (a row of `table`) in its collection: index
 * reads of at most one block plus the rows of its group, never the whole collection.
 */
export function placeSql(table: OrderedCollection['table'], alias: string): string {
  const same = table === 'assets' ? '' : `p.application_id = ${alias}.application_id AND `;
  return `((SELECT coalesce(sum(o.n), 0) FROM order_blocks o
            WHERE o.collection = ${blocksKey(table, alias)} AND o.block < ${blockOf(`${alias}.position`)})
    + (SELECT count(*) FROM ${table} p WHERE ${same}p.position < ${alias}.position
         AND p.position >= ${blockOf(`${alias}.position`)} * ${BLOCK})
    + (SELECT count(*) FROM ${table} p WHERE ${same}p.position = ${alias}.position
         AND (p.rank, p.id) < (${alias}.rank, ${alias}.id))
    + 1)::int`;
}

/** A page row's place, in the select list of a page that reads `pagePlaces`. */
export const PAGE_PLACE = 'page_places.place';

/** The places of a page's rows of `table` (alias `alias`), as a list spec's `page` reads them. */
export function pagePlaces(
  table: OrderedCollection['table'],
  alias: string,
): { with: string; join: string } {
  return {
    with: pagePlacesSql(table),
    join: `LEFT JOIN page_places ON page_places.id = ${alias}.id`,
  };
}

/**
 * WITH entries giving the 1-based places of the rows of `table` whose ids `page_ids (id)` lists,
 * as `page_places (id, place)`, counted once for the page rather than once per row: each
 * collection's block counts are summed in one pass, and each block holding page rows is read
 * once, from its nearer end (by position) to its farthest page row. Exact as `placeSql`, as
 * both rest on the counts of `order_blocks`, kept in the same transaction as the rows.
 */
function pagePlacesSql(table: OrderedCollection['table']): string {
  const application = table === 'assets' ? '' : 'application_id, ';
  const same = table === 'assets' ? '' : 'p.application_id = b.application_id AND ';
  const ordered = (order: string) =>
    `row_number() OVER (ORDER BY p.position ${order}, p.rank ${order}, p.id ${order})`;
  return `page_rows AS MATERIALIZED (
      SELECT t.id, ${application}${blocksKey(table, 't')} AS collection, t.position,
        ${blockOf('t.position')} AS block
      FROM ${table} t WHERE t.id IN (SELECT id FROM page_ids)),
    page_blocks AS (
      SELECT ${application}collection, block, min(position) AS low, max(position) AS high
      FROM page_rows GROUP BY ${application}collection, block),
    block_counts AS (
      SELECT k.collection, o.block, o.n, o.before
      FROM (SELECT collection, max(block) AS last FROM page_blocks GROUP BY collection) AS k
      CROSS JOIN LATERAL (
        SELECT block, n, sum(n) OVER (ORDER BY block) - n AS before FROM order_blocks
        WHERE collection = k.collection AND block <= k.last) AS o),
    block_places AS (
      SELECT q.id, c.before + q.k AS place
      FROM page_blocks b JOIN block_counts c ON c.collection = b.collection AND c.block = b.block
      CROSS JOIN LATERAL (
        SELECT p.id, ${ordered('ASC')} AS k FROM ${table} p
        WHERE b.high - b.block * ${BLOCK} <= (b.block + 1) * ${BLOCK} - b.low
          AND ${same}p.position >= b.block * ${BLOCK} AND p.position <= b.high
        UNION ALL
        SELECT p.id, c.n + 1 - ${ordered('DESC')} FROM ${table} p
        WHERE b.high - b.block * ${BLOCK} > (b.block + 1) * ${BLOCK} - b.low
          AND ${same}p.position >= b.low AND p.position < (b.block + 1) * ${BLOCK}) AS q),
    page_places AS (
      SELECT r.id, x.place::int AS place FROM page_rows r JOIN block_places x ON x.id = r.id)`;
}

/** Serialises key writers of one collection until the transaction ends. */
export async function lockPositions(tx: Db, lockKey: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`positions:${lockKey}`]);
}

interface OrderKey {
  id: string;
  position: number;
  rank: string;
}

const KEY_COLUMNS = (alias: string) =>
  `${alias}.id AS id, ${alias}.position AS position, ${alias}.rank AS rank`;

function compareKeys(a: OrderKey, b: OrderKey): number {
  if (a.position !== b.position) return a.position - b.position;
  if (a.rank !== b.rank) return a.rank < b.rank ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The condition that keeps a statement on `collection`'s rows, with its parameter added. */
function partOf(collection: OrderedCollection, params: SqlParams, alias = 't'): string {
  return collection.applicationId === undefined
    ? 'true'
    : `${alias}.application_id = ${params.add(collection.applicationId)}`;
}

/** The row at 1-based `place` of the whole collection, or undefined past its end. */
async function rowAtPlace(
  tx: Db,
  collection: OrderedCollection,
  place: number,
): Promise<OrderKey | undefined> {
  const key =
    collection.applicationId === undefined ? 'assets' : `application:${collection.applicationId}`;
  const { rows: blocks } = await tx.query<{ block: number; before: number }>(
    `SELECT block, (upto - n)::int AS before FROM (
       SELECT block, n, sum(n) OVER (ORDER BY block) AS upto FROM order_blocks
       WHERE collection = $1) AS s
     WHERE upto >= $2 ORDER BY block LIMIT 1`,
    [key, place],
  );
  const block = blocks[0];
  if (!block) return undefined;
  const params = new SqlParams();
  const part = partOf(collection, params);
  const { rows } = await tx.query<OrderKey>(
    `SELECT ${KEY_COLUMNS('t')} FROM ${collection.table} t
     WHERE ${part} AND t.position >= ${params.add(block.block * BLOCK)}
       AND t.position < ${params.add((block.block + 1) * BLOCK)}
     ORDER BY t.position, t.rank, t.id OFFSET ${params.add(place - block.before - 1)} LIMIT 1`,
    params.values,
  );
  return rows[0];
}

/** The row next to `from` (excluding `skip`) in the direction asked, or undefined at the end. */
async function neighbour(
  tx: Db,
  collection: OrderedCollection,
  from: OrderKey,
  direction: 'before' | 'after',
  skip: string,
): Promise<OrderKey | undefined> {
  const params = new SqlParams();
  const part = partOf(collection, params);
  const [compare, bound, order] = direction === 'before' ? ['<', '<=', 'DESC'] : ['>', '>=', 'ASC'];
  const p = params.add(from.position);
  const { rows } = await tx.query<OrderKey>(
    `SELECT ${KEY_COLUMNS('t')} FROM ${collection.table} t
     WHERE ${part} AND t.position ${bound} ${p}
       AND (t.position, t.rank, t.id) ${compare} (${p}::int, ${params.add(from.rank)}::text, ${params.add(from.id)}::text)
       AND t.id <> ${params.add(skip)}
     ORDER BY t.position ${order}, t.rank ${order}, t.id ${order} LIMIT 1`,
    params.values,
  );
  return rows[0];
}

/** The first or last row of the collection other than `skip`. */
async function end(
  tx: Db,
  collection: OrderedCollection,
  which: 'first' | 'last',
  skip: string,
): Promise<OrderKey | undefined> {
  const params = new SqlParams();
  const part = partOf(collection, params);
  const order = which === 'first' ? 'ASC' : 'DESC';
  const { rows } = await tx.query<OrderKey>(
    `SELECT ${KEY_COLUMNS('t')} FROM ${collection.table} t
     WHERE ${part} AND t.id <> ${params.add(skip)}
     ORDER BY t.position ${order}, t.rank ${order}, t.id ${order} LIMIT 1`,
    params.values,
  );
  return rows[0];
}

/**
 * Gives the rows of `position` (but `skip`) short, evenly spread ranks in their order, so a key
 * fits between any two of them again; answers their new keys. Rare: only after many moves into
 * one gap.
 */
async function respread(
  tx: Db,
  collection: OrderedCollection,
  position: number,
  skip: string,
): Promise<Map<string, OrderKey>> {
  const params = new SqlParams();
  const part = partOf(collection, params);
  const { rows } = await tx.query<OrderKey>(
    `SELECT ${KEY_COLUMNS('t')} FROM ${collection.table} t
     WHERE ${part} AND t.position = ${params.add(position)} AND t.id <> ${params.add(skip)}
     ORDER BY t.rank, t.id`,
    params.values,
  );
  const ranks = generateNKeysBetween(null, null, rows.length);
  await tx.query(
    `UPDATE ${collection.table} AS t SET rank = v.rank
     FROM unnest($1::text[], $2::text[]) AS v(id, rank) WHERE t.id = v.id`,
    [rows.map((row) => row.id), ranks],
  );
  return new Map(rows.map((row, i) => [row.id, { ...row, rank: ranks[i]! }]));
}

/** A key strictly between `lower` and `upper` (either may be absent: an end of the order). */
async function keyBetween(
  tx: Db,
  collection: OrderedCollection,
  moved: string,
  lower: OrderKey | undefined,
  upper: OrderKey | undefined,
): Promise<{ position: number; rank: string }> {
  const start = generateKeyBetween(null, null);
  if (!lower && !upper) return { position: 1, rank: start };
  if (!lower) return { position: upper!.position - 1, rank: start };
  if (!upper) return { position: lower.position + 1, rank: start };
  const gap = upper.position - lower.position;
  if (gap >= 2) return { position: lower.position + Math.floor(gap / 2), rank: start };
  if (gap === 1) {
    const rank = generateKeyBetween(lower.rank, null);
    if (rank.length <= MAX_RANK_LENGTH) return { position: lower.position, rank };
  } else if (lower.rank < upper.rank) {
    const rank = generateKeyBetween(lower.rank, upper.rank);
    if (rank.length <= MAX_RANK_LENGTH) return { position: lower.position, rank };
  }
  // Equal ranks (ties broken by id) or a rank grown long: respread the group, then fit between.
  const spread = await respread(tx, collection, lower.position, moved);
  const low = spread.get(lower.id)!.rank;
  const high = gap === 0 ? spread.get(upper.id)!.rank : null;
  return { position: lower.position, rank: generateKeyBetween(low, high) };
}

/**
 * Moves row `id` to the 1-based `position` within the rows of `collection` that match
 * `filters` (in order; a position past the end means right after the last of them), writing
 * the moved row only. Without filters the target is found through `order_blocks`; with filters
 * by reading the matching rows in order up to the target. Answers false when `id` is not in
 * the collection's `scope`.
 */
export async function moveToPosition(
  tx: Db,
  spec: ListSpec<unknown>,
  collection: OrderedCollection,
  move: { id: string; position: number; filters: FilterValues; scope?: ListScope },
): Promise<boolean> {
  await lockPositions(tx, collection.lockKey);
  const { alias, table } = collection;
  const params = new SqlParams();
  const scope = move.scope?.(params) ?? [];
  const matches = filterConditions(spec, move.filters, params);
  const matching = matches.length > 0 ? matches.join(' AND ') : 'true';
  const where = [...scope, `${alias}.id = ${params.add(move.id)}`].join(' AND ');
  const { rows } = await tx.query<OrderKey & { place: number; matches: boolean | null }>(
    `SELECT ${KEY_COLUMNS(alias)}, ${placeSql(table, alias)} AS place, ${matching} AS matches
     FROM ${spec.from} WHERE ${where}`,
    params.values,
  );
  const moved = rows[0];
  if (!moved) return false;
  if (!moved.matches) fail(400, 'VALIDATION_ERROR', 'filter: The row is not in the filtered list');

  // The row now holding the target place among the other matching rows, or the last of them.
  let target: OrderKey | undefined;
  let last: OrderKey | undefined;
  if (matches.length === 0) {
    target = await rowAtPlace(
      tx,
      collection,
      move.position < moved.place ? move.position : move.position + 1,
    );
    if (!target) last = await end(tx, collection, 'last', move.id);
  } else {
    const visible = async (order: 'ASC' | 'DESC', offset: number) => {
      const query = new SqlParams();
      const inScope = move.scope?.(query) ?? [];
      const conditions = [...inScope, ...filterConditions(spec, move.filters, query)];
      const { rows: found } = await tx.query<OrderKey>(
        `SELECT ${KEY_COLUMNS(alias)} FROM ${spec.from}
         WHERE ${conditions.join(' AND ')} AND ${alias}.id <> ${query.add(move.id)}
         ORDER BY ${alias}.position ${order}, ${alias}.rank ${order}, ${alias}.id ${order}
         OFFSET ${query.add(offset)} LIMIT 1`,
        query.values,
      );
      return found[0];
    };
    target = await visible('ASC', move.position - 1);
    if (!target) last = await visible('DESC', 0);
  }
  let lower: OrderKey | undefined;
  let upper: OrderKey | undefined;
  if (target) {
    lower = await neighbour(tx, collection, target, 'before', move.id);
    upper = target;
  } else if (last) {
    lower = last;
    upper = await neighbour(tx, collection, last, 'after', move.id);
  } else {
    return true;
  }
  const inPlace =
    (!lower || compareKeys(lower, moved) < 0) && (!upper || compareKeys(moved, upper) < 0);
  if (inPlace) return true;
  const key = await keyBetween(tx, collection, move.id, lower, upper);
  await tx.query(`UPDATE ${table} SET position = $2, rank = $3 WHERE id = $1`, [
    move.id,
    key.position,
    key.rank,
  ]);
  return true;
}

/** The lock key of an application's asset order. */
export const applicationLockKey = (applicationId: string) => `application:${applicationId}`;

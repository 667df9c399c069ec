/**
 * Ordered collections (assets globally, application assets per application) keep `position`
 * a contiguous 1..N. Every writer of positions (reorder, delete) runs in a transaction holding
 * the collection's advisory lock, so concurrent moves are serialised and a failure rolls back
 * to the previous, still contiguous numbering.
 */
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
}

/** Serialises position writers of one collection until the transaction ends. */
export async function lockPositions(tx: Db, lockKey: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`positions:${lockKey}`]);
}

async function writePositions(tx: Db, table: string, ids: string[], from: Map<string, number>) {
  const changed = ids.flatMap((id, index) => (from.get(id) === index + 1 ? [] : [[id, index + 1]]));
  if (changed.length === 0) return;
  await tx.query(
    `UPDATE ${table} AS t SET position = v.position
     FROM unnest($1::text[], $2::int[]) AS v(id, position) WHERE t.id = v.id`,
    [changed.map(([id]) => String(id)), changed.map(([, position]) => String(position))],
  );
}

/**
 * Moves row `id` to the 1-based `position` within the rows of `collection` that match
 * `filters` (ordered by position; a position past the end means last), then renumbers the whole
 * collection 1..N. Answers false when `id` is not in the collection's `scope`.
 */
export async function moveToPosition(
  tx: Db,
  spec: ListSpec<unknown>,
  collection: OrderedCollection,
  move: { id: string; position: number; filters: FilterValues; scope?: ListScope },
): Promise<boolean> {
  await lockPositions(tx, collection.lockKey);
  const { alias } = collection;
  const params = new SqlParams();
  const scope = move.scope?.(params) ?? [];
  const matches = filterConditions(spec, move.filters, params);
  const { rows } = await tx.query<{ id: string; position: number; matches: boolean | null }>(
    `SELECT ${alias}.id AS id, ${alias}.position AS position,
            ${matches.length > 0 ? matches.join(' AND ') : 'true'} AS matches
     FROM ${spec.from} ${scope.length > 0 ? `WHERE ${scope.join(' AND ')}` : ''}
     ORDER BY ${alias}.position, ${alias}.id`,
    params.values,
  );
  const moved = rows.find((row) => row.id === move.id);
  if (!moved) return false;
  if (!moved.matches) fail(400, 'VALIDATION_ERROR', 'filter: The row is not in the filtered list');

  const others = rows.filter((row) => row.id !== move.id);
  const visible = others.filter((row) => row.matches === true);
  // Insert before the row now holding the target place among the visible rows, or right
  // after the last visible row when the target is past the end.
  const before = visible[move.position - 1];
  const after = visible.at(-1);
  let index = rows.indexOf(moved);
  if (before) index = others.indexOf(before);
  else if (after) index = others.indexOf(after) + 1;
  const ids = others.map((row) => row.id);
  ids.splice(index, 0, move.id);
  await writePositions(tx, collection.table, ids, new Map(rows.map((r) => [r.id, r.position])));
  return true;
}

/** Closes the gaps deleted assets left in the global order (hold the `assets` lock). */
export async function renumberAssets(tx: Db): Promise<void> {
  await tx.query(
    `UPDATE assets AS t SET position = r.n
     FROM (SELECT id, row_number() OVER (ORDER BY position, id)::int AS n FROM assets) AS r
     WHERE t.id = r.id AND t.position <> r.n`,
  );
}

/** Closes the gaps in the given applications (hold their locks). */
export async function renumberApplicationAssets(tx: Db, applicationIds: string[]): Promise<void> {
  await tx.query(
    `UPDATE application_assets AS t SET position = r.n
     FROM (SELECT id, row_number() OVER (PARTITION BY application_id ORDER BY position, id)::int AS n
           FROM application_assets WHERE application_id = ANY($1::text[])) AS r
     WHERE t.id = r.id AND t.position <> r.n`,
    [applicationIds],
  );
}

/** The lock key of an application's asset order. */
export const applicationLockKey = (applicationId: string) => `application:${applicationId}`;

/** The Trash's list (GET /v1/trash). */
import { TRASH_KINDS, type TrashKind, type TrashRow } from '../contract/schemas';
import type { Db } from './db';
import { anyOfFilter, runList, searchFilter, type ListQuery, type ListSpec } from './list';
import { isoString } from './timestamps';

interface TrashDbRow {
  kind: TrashKind;
  id: string;
  name: string;
  deleted_at: Date;
  deleted_by: string | null;
  deleted_by_email: string | null;
  purge_at: Date;
}

/** GET /v1/trash; `retentionDays` is a validated integer (server/config.ts). */
export function trashListSpec(retentionDays: number): ListSpec<TrashRow> {
  return {
    from: 'trash t LEFT JOIN users u ON u.id = t.deleted_by',
    columns: `t.kind, t.id, t.name, t.deleted_at, t.deleted_by, u.email AS deleted_by_email,
      t.deleted_at + interval '${Math.trunc(retentionDays)} days' AS purge_at`,
    orders: { deletedAt: 't.deleted_at', name: 't.name', kind: 't.kind' },
    defaultOrder: '-deletedAt',
    idColumn: 't.id',
    filters: {
      search: searchFilter('t.name'),
      kind: anyOfFilter('t.kind', TRASH_KINDS),
      deletedBy: anyOfFilter('t.deleted_by'),
    },
    toRow: (row: TrashDbRow) => ({
      kind: row.kind,
      id: row.id,
      name: row.name,
      deletedAt: isoString(row.deleted_at),
      deletedBy: row.deleted_by,
      deletedByEmail: row.deleted_by_email,
      purgeAt: isoString(row.purge_at),
    }),
  };
}

/**
 * One page of the Trash, of the records of `kinds` only. Without a search or an author, the
 * total is the records of the kinds listed, kept by migration 038's triggers.
 */
export function listTrash(
  db: Db,
  spec: ListSpec<TrashRow>,
  query: ListQuery,
  kinds: readonly TrashKind[],
) {
  const { kind, ...others } = query.filters;
  const counted = kinds.filter((k) => !kind || kind.includes(k));
  return runList(
    db,
    spec,
    query,
    (params) => [`t.kind = ANY(${params.add(kinds)}::text[])`],
    (params) =>
      Object.keys(others).length > 0
        ? undefined
        : `SELECT coalesce(sum(n), 0)::int AS total FROM trash_kind_counts
           WHERE kind = ANY(${params.add(counted)}::text[])`,
  );
}

/**
 * The Trash (docs/api.md "Trash"). Deleting an asset or a tag moves it here: the record
 * and its relation rows leave their tables in the deleting transaction (so every list, count,
 * search, relation, single read and the public viewer stop showing it with no change to any
 * reader), and a `trash` row keeps them as JSON until they are restored or purged. Restoring
 * puts back the row as it was and each relation row whose partners exist:
 *
 * - places: an asset goes back to its order key in the global order and in each of its
 *   applications (server/positions.ts), so it comes back between the rows it was between, and
 *   no other row is written;
 * - a partner that is in the Trash itself (a tag trashed after the asset, or the other asset of
 *   a morphed asset) keeps the relation row in its own Trash record: it comes back when that
 *   partner is restored. A partner deleted for ever takes the relation with it;
 * - a tag or an application whose name another one took meanwhile is refused (409): rename
 *   one, then restore.
 *
 * The files a trashed record refers to are listed in `trash_files`, whose `file_url` column
 * keeps them from the file sweeper until the record is purged. The sweeper purges records
 * older than TRASH_RETENTION_DAYS (`purgeExpiredTrash`), skipping rows another server or a
 * restore holds (FOR UPDATE SKIP LOCKED), so several servers may purge at once.
 */
import type { Subject } from '../contract/ability';
import type { TrashKind, TrashRef } from '../contract/schemas';
import type { Db } from './db';
import { recordTrashEvent } from './events';
import { fail } from './http/errors';
import { applicationLockKey, lockPositions } from './positions';
import { keyOfFileUrl } from './storage';
import { checkWhole } from './versions';

/** What a relation column refers to. */
export type PartnerKind = TrashKind | 'user';

/** The relation tables, in the order a restore inserts them, and what each column refers to. */
export const RELATIONS = {
  asset_tags: { asset_id: 'asset', tag_id: 'tag' },
  application_assets: { asset_id: 'asset', application_id: 'application' },
  user_assets: { asset_id: 'asset', user_id: 'user' },
  morphed_assets: { source_asset_id: 'asset', body_asset_id: 'asset' },
  application_morphed_assets: { application_id: 'application', morphed_asset_id: 'morphed-asset' },
} as const satisfies Record<string, Record<string, PartnerKind>>;
export type RelationTable = keyof typeof RELATIONS;
export const RELATION_TABLES = Object.keys(RELATIONS) as RelationTable[];

/** How the Trash takes and gives back one kind of record. */
interface KindSpec {
  table: string;
  /** The ability subject whose `delete` lets a caller trash, list, restore and purge it. */
  subject: Exclude<Subject, 'all'>;
  /** The relation rows that go to the Trash with a record `$1`. */
  captured: Partial<Record<RelationTable, string>>;
  /**
   * Rows of other tables that refer to the record with a column set to NULL when it goes
   * (`ON DELETE SET NULL`): their ids are kept and the column set back on restore.
   */
  links?: Record<string, string>;
  /** Columns of the record's own row naming a record it cannot exist without. */
  parents?: Record<string, TrashKind>;
  /** A live record that stands where the restored one would (a unique key besides the id). */
  unique?: { where: string; columns: string[]; taken: (name: string) => string };
  /** The record has a place in the global asset order. */
  ordered?: true;
  /** The advisory lock that orders changes of what the record holds (server/positions.ts). */
  lockKey?: (id: string) => string;
}

/** Every kind the Trash holds; a restore puts records back in this order (assets first). */
export const KINDS: Record<TrashKind, KindSpec> = {
  asset: {
    table: 'assets',
    subject: 'Asset',
    captured: {
      asset_tags: 'asset_id = $1',
      application_assets: 'asset_id = $1',
      user_assets: 'asset_id = $1',
      morphed_assets: 'source_asset_id = $1 OR body_asset_id = $1',
      application_morphed_assets: `morphed_asset_id IN
        (SELECT id FROM morphed_assets WHERE source_asset_id = $1 OR body_asset_id = $1)`,
    },
    ordered: true,
  },
  tag: {
    table: 'tags',
    subject: 'Tag',
    captured: { asset_tags: 'tag_id = $1' },
    unique: {
      where: 'lower(name) = lower($1)',
      columns: ['name'],
      taken: (name) => `A tag named "${name}" exists now; rename one of them, then restore`,
    },
  },
  'cage-mesh': { table: 'cage_meshes', subject: 'CageMesh', captured: {} },
  application: {
    table: 'applications',
    subject: 'Application',
    captured: {
      application_assets: 'application_id = $1',
      application_morphed_assets: 'application_id = $1',
    },
    lockKey: applicationLockKey,
    unique: {
      where: 'lower(name) = lower($1)',
      columns: ['name'],
      taken: (name) =>
        `An application named "${name}" exists now; rename one of them, then restore`,
    },
  },
  'morphed-asset': {
    table: 'morphed_assets',
    subject: 'MorphedAsset',
    captured: { application_morphed_assets: 'morphed_asset_id = $1' },
    links: { morph_queue: 'morphed_asset_id' },
    parents: { source_asset_id: 'asset', body_asset_id: 'asset' },
    unique: {
      where: 'source_asset_id = $1 AND body_asset_id = $2',
      columns: ['source_asset_id', 'body_asset_id'],
      taken: (name) =>
        `A morphed asset of the same source and body as "${name}" was generated since; ` +
        'delete it, then restore',
    },
  },
};

/** The ability subject whose `delete` lets a caller trash, list, restore and purge a kind. */
export const trashSubject = (kind: TrashKind) => KINDS[kind].subject;

export const tableOf = (kind: PartnerKind) => (kind === 'user' ? 'users' : KINDS[kind].table);

export type JsonRow = Record<string, unknown>;

/** A trash record's `data`. */
export interface TrashData {
  row: JsonRow;
  relations: Partial<Record<RelationTable, JsonRow[]>>;
  /** Per table of `KindSpec.links`, the ids of the rows that referred to the record. */
  links?: Record<string, string[]>;
}

/** Every `/files/...` address held by a `*_url` field of the rows. */
function fileUrlsOf(data: TrashData): string[] {
  const rows = [data.row, ...Object.values(data.relations).flat()];
  const urls = rows.flatMap((row) =>
    Object.entries(row).flatMap(([key, value]) =>
      key.endsWith('_url') && typeof value === 'string' && keyOfFileUrl(value) ? [value] : [],
    ),
  );
  return [...new Set(urls)];
}

/**
 * The activity log's event of a record other than an asset going to the Trash, coming back or
 * purged (assets record the spec's keys: their delete in their routes, their restore and purge
 * below). The actor is null for the retention sweep.
 */
export async function recordRecordEvent(
  tx: Db,
  ref: TrashRef,
  event: 'deleted' | 'restored' | 'purged',
  name: string,
  actorId: string | null,
  at: Date,
  data?: Record<string, unknown>,
) {
  if (ref.kind !== 'asset')
    await recordTrashEvent(tx, ref.kind, ref.id, { event, name, actorId, at, data });
}

/**
 * Copies record `id` of `kind` and its relation rows into the Trash. Call it in the deleting
 * transaction, before the DELETE (whose cascade then removes the relation rows).
 */
export async function moveToTrash(tx: Db, ref: TrashRef, actorId: string, at: Date): Promise<void> {
  const spec = KINDS[ref.kind];
  const { rows } = await tx.query<{ row: JsonRow }>(
    `SELECT to_jsonb(t) AS row FROM ${spec.table} t WHERE t.id = $1`,
    [ref.id],
  );
  const row = rows[0]?.row ?? fail(404, 'NOT_FOUND', `No ${ref.kind} with id ${ref.id}`);
  const links: Record<string, string[]> = {};
  for (const [table, column] of Object.entries(spec.links ?? {})) {
    const linked = await tx.query<{ id: string }>(
      `SELECT id FROM ${table} WHERE ${column} = $1 ORDER BY id`,
      [ref.id],
    );
    links[table] = linked.rows.map((link) => link.id);
  }
  const data: TrashData = { row, relations: {}, links };
  for (const [table, where] of Object.entries(spec.captured)) {
    const result = await tx.query<{ rows: JsonRow[] }>(
      `SELECT coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) AS rows
       FROM ${table} t WHERE ${where}`,
      [ref.id],
    );
    data.relations[table as RelationTable] = result.rows[0]?.rows ?? [];
  }
  await tx.query(
    `INSERT INTO trash (kind, id, name, data, deleted_by, deleted_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6)`,
    [ref.kind, ref.id, String(row.name), JSON.stringify(data), actorId, at],
  );
  // A tag's delete records its event in its route (with the assets it leaves).
  if (ref.kind !== 'tag')
    await recordRecordEvent(tx, ref, 'deleted', String(row.name), actorId, at);
  await tx.query(
    `INSERT INTO trash_files (kind, id, file_url)
     SELECT $1, $2, url FROM unnest($3::text[]) AS url`,
    [ref.kind, ref.id, fileUrlsOf(data)],
  );
}

/**
 * Moves records `ids` of `kind` to the Trash and deletes them, all or none (404 when one is not
 * there), for the kinds whose delete changes nothing else: cage meshes, applications, morphed
 * assets. Each record's lock (an application's positions) and row are taken in id order before
 * its rows are copied, so no relation row is added or moved between the copy and the delete.
 * With `base` (If-Match on a single delete) a record at another version is not deleted (412).
 */
export async function trashRecords(
  tx: Db,
  kind: TrashKind,
  ids: readonly string[],
  actorId: string,
  at: Date,
  base?: number,
): Promise<TrashRef[]> {
  const { table, lockKey } = KINDS[kind];
  const sorted = [...new Set(ids)].sort();
  if (lockKey) for (const id of sorted) await lockPositions(tx, lockKey(id));
  for (const id of sorted) {
    const { rows } = await tx.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
    if (rows.length === 0) fail(404, 'NOT_FOUND', `No ${kind} with id ${id}`);
    if (base !== undefined) {
      const held = await tx.query<{ version: number }>(
        `SELECT version FROM ${table} WHERE id = $1`,
        [id],
      );
      checkWhole(held.rows[0]!, base);
    }
  }
  for (const id of sorted) await moveToTrash(tx, { kind, id }, actorId, at);
  await tx.query(`DELETE FROM ${table} WHERE id = ANY($1::text[])`, [sorted]);
  return sorted.map((id) => ({ kind, id }));
}

const named = (ref: TrashRef) => `${ref.kind} ${ref.id}`;

/** Sorted and without repeats, so two callers lock trash rows in the same order. */
export function uniqueRefs(refs: readonly TrashRef[]): TrashRef[] {
  const byKey = new Map(refs.map((ref) => [`${ref.kind}\u0000${ref.id}`, ref]));
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}

/** Locks the trash rows of `refs`; a record not in the Trash is a 404 before anything changes. */
export async function lockTrash(tx: Db, refs: readonly TrashRef[]) {
  for (const ref of refs) {
    const { rows } = await tx.query('SELECT 1 FROM trash WHERE kind = $1 AND id = $2 FOR UPDATE', [
      ref.kind,
      ref.id,
    ]);
    if (rows.length === 0) fail(404, 'NOT_FOUND', `The Trash holds no ${named(ref)}`);
  }
}

/**
 * Checks If-Match on a restore or purge of one record: `base` must be the version the record had
 * when it was trashed (a restore or purge cannot merge fields, so as a delete: 412 otherwise).
 * Locks the trash row; a record not in the Trash is a 404.
 */
export async function checkTrashedVersion(tx: Db, ref: TrashRef, base: number): Promise<void> {
  const { rows } = await tx.query<{ version: number | null }>(
    `SELECT (data->'row'->>'version')::int AS version FROM trash
     WHERE kind = $1 AND id = $2 FOR UPDATE`,
    [ref.kind, ref.id],
  );
  if (rows.length === 0) fail(404, 'NOT_FOUND', `The Trash holds no ${named(ref)}`);
  checkWhole({ version: rows[0]!.version ?? undefined }, base);
}

export interface TrashEntry {
  name: string;
  data: TrashData;
}

/** Removes a trash row and answers its data (the row is locked by `lockTrash`). */
export async function takeFromTrash(tx: Db, ref: TrashRef): Promise<TrashEntry> {
  const { rows } = await tx.query<TrashEntry>(
    'DELETE FROM trash WHERE kind = $1 AND id = $2 RETURNING name, data',
    [ref.kind, ref.id],
  );
  return rows[0]!;
}

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
import {
  TRASH_KINDS,
  type Asset,
  type TrashKind,
  type TrashRef,
  type TrashRow,
} from '../contract/schemas';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from './db';
import { recordAssetEvents, recordTrashEvent, type AssetEventInput } from './events';
import { fail } from './http/errors';
import { anyOfFilter, isoString, searchFilter, type ListSpec } from './list';
import { applicationLockKey, lockPositions } from './positions';
import { ASSETS, findAssets, sortedTagIds, updateEvents } from './asset-store';
import { keyOfFileUrl } from './storage';
import { checkWhole } from './versions';

/** What a relation column refers to. */
type PartnerKind = TrashKind | 'user';

/** The relation tables, in the order a restore inserts them, and what each column refers to. */
const RELATIONS = {
  asset_tags: { asset_id: 'asset', tag_id: 'tag' },
  application_assets: { asset_id: 'asset', application_id: 'application' },
  user_assets: { asset_id: 'asset', user_id: 'user' },
  morphed_assets: { source_asset_id: 'asset', body_asset_id: 'asset' },
  application_morphed_assets: { application_id: 'application', morphed_asset_id: 'morphed-asset' },
} as const satisfies Record<string, Record<string, PartnerKind>>;
type RelationTable = keyof typeof RELATIONS;
const RELATION_TABLES = Object.keys(RELATIONS) as RelationTable[];

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
const KINDS: Record<TrashKind, KindSpec> = {
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

const tableOf = (kind: PartnerKind) => (kind === 'user' ? 'users' : KINDS[kind].table);

type JsonRow = Record<string, unknown>;

/** A trash record's `data`. */
interface TrashData {
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
async function recordRecordEvent(
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
async function lockTrash(tx: Db, refs: readonly TrashRef[]) {
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

interface TrashEntry {
  name: string;
  data: TrashData;
}

/** Removes a trash row and answers its data (the row is locked by `lockTrash`). */
async function takeFromTrash(tx: Db, ref: TrashRef): Promise<TrashEntry> {
  const { rows } = await tx.query<TrashEntry>(
    'DELETE FROM trash WHERE kind = $1 AND id = $2 RETURNING name, data',
    [ref.kind, ref.id],
  );
  return rows[0]!;
}

/** Inserts a row as it was; `orSkip`: a row that conflicts with a live one is left out. */
const insertRow = (tx: Db, table: string, row: JsonRow, orSkip = true) =>
  tx.query(
    `INSERT INTO ${table} SELECT * FROM jsonb_populate_record(null::${table}, $1::jsonb)
     ${orSkip ? 'ON CONFLICT DO NOTHING' : ''}`,
    [JSON.stringify(row)],
  );

/** A row of an ordered table trashed before order keys existed sorts by its position alone. */
const withRank = (row: JsonRow): JsonRow => ({ ...row, rank: row.rank ?? 'a0' });

async function exists(tx: Db, kind: PartnerKind, id: string): Promise<boolean> {
  const { rows } = await tx.query(`SELECT 1 FROM ${tableOf(kind)} WHERE id = $1`, [id]);
  return rows.length > 0;
}

/** Appends a relation row to the Trash record of its missing partner; false when there is none. */
async function keepWithPartner(tx: Db, partner: TrashRef, table: RelationTable, row: JsonRow) {
  const { rows } = await tx.query(
    `UPDATE trash SET data = jsonb_set(data, ARRAY['relations', $3::text],
       coalesce(data->'relations'->$3::text, '[]'::jsonb) || jsonb_build_array($4::jsonb))
     WHERE kind = $1 AND id = $2 RETURNING 1`,
    [partner.kind, partner.id, table, JSON.stringify(row)],
  );
  return rows.length > 0;
}

/** What one restore changed that is settled once, after all its records are back. */
interface RestoreEffects {
  assets: Set<string>;
  users: Set<string>;
  /** Assets that got a restored tag back, with their tag ids before. */
  retagged: Map<string, string[]>;
}

/**
 * Puts back the record's own row (an asset at its old place in the global order) and the links
 * to it. A parent that is not there is a 409 saying whether it can come back; so is a live
 * record in its place.
 */
async function restoreRow(tx: Db, ref: TrashRef, { name, data }: TrashEntry) {
  const spec = KINDS[ref.kind];
  const { row } = data;
  for (const [column, kind] of Object.entries(spec.parents ?? {})) {
    const id = String(row[column]);
    if (await exists(tx, kind, id)) continue;
    const { rows } = await tx.query<{ name: string }>(
      'SELECT name FROM trash WHERE kind = $1 AND id = $2',
      [kind, id],
    );
    fail(
      409,
      'CONFLICT',
      rows[0]
        ? `"${name}" needs the ${kind} "${rows[0].name}", which is in the Trash: restore it first, or both together`
        : `"${name}" needs the ${kind} ${id}, which was deleted for ever: it cannot be restored`,
    );
  }
  if (spec.unique) {
    const values = spec.unique.columns.map((column) => String(row[column]));
    const taken = await tx.query(`SELECT 1 FROM ${spec.table} WHERE ${spec.unique.where}`, values);
    if (taken.rows.length > 0) fail(409, 'CONFLICT', spec.unique.taken(name));
  }
  if (spec.ordered) await lockPositions(tx, ASSETS.lockKey);
  await insertRow(tx, spec.table, withRank(row), false);
  for (const [table, column] of Object.entries(spec.links ?? {})) {
    await tx.query(
      `UPDATE ${table} SET ${column} = $2 WHERE id = ANY($1::text[]) AND ${column} IS NULL`,
      [data.links?.[table] ?? [], ref.id],
    );
  }
}

/** Inserts the relation rows of a restored record whose partners exist (see the file comment). */
async function restoreRelations(
  tx: Db,
  data: TrashData,
  effects: RestoreEffects,
  keptWith: Map<string, TrashRef>,
) {
  for (const table of RELATION_TABLES) {
    const rows = [...(data.relations[table] ?? [])].sort(
      (a, b) => Number(a.position ?? 0) - Number(b.position ?? 0),
    );
    for (const row of rows) {
      let missing: { kind: PartnerKind; id: string } | undefined;
      for (const [column, kind] of Object.entries(RELATIONS[table]) as [string, PartnerKind][]) {
        const id = String(row[column]);
        if (!(await exists(tx, kind, id))) missing = { kind, id };
      }
      if (missing) {
        // A morphed asset is in the Trash on its own or as a relation row of its asset's record.
        const partners = [
          keptWith.get(missing.id),
          missing.kind === 'user' ? undefined : { kind: missing.kind, id: missing.id },
        ];
        for (const partner of partners) {
          if (partner && (await keepWithPartner(tx, partner, table, row))) {
            if (table === 'morphed_assets') keptWith.set(String(row.id), partner);
            break;
          }
        }
        continue;
      }
      if (table === 'application_assets') {
        await lockPositions(tx, applicationLockKey(String(row.application_id)));
      }
      if (table === 'user_assets') effects.users.add(String(row.user_id));
      if (table === 'asset_tags' && !effects.assets.has(String(row.asset_id))) {
        effects.retagged.set(String(row.asset_id), []);
      }
      await insertRow(tx, table, table === 'application_assets' ? withRank(row) : row);
    }
  }
}

/**
 * Restores `refs` (sorted, unique) in one transaction, all or none: a record not in the Trash
 * is a 404; a tag whose name is taken, a morphed asset whose pair was generated again or one
 * whose asset is not there, a 409. Records `asset.restored.v1` for each asset and
 * the update events of each asset a restored tag is put back on; `mark` goes into each event's
 * data (a bulk job's id).
 */
export async function restoreFromTrash(
  tx: Db,
  refs: readonly TrashRef[],
  actorId: string,
  at: Date,
  mark: Record<string, unknown> = {},
): Promise<void> {
  await lockTrash(tx, refs);
  const effects: RestoreEffects = {
    assets: new Set(),
    users: new Set(),
    retagged: new Map(),
  };
  const keptWith = new Map<string, TrashRef>();
  // In the order of TRASH_KINDS (assets first, so morphed assets restored with theirs find
  // them), assets at their old places in ascending order, so places taken together come back
  // in the order they had.
  const entries = [];
  for (const ref of refs) entries.push({ ref, ...(await takeFromTrash(tx, ref)) });
  entries.sort(
    (a, b) =>
      TRASH_KINDS.indexOf(a.ref.kind) - TRASH_KINDS.indexOf(b.ref.kind) ||
      Number(a.data.row.position ?? 0) - Number(b.data.row.position ?? 0),
  );
  for (const entry of entries) {
    await restoreRow(tx, entry.ref, entry);
    if (entry.ref.kind === 'asset') effects.assets.add(entry.ref.id);
    await recordRecordEvent(tx, entry.ref, 'restored', entry.name, actorId, at, mark);
  }
  // The tags' assets are locked in id order before any is changed, as a tag delete locks them.
  const tagged = entries
    .filter((entry) => entry.ref.kind === 'tag')
    .flatMap((entry) => (entry.data.relations.asset_tags ?? []).map((row) => String(row.asset_id)));
  const before = new Map(
    (await lockAssets(tx, tagged)).map((asset) => [asset.id, sortedTagIds(asset)]),
  );
  // Every record's own row is back before any relation row, so partners restored together meet.
  for (const { data } of entries) {
    await restoreRelations(tx, data, effects, keptWith);
  }
  await tx.query(
    `UPDATE users SET assets = ARRAY(
       SELECT asset_id FROM user_assets x WHERE x.user_id = users.id ORDER BY created_at, asset_id)
     WHERE id = ANY($1::text[])`,
    [[...effects.users]],
  );
  const restored = await findAssets(tx, [...effects.assets]);
  const retagged = await findAssets(tx, [...effects.retagged.keys()]);
  const events: AssetEventInput[] = [
    ...restored.map((asset) => ({
      assetId: asset.id,
      event: 'restored' as const,
      actorId,
      data: { asset, ...mark },
      at,
    })),
    ...retagged.flatMap((asset) => {
      const from = before.get(asset.id) ?? [];
      const to = sortedTagIds(asset);
      if (from.join() === to.join()) return [];
      return updateEvents(asset, { tagIds: { from, to } }, actorId, at).map((event) => ({
        ...event,
        data: { ...event.data, ...mark },
      }));
    }),
  ];
  if (retagged.length > 0) {
    await tx.query('UPDATE assets SET updated_at = $2 WHERE id = ANY($1::text[])', [
      retagged.map((asset) => asset.id),
      at,
    ]);
  }
  await recordAssetEvents(tx, events);
}

async function lockAssets(tx: Db, ids: string[]): Promise<Asset[]> {
  const sorted = [...new Set(ids)].sort();
  if (sorted.length === 0) return [];
  await tx.query('SELECT 1 FROM assets WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [
    sorted,
  ]);
  return findAssets(tx, sorted);
}

/**
 * Runs a restore; a record put in the restored one's place by a concurrent change (a tag's
 * name, a morphed asset's pair) is the same 409 as one found before.
 */
export async function restoring<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isDbError(error, PG_UNIQUE_VIOLATION)) {
      fail(
        409,
        'CONFLICT',
        'A record took its place meanwhile (a tag with that name, a morphed asset of that ' +
          'pair); rename or delete one of them, then restore',
      );
    }
    throw error;
  }
}

/**
 * Records the purge of rows taken from the Trash: `asset.purged.v1` for each asset,
 * `<kind>.purged.v1` for the other kinds.
 */
async function purgeRows(
  tx: Db,
  rows: { kind: TrashKind; id: string; name: string }[],
  actorId: string | null,
  at: Date,
) {
  for (const row of rows) await recordRecordEvent(tx, row, 'purged', row.name, actorId, at);
  await recordAssetEvents(
    tx,
    rows
      .filter((row) => row.kind === 'asset')
      .map((row) => ({
        assetId: row.id,
        event: 'purged' as const,
        actorId,
        data: { name: row.name },
        at,
      })),
  );
}

/** Deletes `refs` (sorted, unique) from the Trash for ever, all or none (404 if one is not there). */
export async function purgeFromTrash(tx: Db, refs: readonly TrashRef[], actorId: string, at: Date) {
  await lockTrash(tx, refs);
  const purged = [];
  for (const ref of refs) purged.push({ ...ref, name: (await takeFromTrash(tx, ref)).name });
  await purgeRows(tx, purged, actorId, at);
}

const PURGE_BATCH = 100;

/**
 * Deletes the records trashed more than `retentionDays` before `now` for ever, in batches;
 * answers how many. Rows a restore or another server holds are skipped (the next run sees them
 * again if they are still there). Their files are left to the file sweep that follows.
 */
export async function purgeExpiredTrash(db: Db, now: Date, retentionDays: number): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);
  let purged = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ kind: TrashKind; id: string; name: string }>(
        `DELETE FROM trash WHERE (kind, id) IN (
           SELECT kind, id FROM trash WHERE deleted_at < $1
           ORDER BY deleted_at, kind, id LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED)
         RETURNING kind, id, name`,
        [before],
      );
      await purgeRows(tx, rows, null, now);
      return rows.length;
    });
    purged += count;
    if (count < PURGE_BATCH) return purged;
  }
}

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

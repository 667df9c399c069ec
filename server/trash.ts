/**
 * The Trash (server/README.md "Trash"). Deleting an asset or a tag moves it here: the record
 * and its relation rows leave their tables in the deleting transaction (so every list, count,
 * search, relation, single read and the public viewer stop showing it with no change to any
 * reader), and a `trash` row keeps them as JSON until they are restored or purged. Restoring
 * puts back the row as it was and each relation row whose partners exist:
 *
 * - positions: an asset goes back to the place it had in the global order and in each of its
 *   applications (the rows from that place on move down one), then each order is renumbered
 *   1..N, so a place past the end of an order that shrank meanwhile means last;
 * - a partner that is in the Trash itself (a tag trashed after the asset, or the other asset of
 *   a morphed asset) keeps the relation row in its own Trash record: it comes back when that
 *   partner is restored. A partner deleted for ever takes the relation with it;
 * - a tag whose name another tag took meanwhile is refused (409): rename one, then restore.
 *
 * The files a trashed record refers to are listed in `trash_files`, whose `file_url` column
 * keeps them from the file sweeper until the record is purged. The sweeper purges records
 * older than TRASH_RETENTION_DAYS (`purgeExpiredTrash`), skipping rows another server or a
 * restore holds (FOR UPDATE SKIP LOCKED), so several servers may purge at once.
 */
import type { Subject } from '../src/api/ability';
import {
  TRASH_KINDS,
  type Asset,
  type TrashKind,
  type TrashRef,
  type TrashRow,
} from '../src/api/schemas';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from './db';
import { recordAssetEvents, recordTagEvent, type AssetEventInput } from './events';
import { fail } from './http/errors';
import { anyOfFilter, isoString, searchFilter, type ListSpec } from './list';
import {
  applicationLockKey,
  lockPositions,
  renumberApplicationAssets,
  renumberAssets,
} from './positions';
import { ASSETS, findAssets, sortedTagIds, updateEvents } from './asset-store';
import { keyOfFileUrl } from './storage';

/** The ability subject whose `delete` lets a caller trash, list, restore and purge a kind. */
export const TRASH_SUBJECTS: Record<TrashKind, Exclude<Subject, 'all'>> = {
  asset: 'Asset',
  tag: 'Tag',
};

/** What a relation column refers to. */
type PartnerKind = TrashKind | 'application' | 'user' | 'morphed-asset';

const TABLES: Record<PartnerKind, string> = {
  asset: 'assets',
  tag: 'tags',
  application: 'applications',
  user: 'users',
  'morphed-asset': 'morphed_assets',
};

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

/** The relation rows that go to the Trash with a record `$1`, per kind. */
const CAPTURED: Record<TrashKind, Partial<Record<RelationTable, string>>> = {
  asset: {
    asset_tags: 'asset_id = $1',
    application_assets: 'asset_id = $1',
    user_assets: 'asset_id = $1',
    morphed_assets: 'source_asset_id = $1 OR body_asset_id = $1',
    application_morphed_assets: `morphed_asset_id IN
      (SELECT id FROM morphed_assets WHERE source_asset_id = $1 OR body_asset_id = $1)`,
  },
  tag: { asset_tags: 'tag_id = $1' },
};

type JsonRow = Record<string, unknown>;

/** A trash record's `data`. */
interface TrashData {
  row: JsonRow;
  relations: Partial<Record<RelationTable, JsonRow[]>>;
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
 * Copies record `id` of `kind` and its relation rows into the Trash. Call it in the deleting
 * transaction, before the DELETE (whose cascade then removes the relation rows).
 */
export async function moveToTrash(tx: Db, ref: TrashRef, actorId: string, at: Date): Promise<void> {
  const { rows } = await tx.query<{ row: JsonRow }>(
    `SELECT to_jsonb(t) AS row FROM ${TABLES[ref.kind]} t WHERE t.id = $1`,
    [ref.id],
  );
  const row = rows[0]?.row ?? fail(404, 'NOT_FOUND', `No ${ref.kind} with id ${ref.id}`);
  const data: TrashData = { row, relations: {} };
  for (const [table, where] of Object.entries(CAPTURED[ref.kind])) {
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
  await tx.query(
    `INSERT INTO trash_files (kind, id, file_url)
     SELECT $1, $2, url FROM unnest($3::text[]) AS url`,
    [ref.kind, ref.id, fileUrlsOf(data)],
  );
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

/** Removes a trash row and answers its data (the row is locked by `lockTrash`). */
async function takeFromTrash(tx: Db, ref: TrashRef): Promise<{ name: string; data: TrashData }> {
  const { rows } = await tx.query<{ name: string; data: TrashData }>(
    'DELETE FROM trash WHERE kind = $1 AND id = $2 RETURNING name, data',
    [ref.kind, ref.id],
  );
  return rows[0]!;
}

const insertRow = (tx: Db, table: string, row: JsonRow) =>
  tx.query(
    `INSERT INTO ${table} SELECT * FROM jsonb_populate_record(null::${table}, $1::jsonb)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(row)],
  );

async function exists(tx: Db, kind: PartnerKind, id: string): Promise<boolean> {
  const { rows } = await tx.query(`SELECT 1 FROM ${TABLES[kind]} WHERE id = $1`, [id]);
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
  applications: Set<string>;
  users: Set<string>;
  /** Assets that got a restored tag back, with their tag ids before. */
  retagged: Map<string, string[]>;
}

/** Puts back the record's own row: an asset at its old place in the global order. */
async function restoreRow(tx: Db, ref: TrashRef, name: string, row: JsonRow) {
  if (ref.kind === 'asset') {
    await lockPositions(tx, ASSETS.lockKey);
    await tx.query('UPDATE assets SET position = position + 1 WHERE position >= $1', [
      Number(row.position),
    ]);
    await insertRow(tx, 'assets', row);
    return;
  }
  const taken = await tx.query('SELECT 1 FROM tags WHERE lower(name) = lower($1)', [name]);
  if (taken.rows.length > 0) nameTaken(name);
  await insertRow(tx, 'tags', row);
}

function nameTaken(name: string): never {
  fail(409, 'CONFLICT', `A tag named "${name}" exists now; rename one of them, then restore`);
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
        const partner =
          missing.kind === 'morphed-asset'
            ? keptWith.get(missing.id)
            : TRASH_KINDS.includes(missing.kind as TrashKind)
              ? { kind: missing.kind as TrashKind, id: missing.id }
              : undefined;
        if (partner && (await keepWithPartner(tx, partner, table, row))) {
          if (table === 'morphed_assets') keptWith.set(String(row.id), partner);
        }
        continue;
      }
      if (table === 'application_assets') {
        const applicationId = String(row.application_id);
        await lockPositions(tx, applicationLockKey(applicationId));
        await tx.query(
          `UPDATE application_assets SET position = position + 1
           WHERE application_id = $1 AND position >= $2`,
          [applicationId, Number(row.position)],
        );
        effects.applications.add(applicationId);
      }
      if (table === 'user_assets') effects.users.add(String(row.user_id));
      if (table === 'asset_tags' && !effects.assets.has(String(row.asset_id))) {
        effects.retagged.set(String(row.asset_id), []);
      }
      await insertRow(tx, table, row);
    }
  }
}

/**
 * Restores `refs` (sorted, unique) in one transaction, all or none: a record not in the Trash
 * is a 404, a tag whose name is taken a 409. Records `asset.restored.v1` for each asset and
 * the update events of each asset a restored tag is put back on.
 */
export async function restoreFromTrash(
  tx: Db,
  refs: readonly TrashRef[],
  actorId: string,
  at: Date,
): Promise<void> {
  await lockTrash(tx, refs);
  const effects: RestoreEffects = {
    assets: new Set(),
    applications: new Set(),
    users: new Set(),
    retagged: new Map(),
  };
  const keptWith = new Map<string, TrashRef>();
  // Assets first, at their old places in ascending order, so places taken together come back
  // in the order they had.
  const entries = [];
  for (const ref of refs) entries.push({ ref, ...(await takeFromTrash(tx, ref)) });
  entries.sort(
    (a, b) =>
      Number(a.ref.kind !== 'asset') - Number(b.ref.kind !== 'asset') ||
      Number(a.data.row.position ?? 0) - Number(b.data.row.position ?? 0),
  );
  for (const { ref, name, data } of entries) {
    await restoreRow(tx, ref, name, data.row);
    if (ref.kind === 'asset') effects.assets.add(ref.id);
    if (ref.kind === 'tag') {
      await recordTagEvent(tx, { tagId: ref.id, event: 'restored', actorId, data: { name }, at });
    }
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
  if (effects.assets.size > 0) await renumberAssets(tx);
  await renumberApplicationAssets(tx, [...effects.applications]);
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
      data: { asset },
      at,
    })),
    ...retagged.flatMap((asset) => {
      const from = before.get(asset.id) ?? [];
      const to = sortedTagIds(asset);
      if (from.join() === to.join()) return [];
      return updateEvents(asset, { tagIds: { from, to } }, actorId, at);
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

/** Runs a restore; a tag name taken by a concurrent create or rename is the same 409. */
export async function restoring<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isDbError(error, PG_UNIQUE_VIOLATION)) {
      fail(409, 'CONFLICT', 'A tag with that name exists now; rename one of them, then restore');
    }
    throw error;
  }
}

/** Deletes rows of the Trash for ever and records `asset.purged.v1` for each asset. */
async function purgeRows(
  tx: Db,
  rows: { kind: TrashKind; id: string; name: string }[],
  actorId: string | null,
  at: Date,
) {
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

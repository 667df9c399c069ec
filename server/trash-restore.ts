/**
 * Restoring records from the Trash (server/trash.ts says what a restore puts back and what it
 * refuses).
 */
import { TRASH_KINDS, type Asset, type TrashRef } from '../contract/schemas';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from './db';
import { recordAssetEvents, type AssetEventInput } from './events';
import { fail } from './http/errors';
import { applicationLockKey, lockPositions } from './positions';
import { ASSETS, findAssets, sortedTagIds, updateEvents } from './asset-store';
import {
  KINDS,
  RELATIONS,
  RELATION_TABLES,
  lockTrash,
  recordRecordEvent,
  tableOf,
  takeFromTrash,
  type JsonRow,
  type PartnerKind,
  type RelationTable,
  type TrashData,
  type TrashEntry,
} from './trash';

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

/**
 * Applications in the database (server/routes/applications.ts answers them): the list, the
 * ordered assets placed in each, the morphed assets placed in them, and each change with the
 * events it records.
 */
import type {
  ApplicationAsset,
  ApplicationMorphedAsset,
  ApplicationRow,
  AssetSummary,
} from '../contract/schemas';
import { isDbError, PG_UNIQUE_VIOLATION, type Db } from './db';
import { recordApplicationEvent, recordAssetEvent, recordAssetEvents } from './events';
import { fail } from './http/errors';
import { newId } from './ids';
import { anyOfFilter, findById, searchFilter, type FilterValues, type ListSpec } from './list';
import { isoOrNull, isoString } from './timestamps';
import { morphedListSpec, type MorphedDbRow } from './morph-queue-store';
import {
  PAGE_PLACE,
  applicationLockKey,
  lockPositions,
  moveToPosition,
  pagePlaces,
  placeSql,
} from './positions';
import { changeOf, checkBase } from './versions';

interface ApplicationDbRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  version: number;
}

export const applicationListSpec: ListSpec<ApplicationRow> = {
  from: 'applications ap',
  columns: 'ap.id, ap.name, ap.created_at, ap.updated_at, ap.version',
  orders: { name: 'ap.name', createdAt: 'ap.created_at' },
  defaultOrder: 'name',
  idColumn: 'ap.id',
  filters: { search: searchFilter('ap.name') },
  toRow: (row: ApplicationDbRow) => ({
    id: row.id,
    name: row.name,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
    version: row.version,
  }),
};

export interface ApplicationAssetDbRow {
  id: string;
  application_id: string;
  asset_id: string;
  position: number;
  synced_at: Date | null;
  created_at: Date;
  asset: AssetSummary;
  version: number;
}

/** Application asset columns of aliases `aa` and `a` with the entry's place `place`. */
const applicationAssetColumns = (place: string) => `aa.id, aa.application_id, aa.asset_id,
    ${place} AS position, aa.synced_at, aa.created_at, aa.version,
    json_build_object('id', a.id, 'name', a.name, 'type', a.type, 'gender', a.gender,
                      'iconUrl', a.icon_url, 'locked', a.locked) AS asset`;

export const applicationAssetListSpec: ListSpec<ApplicationAsset, ApplicationAssetDbRow> = {
  from: 'application_assets aa JOIN assets a ON a.id = aa.asset_id',
  columns: applicationAssetColumns(placeSql('application_assets', 'aa')),
  page: {
    ...pagePlaces('application_assets', 'aa'),
    columns: applicationAssetColumns(PAGE_PLACE),
  },
  orders: { position: ['aa.position', 'aa.rank'], name: 'a.name', createdAt: 'aa.created_at' },
  defaultOrder: 'position',
  idColumn: 'aa.id',
  filters: {
    applicationId: anyOfFilter('aa.application_id'),
    search: searchFilter('a.name'),
    type: anyOfFilter('a.type'),
  },
  requiredFilters: ['applicationId'],
  toRow: (row: ApplicationAssetDbRow) => ({
    id: row.id,
    applicationId: row.application_id,
    assetId: row.asset_id,
    position: row.position,
    syncedAt: isoOrNull(row.synced_at),
    createdAt: isoString(row.created_at),
    asset: row.asset,
    version: row.version,
  }),
};

export function getApplicationAsset(db: Db, id: string): Promise<ApplicationAsset> {
  return findById(db, applicationAssetListSpec, id, 'application asset');
}

/**
 * Moves application asset `id` to `position` within its application (among the rows matching
 * `filters`; docs/api.md "Order updates"). Run it in a transaction; answers false when `id` is not
 * in that application.
 */
export function moveApplicationAsset(
  tx: Db,
  applicationId: string,
  move: { id: string; position: number; filters: FilterValues },
): Promise<boolean> {
  return moveToPosition(
    tx,
    applicationAssetListSpec,
    {
      table: 'application_assets',
      alias: 'aa',
      lockKey: applicationLockKey(applicationId),
      applicationId,
    },
    { ...move, scope: (params) => [`aa.application_id = ${params.add(applicationId)}`] },
  );
}

export function getApplication(db: Db, id: string): Promise<ApplicationRow> {
  return findById(db, applicationListSpec, id, 'application');
}

/** Runs a write that may hit the case-insensitive unique name index (migration 020): 409. */
export async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDbError(error, PG_UNIQUE_VIOLATION)) {
      fail(409, 'CONFLICT', `An application named "${name}" already exists`);
    }
    throw error;
  }
}

/** Inserts application `id` named `name` and records its creation; answers it. */
export async function createApplication(
  tx: Db,
  { id, name }: { id: string; name: string },
  actorId: string,
  at: Date,
): Promise<ApplicationRow> {
  await tx.query(
    'INSERT INTO applications (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)',
    [id, name, at],
  );
  const event = { applicationId: id, actorId, data: { name }, at };
  await recordApplicationEvent(tx, { ...event, event: 'created' });
  return getApplication(tx, id);
}

/**
 * Renames application `id`; with `base` (If-Match), a name someone else changed since that
 * version is a 409 (412 for a version that never existed). The same name again changes and
 * records nothing.
 */
export async function renameApplication(
  tx: Db,
  id: string,
  name: string,
  base: number | undefined,
  actorId: string,
  now: () => Date,
): Promise<ApplicationRow> {
  await tx.query('SELECT 1 FROM applications WHERE id = $1 FOR UPDATE', [id]);
  const before = await getApplication(tx, id);
  const changes = changeOf('name', before.name, name);
  await checkBase(tx, 'application', before, base, changes);
  if (before.name === name) return before;
  const at = now();
  await tx.query('UPDATE applications SET name = $2, updated_at = $3 WHERE id = $1', [
    id,
    name,
    at,
  ]);
  const event = { applicationId: id, actorId, data: { changes }, at };
  await recordApplicationEvent(tx, { ...event, event: 'updated' });
  return getApplication(tx, id);
}

/**
 * Moves application asset `id` of `applicationId` to `position` among the rows matching
 * `filters`, under the application's order lock; answers false when it is not there. With
 * `base` (If-Match), a position someone else changed since that version is a 409 (with a filter
 * the requested position counts in another list, so any such change is).
 */
export async function moveApplicationAssetFrom(
  tx: Db,
  applicationId: string,
  move: { id: string; position: number; filters: FilterValues; filtered: boolean },
  base: number | undefined,
): Promise<boolean> {
  const { id, position, filters, filtered } = move;
  await lockPositions(tx, applicationLockKey(applicationId));
  await tx.query('SELECT 1 FROM application_assets WHERE id = $1 FOR UPDATE', [id]);
  // Deleted between the lookup and the lock: 404.
  const before = await getApplicationAsset(tx, id);
  const moves = filtered || before.position !== position;
  const changes = changeOf('position', before.position, position, moves);
  await checkBase(tx, 'application-asset', before, base, changes);
  return moveApplicationAsset(tx, applicationId, { id, position, filters });
}

/**
 * Marks application asset `id` as synced with its parent asset at `now` and records the event
 * on the asset (404 when it is not there). With `base` (If-Match), a sync someone else made
 * since that version is a 409.
 */
export async function syncApplicationAsset(
  tx: Db,
  id: string,
  base: number | undefined,
  actorId: string,
  now: Date,
): Promise<void> {
  if (base !== undefined) {
    await tx.query('SELECT 1 FROM application_assets WHERE id = $1 FOR UPDATE', [id]);
    const before = await getApplicationAsset(tx, id);
    const changes = changeOf('syncedAt', before.syncedAt, now.toISOString(), true);
    await checkBase(tx, 'application-asset', before, base, changes);
  }
  const { rows } = await tx.query<{ asset_id: string; application_id: string }>(
    'UPDATE application_assets SET synced_at = $2 WHERE id = $1 RETURNING asset_id, application_id',
    [id, now],
  );
  if (!rows[0]) fail(404, 'NOT_FOUND', `No application asset with id ${id}`);
  await recordAssetEvent(tx, {
    assetId: rows[0].asset_id,
    event: 'applicationUpdated',
    actorId,
    data: { applicationId: rows[0].application_id, applicationAssetId: id, synced: true },
    at: now,
  });
}

interface PlacementDbRow extends MorphedDbRow {
  placement_id: string;
  application_id: string;
  placed_at: Date;
}

/**
 * Places morphed assets `morphedIds` in application `applicationId`, all or none, and records
 * addedToApplication on each one's source asset; answers the placements' ids. An unknown
 * application or morphed asset is a 400, one already placed a 409.
 */
export async function placeMorphedAssets(
  tx: Db,
  applicationId: string,
  morphedIds: readonly string[],
  actorId: string,
  now: () => Date,
): Promise<string[]> {
  // FOR KEY SHARE: a delete of the application or of a morphed asset (to the Trash) waits
  // for this placement and takes it along, instead of failing its insert.
  const application = await tx.query('SELECT id FROM applications WHERE id = $1 FOR KEY SHARE', [
    applicationId,
  ]);
  if (application.rows.length === 0) {
    fail(400, 'VALIDATION_ERROR', `applicationId: No application with id ${applicationId}`);
  }
  const { rows: morphed } = await tx.query<{ id: string; source_asset_id: string }>(
    'SELECT id, source_asset_id FROM morphed_assets WHERE id = ANY($1::text[]) FOR KEY SHARE',
    [morphedIds],
  );
  const unknown = morphedIds.filter((id) => !morphed.some((row) => row.id === id));
  if (unknown.length > 0) {
    fail(400, 'VALIDATION_ERROR', `No morphed assets with ids ${unknown.join(', ')}`);
  }
  const at = now();
  const ids = morphedIds.map(() => newId());
  try {
    await tx.query(
      `INSERT INTO application_morphed_assets (id, application_id, morphed_asset_id, created_at)
       SELECT v.id, $2, v.morphed_asset_id, $3
       FROM unnest($1::text[], $4::text[]) AS v(id, morphed_asset_id)`,
      [ids, applicationId, at, morphedIds],
    );
  } catch (error) {
    if (!isDbError(error, PG_UNIQUE_VIOLATION)) throw error;
    fail(409, 'CONFLICT', 'A morphed asset is already in this application');
  }
  await recordAssetEvents(
    tx,
    morphedIds.map((morphedAssetId, i) => ({
      assetId: morphed.find((row) => row.id === morphedAssetId)!.source_asset_id,
      event: 'addedToApplication' as const,
      actorId,
      data: { applicationId, morphedAssetId, applicationMorphedAssetId: ids[i] },
      at,
    })),
  );
  return ids;
}

/** Placed morphed assets by placement id, in the order of `ids`. */
export async function applicationMorphedAssets(
  db: Db,
  ids: readonly string[],
): Promise<ApplicationMorphedAsset[]> {
  const { rows } = await db.query<PlacementDbRow>(
    `SELECT am.id AS placement_id, am.application_id, am.created_at AS placed_at,
       ${morphedListSpec.columns}
     FROM application_morphed_assets am JOIN ${morphedListSpec.from} ON m.id = am.morphed_asset_id
     WHERE am.id = ANY($1::text[])`,
    [ids],
  );
  const byId = new Map(rows.map((row) => [row.placement_id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const morphedAsset = morphedListSpec.toRow(row);
    return [
      {
        id,
        applicationId: row.application_id,
        morphedAssetId: morphedAsset.id,
        createdAt: isoString(row.placed_at),
        morphedAsset,
      },
    ];
  });
}

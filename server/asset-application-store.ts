/**
 * An asset's places in applications and an application's export, in the database
 * (server/routes/asset-applications.ts answers them). Each change takes the application's order
 * lock first (server/positions.ts) and records its event on the asset.
 */
import type { AssetApplication, AssetExport, Gender } from '../contract/schemas';
import type { Db } from './db';
import { ASSET_EVENT_KEYS, recordAssetEvent } from './events';
import { fail } from './http/errors';
import { newId } from './ids';
import { searchFilter, type ListSpec } from './list';
import { isoOrNull } from './timestamps';
import { applicationLockKey, lockPositions, placeSql } from './positions';
import {
  applicationAssetListSpec,
  moveApplicationAsset,
  type ApplicationAssetDbRow,
} from './application-store';
import { getAsset } from './asset-store';
import { morphedListSpec, type MorphedDbRow } from './morph-queue-store';
import { changeOf, checkBase, checkWhole } from './versions';

type AssetApplicationDbRow = ApplicationAssetDbRow & { application_name: string };

/** GET /v1/assets/{id}/application: the application assets of one asset (scope by asset). */
export const assetApplicationListSpec: ListSpec<AssetApplication, AssetApplicationDbRow> = {
  from: `${applicationAssetListSpec.from} JOIN applications ap ON ap.id = aa.application_id`,
  columns: `${applicationAssetListSpec.columns}, ap.name AS application_name`,
  page: {
    ...applicationAssetListSpec.page!,
    columns: `${applicationAssetListSpec.page!.columns}, ap.name AS application_name`,
  },
  // An asset is in few applications: its place in each is counted per row to sort by it.
  orders: {
    name: 'ap.name',
    position: placeSql('application_assets', 'aa'),
    createdAt: 'aa.created_at',
  },
  defaultOrder: 'name',
  idColumn: 'aa.id',
  filters: { search: searchFilter('ap.name') },
  toRow: (row: AssetApplicationDbRow) => ({
    ...applicationAssetListSpec.toRow(row),
    applicationName: row.application_name,
  }),
};

/** Where asset `assetId` sits in application `applicationId`, or undefined. */
async function findPlacement(
  db: Db,
  assetId: string,
  applicationId: string,
): Promise<AssetApplication | undefined> {
  const { rows } = await db.query<AssetApplicationDbRow>(
    `SELECT ${assetApplicationListSpec.columns} FROM ${assetApplicationListSpec.from}
     WHERE aa.asset_id = $1 AND aa.application_id = $2`,
    [assetId, applicationId],
  );
  return rows[0] && assetApplicationListSpec.toRow(rows[0]);
}

async function getPlacement(db: Db, assetId: string, applicationId: string) {
  return (
    (await findPlacement(db, assetId, applicationId)) ??
    fail(404, 'NOT_FOUND', `The asset is not in an application with id ${applicationId}`)
  );
}

interface ExportDbRow {
  position: number;
  synced_at: Date | null;
  id: string;
  name: string;
  type: string;
  gender: Gender;
  description: string;
  locked: boolean;
  model_url: string | null;
  icon_url: string | null;
  texture_url: string | null;
  normal_map_url: string | null;
  source_url: string | null;
}

/**
 * Application `applicationId` with its assets in order and its morphed assets (404 when it is
 * not there); file addresses are made absolute with `absolute`. Records asset.exported on
 * each asset, in one statement however many it holds.
 */
export async function exportApplication(
  tx: Db,
  applicationId: string,
  absolute: (url: string | null) => string | null,
  actorId: string,
  at: () => Date,
): Promise<AssetExport> {
  const { rows: applications } = await tx.query<{ id: string; name: string }>(
    'SELECT id, name FROM applications WHERE id = $1',
    [applicationId],
  );
  const application =
    applications[0] ?? fail(404, 'NOT_FOUND', `No application with id ${applicationId}`);
  const { rows } = await tx.query<ExportDbRow>(
    `SELECT row_number() OVER (ORDER BY aa.position, aa.rank, aa.id)::int AS position,
       aa.synced_at, a.id, a.name, a.type, a.gender, a.description,
       a.locked, a.model_url, a.icon_url, a.texture_url, a.normal_map_url, a.source_url
     FROM application_assets aa JOIN assets a ON a.id = aa.asset_id
     WHERE aa.application_id = $1 ORDER BY aa.position, aa.rank, aa.id`,
    [applicationId],
  );
  const { rows: morphed } = await tx.query<MorphedDbRow>(
    `SELECT ${morphedListSpec.columns}
     FROM application_morphed_assets am JOIN ${morphedListSpec.from} ON m.id = am.morphed_asset_id
     WHERE am.application_id = $1 ORDER BY am.created_at, am.id`,
    [applicationId],
  );
  const now = at();
  if (rows.length > 0) {
    // One statement for the whole application, however many assets it holds.
    await tx.query(
      `INSERT INTO asset_events (id, asset_id, routing_key, actor_id, data, created_at)
       SELECT v.id, v.asset_id, $3, $4, $5::jsonb, $6
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS v(id, asset_id, n)
       ORDER BY v.n`,
      [
        rows.map(() => newId()),
        rows.map((row) => row.id),
        ASSET_EVENT_KEYS.exported,
        actorId,
        JSON.stringify({ applicationId }),
        now,
      ],
    );
  }
  return {
    application,
    exportedAt: now.toISOString(),
    assets: rows.map((row) => ({
      position: row.position,
      id: row.id,
      name: row.name,
      type: row.type,
      gender: row.gender,
      description: row.description,
      locked: row.locked,
      syncedAt: isoOrNull(row.synced_at),
      modelUrl: absolute(row.model_url),
      iconUrl: absolute(row.icon_url),
      textureUrl: absolute(row.texture_url),
      normalMapUrl: absolute(row.normal_map_url),
      sourceUrl: absolute(row.source_url),
    })),
    morphedAssets: morphed.map((row) => {
      const morphedAsset = morphedListSpec.toRow(row);
      return { ...morphedAsset, modelUrl: absolute(morphedAsset.modelUrl) };
    }),
  };
}

/**
 * Adds asset `assetId` at the end of application `applicationId`, or at `position` (past the
 * end: last); a missing application is a 400, an asset already there a 409.
 */
export async function addToApplication(
  tx: Db,
  {
    assetId,
    applicationId,
    position,
  }: { assetId: string; applicationId: string; position?: number },
  actorId: string,
  now: () => Date,
): Promise<AssetApplication> {
  await lockPositions(tx, applicationLockKey(applicationId));
  await getAsset(tx, assetId);
  const application = await tx.query('SELECT id FROM applications WHERE id = $1', [applicationId]);
  if (application.rows.length === 0) {
    fail(400, 'VALIDATION_ERROR', `applicationId: No application with id ${applicationId}`);
  }
  if (await findPlacement(tx, assetId, applicationId)) {
    fail(409, 'CONFLICT', `The asset is already in application ${applicationId}`);
  }
  const id = newId();
  const at = now();
  await tx.query(
    `INSERT INTO application_assets (id, application_id, asset_id, position, created_at)
     SELECT $1, $2, $3, COALESCE(max(position), 0) + 1, $4
     FROM application_assets WHERE application_id = $2`,
    [id, applicationId, assetId, at],
  );
  if (position !== undefined) {
    await moveApplicationAsset(tx, applicationId, { id, position, filters: {} });
  }
  const placed = await getPlacement(tx, assetId, applicationId);
  await recordAssetEvent(tx, {
    assetId,
    event: 'addedToApplication',
    actorId,
    data: { applicationId, applicationAssetId: id, position: placed.position },
    at,
  });
  return placed;
}

/**
 * Moves asset `assetId` within application `applicationId` (without a filter); with `base`
 * (If-Match, the entry's version), a position someone else changed since then is a 409.
 */
export async function moveInApplication(
  tx: Db,
  {
    assetId,
    applicationId,
    position,
  }: { assetId: string; applicationId: string; position: number },
  base: number | undefined,
  actorId: string,
  now: () => Date,
): Promise<AssetApplication> {
  await lockPositions(tx, applicationLockKey(applicationId));
  await getAsset(tx, assetId);
  const before = await getPlacement(tx, assetId, applicationId);
  const changes = changeOf('position', before.position, position);
  await checkBase(tx, 'application-asset', before, base, changes);
  await moveApplicationAsset(tx, applicationId, { id: before.id, position, filters: {} });
  const after = await getPlacement(tx, assetId, applicationId);
  await recordAssetEvent(tx, {
    assetId,
    event: 'applicationUpdated',
    actorId,
    data: {
      applicationId,
      applicationAssetId: before.id,
      position: { from: before.position, to: after.position },
    },
    at: now(),
  });
  return after;
}

/**
 * Removes asset `assetId` from application `applicationId` and closes the gap; answers the
 * removed entry. With `base` (If-Match), an entry changed since then is not removed (412).
 */
export async function removeFromApplication(
  tx: Db,
  { assetId, applicationId }: { assetId: string; applicationId: string },
  base: number | undefined,
  actorId: string,
  now: () => Date,
): Promise<AssetApplication> {
  await lockPositions(tx, applicationLockKey(applicationId));
  await getAsset(tx, assetId);
  const placed = await getPlacement(tx, assetId, applicationId);
  if (base !== undefined) {
    // A sync changes the entry without the positions lock: hold the row while checking.
    await tx.query('SELECT 1 FROM application_assets WHERE id = $1 FOR UPDATE', [placed.id]);
    checkWhole(await getPlacement(tx, assetId, applicationId), base);
  }
  await tx.query('DELETE FROM application_assets WHERE id = $1', [placed.id]);
  await recordAssetEvent(tx, {
    assetId,
    event: 'applicationDeleted',
    actorId,
    data: { applicationId, applicationAssetId: placed.id },
    at: now(),
  });
  return placed;
}

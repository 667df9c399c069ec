/**
 * An asset's applications and an application's export, mounted on /v1/assets and
 * /private/v1/assets next to the asset routes (so every route carries its own middleware):
 * GET, POST, PATCH, DELETE /{id}/application and GET /export/{applicationId}.
 *
 * A locked asset can still be added, moved and removed: locking protects the asset's own
 * content (docs/api.md "Applications"), while these routes change the application's list.
 */
import { Hono, type Context } from 'hono';
import {
  assetApplicationAddBodySchema,
  assetApplicationMoveBodySchema,
  assetApplicationRemoveBodySchema,
  type AssetApplication,
  type AssetExport,
  type Gender,
} from '../../contract/schemas';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { ASSET_EVENT_KEYS, recordAssetEvent } from '../events';
import { fail } from '../http/errors';
import { readBody } from '../http/validate';
import { newId } from '../ids';
import { isoOrNull, parseListQuery, runList, searchFilter, type ListSpec } from '../list';
import { applicationLockKey, lockPositions, placeSql } from '../positions';
import {
  applicationAssetListSpec,
  moveApplicationAsset,
  type ApplicationAssetDbRow,
} from './applications';
import { getAsset } from '../asset-store';
import { morphedListSpec } from './morphs';
import { changeOf, checkBase, checkWhole, readIfMatch, setVersionTag } from '../versions';
import { withoutFormatControls } from '../../core/files/file-name';

type AssetApplicationDbRow = ApplicationAssetDbRow & { application_name: string };

/** GET /v1/assets/{id}/application: the application assets of one asset (scope by asset). */
const assetApplicationListSpec: ListSpec<AssetApplication> = {
  from: `${applicationAssetListSpec.from} JOIN applications ap ON ap.id = aa.application_id`,
  columns: `${applicationAssetListSpec.columns}, ap.name AS application_name`,
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
    ...applicationAssetListSpec.toRow(row as never),
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
  return rows[0] && assetApplicationListSpec.toRow(rows[0] as never);
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
 * `attachment` with the file name twice: quoted ASCII (other characters, quotes and
 * backslashes replaced) for old clients, and RFC 5987 UTF-8 for the rest.
 */
function attachment(name: string): string {
  // An application's name could carry a right-to-left override that disguises the extension.
  const filename = withoutFormatControls(name);
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Routes mounted at /v1/assets and /private/v1/assets. */
export function assetApplicationRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const auth = requireAuth(deps);
  const canRead = requireAbility('read', 'Application');
  const canUpdate = requireAbility('update', 'Application');
  const actor = (c: Context<AuthEnv>) => c.get('auth').userId;

  app.get('/export/:applicationId', auth, canRead, async (c) => {
    const applicationId = c.req.param('applicationId');
    // PUBLIC_URL, never the request's Host: a forged Host would put its own host in the file.
    const origin = deps.config.publicUrl;
    const absolute = (url: string | null) =>
      url !== null && url.startsWith('/') && !url.startsWith('//') ? `${origin}${url}` : url;
    const document = await db.transaction(async (tx): Promise<AssetExport> => {
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
      const { rows: morphed } = await tx.query(
        `SELECT ${morphedListSpec.columns}
         FROM application_morphed_assets am JOIN ${morphedListSpec.from} ON m.id = am.morphed_asset_id
         WHERE am.application_id = $1 ORDER BY am.created_at, am.id`,
        [applicationId],
      );
      const now = deps.now();
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
            actor(c),
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
          const morphedAsset = morphedListSpec.toRow(row as never);
          return { ...morphedAsset, modelUrl: absolute(morphedAsset.modelUrl) };
        }),
      };
    });
    c.header('content-disposition', attachment(`${document.application.name}-assets.json`));
    c.header('cache-control', 'no-store');
    return c.json(document);
  });

  app.get('/:id/application', auth, canRead, async (c) => {
    const assetId = c.req.param('id');
    await getAsset(db, assetId);
    const query = parseListQuery(assetApplicationListSpec, c.req.queries());
    return c.json(
      await runList(db, assetApplicationListSpec, query, (params) => [
        `aa.asset_id = ${params.add(assetId)}`,
      ]),
    );
  });

  // Adds the asset at the end of the application, or at `position` (past the end: last).
  app.post('/:id/application', auth, canUpdate, async (c) => {
    const body = await readBody(c, assetApplicationAddBodySchema);
    const { applicationId } = body;
    const assetId = c.req.param('id');
    const data = await db.transaction(async (tx) => {
      await lockPositions(tx, applicationLockKey(applicationId));
      await getAsset(tx, assetId);
      const application = await tx.query('SELECT id FROM applications WHERE id = $1', [
        applicationId,
      ]);
      if (application.rows.length === 0) {
        fail(400, 'VALIDATION_ERROR', `applicationId: No application with id ${applicationId}`);
      }
      if (await findPlacement(tx, assetId, applicationId)) {
        fail(409, 'CONFLICT', `The asset is already in application ${applicationId}`);
      }
      const id = newId();
      const now = deps.now();
      await tx.query(
        `INSERT INTO application_assets (id, application_id, asset_id, position, created_at)
         SELECT $1, $2, $3, COALESCE(max(position), 0) + 1, $4
         FROM application_assets WHERE application_id = $2`,
        [id, applicationId, assetId, now],
      );
      if (body.position !== undefined) {
        await moveApplicationAsset(tx, applicationId, { id, position: body.position, filters: {} });
      }
      const placed = await getPlacement(tx, assetId, applicationId);
      await recordAssetEvent(tx, {
        assetId,
        event: 'addedToApplication',
        actorId: actor(c),
        data: { applicationId, applicationAssetId: id, position: placed.position },
        at: now,
      });
      return placed;
    });
    return c.json({ data });
  });

  // Moves the asset within the application (docs/api.md "Order updates", without a filter). With
  // If-Match (the entry's version), a position someone else changed since then is a 409.
  app.patch('/:id/application', auth, canUpdate, async (c) => {
    const base = readIfMatch(c);
    const { applicationId, position } = await readBody(c, assetApplicationMoveBodySchema);
    const assetId = c.req.param('id');
    const data = await db.transaction(async (tx) => {
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
        actorId: actor(c),
        data: {
          applicationId,
          applicationAssetId: before.id,
          position: { from: before.position, to: after.position },
        },
        at: deps.now(),
      });
      return after;
    });
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Removes the asset from the application and closes the gap; answers the removed row. With
  // If-Match (the entry's version), an entry changed since then is not removed (412).
  app.delete('/:id/application', auth, canUpdate, async (c) => {
    const base = readIfMatch(c);
    const { applicationId } = await readBody(c, assetApplicationRemoveBodySchema);
    const assetId = c.req.param('id');
    const data = await db.transaction(async (tx) => {
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
        actorId: actor(c),
        data: { applicationId, applicationAssetId: placed.id },
        at: deps.now(),
      });
      return placed;
    });
    return c.json({ data });
  });

  return app;
}

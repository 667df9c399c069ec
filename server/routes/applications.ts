/**
 * Applications and what is placed in them: /v1/applications (list, read; create and rename for
 * admins), /v1/application-assets (ordered assets) and /v1/application-morphed-assets (all also
 * under /private/v1).
 */
import { Hono } from 'hono';
import {
  applicationBodySchema,
  applicationMorphedAssetBodySchema,
  positionBodySchema,
  type ApplicationAsset,
  type ApplicationMorphedAsset,
  type ApplicationRow,
  type AssetSummary,
} from '../../contract/schemas';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import { isDbError, PG_UNIQUE_VIOLATION, type Db } from '../db';
import type { Deps } from '../deps';
import { recordApplicationEvent, recordAssetEvent, recordAssetEvents } from '../events';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { readBody } from '../http/validate';
import { newId } from '../ids';
import {
  anyOfFilter,
  filterFromJson,
  isoOrNull,
  findById,
  isoString,
  listHandler,
  parseListQuery,
  runList,
  searchFilter,
  type FilterValues,
  type ListSpec,
} from '../list';
import { applicationLockKey, lockPositions, moveToPosition, placeSql } from '../positions';
import { morphedListSpec } from './morphs';
import { changeOf, checkBase, readIfMatch, setVersionTag } from '../versions';

interface ApplicationDbRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
  version: number;
}

const applicationListSpec: ListSpec<ApplicationRow> = {
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

export const applicationAssetListSpec: ListSpec<ApplicationAsset> = {
  from: 'application_assets aa JOIN assets a ON a.id = aa.asset_id',
  columns: `aa.id, aa.application_id, aa.asset_id, ${placeSql('application_assets', 'aa')} AS position,
    aa.synced_at, aa.created_at, aa.version,
    json_build_object('id', a.id, 'name', a.name, 'type', a.type, 'gender', a.gender,
                      'iconUrl', a.icon_url, 'locked', a.locked) AS asset`,
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

function getApplicationAsset(db: Db, id: string): Promise<ApplicationAsset> {
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

function getApplication(db: Db, id: string): Promise<ApplicationRow> {
  return findById(db, applicationListSpec, id, 'application');
}

/** Runs a write that may hit the case-insensitive unique name index (migration 020): 409. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDbError(error, PG_UNIQUE_VIOLATION)) {
      fail(409, 'CONFLICT', `An application named "${name}" already exists`);
    }
    throw error;
  }
}

/**
 * Routes mounted at /v1/applications and /private/v1/applications. Creating and renaming an
 * application needs `manage Application` (admins): a developer's `update Application` orders
 * and places assets in applications, it does not define them.
 */
export function applicationRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps), requireAbility('read', 'Application'));

  app.get('/', listHandler(db, applicationListSpec));

  app.get('/:id', async (c) => {
    const data = await getApplication(db, c.req.param('id'));
    setVersionTag(c, data);
    return c.json({ data });
  });

  app.post('/', requireAbility('manage', 'Application'), async (c) => {
    const { name } = await readBody(c, applicationBodySchema);
    const id = newId();
    const at = deps.now();
    const data = await uniqueName(name, () =>
      db.transaction(async (tx) => {
        await tx.query(
          'INSERT INTO applications (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)',
          [id, name, at],
        );
        const actorId = c.get('auth').userId;
        const event = { applicationId: id, actorId, data: { name }, at };
        await recordApplicationEvent(tx, { ...event, event: 'created' });
        const application = await getApplication(tx, id);
        setVersionTag(c, application);
        await keepAnswer(tx, c, c.json({ data: application }));
        return application;
      }),
    );
    return c.json({ data });
  });

  // A rename; with If-Match, a name someone else changed since that version is a 409 (412 for
  // a version that never existed). The same name again changes and records nothing.
  app.patch('/:id', requireAbility('manage', 'Application'), async (c) => {
    const base = readIfMatch(c);
    const { name } = await readBody(c, applicationBodySchema);
    const id = c.req.param('id');
    const data = await uniqueName(name, () =>
      db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM applications WHERE id = $1 FOR UPDATE', [id]);
        const before = await getApplication(tx, id);
        const changes = changeOf('name', before.name, name);
        await checkBase(tx, 'application', before, base, changes);
        if (before.name === name) return before;
        const at = deps.now();
        await tx.query('UPDATE applications SET name = $2, updated_at = $3 WHERE id = $1', [
          id,
          name,
          at,
        ]);
        const actorId = c.get('auth').userId;
        const event = { applicationId: id, actorId, data: { changes }, at };
        await recordApplicationEvent(tx, { ...event, event: 'updated' });
        return getApplication(tx, id);
      }),
    );
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

/** Routes mounted at /v1/application-assets and /private/v1/application-assets. */
export function applicationAssetRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const auth = requireAuth(deps);

  app.get('/', auth, requireAbility('read', 'Application'), async (c) => {
    const query = parseListQuery(applicationAssetListSpec, c.req.queries());
    return c.json(await runList(db, applicationAssetListSpec, query));
  });

  // Moves within the row's own application; `filter` narrows the list the position counts in.
  // With If-Match, a position someone else changed since that version is a 409 (with a filter
  // the requested position counts in another list, so any such change is).
  app.patch('/:id/position', auth, requireAbility('update', 'Application'), async (c) => {
    const base = readIfMatch(c);
    const body = await readBody(c, positionBodySchema);
    const filters = filterFromJson(applicationAssetListSpec, body.filter);
    const id = c.req.param('id');
    const { applicationId } = await getApplicationAsset(db, id);
    const found = await db.transaction(async (tx) => {
      await lockPositions(tx, applicationLockKey(applicationId));
      await tx.query('SELECT 1 FROM application_assets WHERE id = $1 FOR UPDATE', [id]);
      // Deleted between the lookup and the lock: 404.
      const before = await getApplicationAsset(tx, id);
      const moves = body.filter !== undefined || before.position !== body.position;
      const changes = changeOf('position', before.position, body.position, moves);
      await checkBase(tx, 'application-asset', before, base, changes);
      return moveApplicationAsset(tx, applicationId, { id, position: body.position, filters });
    });
    if (!found) fail(404, 'NOT_FOUND', `No application asset with id ${id}`);
    const data = await getApplicationAsset(db, id);
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Marks the application's copy as synced with its parent asset now. The copy holds no fields
  // of its own in this API, so syncing records the time (syncedAt) and the event only.
  // With If-Match, a sync someone else made since that version is a 409.
  app.post('/:id/sync-with-parent', auth, requireAbility('update', 'Application'), async (c) => {
    const base = readIfMatch(c);
    const id = c.req.param('id');
    const { userId } = c.get('auth');
    await db.transaction(async (tx) => {
      const now = deps.now();
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
        actorId: userId,
        data: { applicationId: rows[0].application_id, applicationAssetId: id, synced: true },
        at: now,
      });
    });
    const data = await getApplicationAsset(db, id);
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

interface PlacementDbRow {
  placement_id: string;
  application_id: string;
  placed_at: Date;
}

/**
 * Routes mounted at /v1/application-morphed-assets and /private/v1/application-morphed-assets:
 * POST places morphed assets in an application (all or none) and records addedToApplication on
 * each one's source asset.
 */
export function applicationMorphedAssetRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();

  app.post('/', requireAuth(deps), requireAbility('update', 'Application'), async (c) => {
    const body = await readBody(c, applicationMorphedAssetBodySchema);
    const { applicationId } = body;
    const morphedIds = [
      ...new Set('morphedAssetId' in body ? [body.morphedAssetId] : body.morphedAssetIds),
    ];
    const { userId } = c.get('auth');
    const placed = await db.transaction(async (tx) => {
      // FOR KEY SHARE: a delete of the application or of a morphed asset (to the Trash) waits
      // for this placement and takes it along, instead of failing its insert.
      const application = await tx.query(
        'SELECT id FROM applications WHERE id = $1 FOR KEY SHARE',
        [applicationId],
      );
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
      const now = deps.now();
      const ids = morphedIds.map(() => newId());
      try {
        await tx.query(
          `INSERT INTO application_morphed_assets (id, application_id, morphed_asset_id, created_at)
           SELECT v.id, $2, v.morphed_asset_id, $3
           FROM unnest($1::text[], $4::text[]) AS v(id, morphed_asset_id)`,
          [ids, applicationId, now, morphedIds],
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
          actorId: userId,
          data: { applicationId, morphedAssetId, applicationMorphedAssetId: ids[i] },
          at: now,
        })),
      );
      return ids;
    });
    return c.json({ data: await applicationMorphedAssets(db, placed) });
  });

  return app;
}

/** Placed morphed assets by placement id, in the order of `ids`. */
async function applicationMorphedAssets(
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
    const morphedAsset = morphedListSpec.toRow(row as never);
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

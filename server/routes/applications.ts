/**
 * Applications and the ordered assets placed in them: /v1/applications and
 * /v1/application-assets (also under /private/v1).
 */
import { Hono } from 'hono';
import {
  positionBodySchema,
  type ApplicationAsset,
  type ApplicationRow,
  type AssetSummary,
} from '../../src/api/schemas';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import { readBody } from '../http/validate';
import {
  anyOfFilter,
  filterFromJson,
  isoOrNull,
  isoString,
  parseListQuery,
  runList,
  searchFilter,
  type ListSpec,
} from '../list';
import { applicationLockKey, moveToPosition } from '../positions';

interface ApplicationDbRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

const applicationListSpec: ListSpec<ApplicationRow> = {
  from: 'applications ap',
  columns: 'ap.id, ap.name, ap.created_at, ap.updated_at',
  orders: { name: 'ap.name', createdAt: 'ap.created_at' },
  defaultOrder: 'name',
  idColumn: 'ap.id',
  filters: { search: searchFilter('ap.name') },
  toRow: (row: ApplicationDbRow) => ({
    id: row.id,
    name: row.name,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  }),
};

interface ApplicationAssetDbRow {
  id: string;
  application_id: string;
  asset_id: string;
  position: number;
  synced_at: Date | null;
  created_at: Date;
  asset: AssetSummary;
}

const applicationAssetListSpec: ListSpec<ApplicationAsset> = {
  from: 'application_assets aa JOIN assets a ON a.id = aa.asset_id',
  columns: `aa.id, aa.application_id, aa.asset_id, aa.position, aa.synced_at, aa.created_at,
    json_build_object('id', a.id, 'name', a.name, 'type', a.type, 'gender', a.gender,
                      'iconUrl', a.icon_url, 'locked', a.locked) AS asset`,
  orders: { position: 'aa.position', name: 'a.name', createdAt: 'aa.created_at' },
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
  }),
};

async function getApplicationAsset(db: Db, id: string): Promise<ApplicationAsset> {
  const { rows } = await db.query<ApplicationAssetDbRow>(
    `SELECT ${applicationAssetListSpec.columns} FROM ${applicationAssetListSpec.from} WHERE aa.id = $1`,
    [id],
  );
  if (!rows[0]) fail(404, 'NOT_FOUND', `No application asset with id ${id}`);
  return applicationAssetListSpec.toRow(rows[0] as never);
}

/** Routes mounted at /v1/applications and /private/v1/applications. */
export function applicationRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps), requireAbility('read', 'Application'));

  app.get('/', async (c) => {
    const query = parseListQuery(applicationListSpec, c.req.queries());
    return c.json(await runList(db, applicationListSpec, query));
  });

  app.get('/:id', async (c) => {
    const id = c.req.param('id');
    const { rows } = await db.query<ApplicationDbRow>(
      `SELECT ${applicationListSpec.columns} FROM ${applicationListSpec.from} WHERE ap.id = $1`,
      [id],
    );
    if (!rows[0]) fail(404, 'NOT_FOUND', `No application with id ${id}`);
    return c.json({ data: applicationListSpec.toRow(rows[0] as never) });
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
  app.patch('/:id/position', auth, requireAbility('update', 'Application'), async (c) => {
    const body = await readBody(c, positionBodySchema);
    const filters = filterFromJson(applicationAssetListSpec, body.filter);
    const { applicationId } = await getApplicationAsset(db, c.req.param('id'));
    const found = await db.transaction((tx) =>
      moveToPosition(
        tx,
        applicationAssetListSpec,
        {
          table: 'application_assets',
          alias: 'aa',
          lockKey: applicationLockKey(applicationId),
        },
        {
          id: c.req.param('id'),
          position: body.position,
          filters,
          scope: (params) => [`aa.application_id = ${params.add(applicationId)}`],
        },
      ),
    );
    // Deleted between the lookup and the lock.
    if (!found) fail(404, 'NOT_FOUND', `No application asset with id ${c.req.param('id')}`);
    return c.json({ data: await getApplicationAsset(db, c.req.param('id')) });
  });

  return app;
}

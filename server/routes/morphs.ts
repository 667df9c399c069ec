/**
 * Morphed assets and their generation queue: /v1/morphed-asset-queue (also private) and
 * /private/v1/morphed-assets. Statuses are `morphStatusSchema` (README "Morph queue").
 */
import { Hono, type Context } from 'hono';
import {
  morphStatusSchema,
  type MorphQueueEntry,
  type MorphStatus,
  type MorphStatusList,
  type MorphedAsset,
} from '../../src/api/schemas';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import {
  anyOfFilter,
  isoString,
  parseListQuery,
  runList,
  searchFilter,
  type ListSpec,
} from '../list';

interface QueueDbRow {
  id: string;
  source_asset_id: string;
  source_asset_name: string;
  body_asset_id: string;
  status: MorphStatus;
  progress: number;
  error: string | null;
  morphed_asset_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const queueListSpec: ListSpec<MorphQueueEntry> = {
  from: 'morph_queue q JOIN assets a ON a.id = q.source_asset_id',
  columns: `q.id, q.source_asset_id, a.name AS source_asset_name, q.body_asset_id, q.status,
    q.progress, q.error, q.morphed_asset_id, q.created_at, q.updated_at`,
  orders: { createdAt: 'q.created_at', updatedAt: 'q.updated_at', status: 'q.status' },
  defaultOrder: '-createdAt',
  idColumn: 'q.id',
  filters: {
    status: anyOfFilter('q.status', morphStatusSchema.options),
    search: searchFilter('a.name'),
  },
  toRow: (row: QueueDbRow) => ({
    id: row.id,
    sourceAssetId: row.source_asset_id,
    sourceAssetName: row.source_asset_name,
    bodyAssetId: row.body_asset_id,
    status: row.status,
    progress: row.progress,
    error: row.error,
    morphedAssetId: row.morphed_asset_id,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  }),
};

interface MorphedDbRow {
  id: string;
  source_asset_id: string;
  body_asset_id: string;
  name: string;
  model_url: string | null;
  created_at: Date;
}

const morphedListSpec: ListSpec<MorphedAsset> = {
  from: 'morphed_assets m',
  columns: 'm.id, m.source_asset_id, m.body_asset_id, m.name, m.model_url, m.created_at',
  orders: { createdAt: 'm.created_at', name: 'm.name' },
  defaultOrder: '-createdAt',
  idColumn: 'm.id',
  filters: { search: searchFilter('m.name'), sourceAssetId: anyOfFilter('m.source_asset_id') },
  toRow: (row: MorphedDbRow) => ({
    id: row.id,
    sourceAssetId: row.source_asset_id,
    bodyAssetId: row.body_asset_id,
    name: row.name,
    modelUrl: row.model_url,
    createdAt: isoString(row.created_at),
  }),
};

const MAX_STATUS_IDS = 100;

/** `?ids=a&ids=b` or `?ids=a,b`: 1 to 100 queue entry ids, nothing else. */
function readIds(c: Context): string[] {
  const { ids = [], ...rest } = c.req.queries();
  const unknown = Object.keys(rest);
  if (unknown.length > 0) fail(400, 'VALIDATION_ERROR', `${unknown[0]}: Unknown parameter`);
  const list = [...new Set(ids.flatMap((value) => value.split(',')).filter(Boolean))];
  if (list.length === 0) fail(400, 'VALIDATION_ERROR', 'ids: Required');
  if (list.length > MAX_STATUS_IDS) fail(400, 'VALIDATION_ERROR', 'ids: At most 100 ids');
  return list;
}

/** Routes mounted at /v1/morphed-asset-queue and /private/v1/morphed-asset-queue. */
export function morphQueueRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps), requireAbility('read', 'MorphedAsset'));

  app.get('/', async (c) => {
    return c.json(await runList(db, queueListSpec, parseListQuery(queueListSpec, c.req.queries())));
  });
  app.get('/status', morphStatusHandler(deps));

  return app;
}

/** The statuses of the given queue entries (unknown ids are left out). */
function morphStatusHandler(deps: Deps) {
  return async (c: Context<AuthEnv>) => {
    const { rows } = await deps.db.query<QueueDbRow>(
      `SELECT id, status, progress, error, morphed_asset_id FROM morph_queue
       WHERE id = ANY($1::text[]) ORDER BY created_at, id`,
      [readIds(c)],
    );
    const data: MorphStatusList = rows.map((row) => ({
      id: row.id,
      status: row.status,
      progress: row.progress,
      error: row.error,
      morphedAssetId: row.morphed_asset_id,
    }));
    return c.json({ data });
  };
}

/** Routes mounted at /private/v1/morphed-assets. */
export function morphedAssetRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps), requireAbility('read', 'MorphedAsset'));

  app.get('/', async (c) => {
    const query = parseListQuery(morphedListSpec, c.req.queries());
    return c.json(await runList(db, morphedListSpec, query));
  });
  // The generation status of queue entries, as on /v1/morphed-asset-queue/status.
  app.get('/status', morphStatusHandler(deps));

  return app;
}

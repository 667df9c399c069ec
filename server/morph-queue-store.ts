/**
 * The morph queue and morphed assets in the database (server/routes/morphs.ts answers them;
 * server/morph-worker.ts does the work): the lists, entries' statuses, and queuing new entries
 * within a user's limit.
 */
import {
  morphStatusSchema,
  type MorphQueueEntry,
  type MorphStatus,
  type MorphStatusList,
  type MorphedAsset,
} from '../contract/schemas';
import type { Db } from './db';
import { recordAssetEvents } from './events';
import { fail } from './http/errors';
import { newId } from './ids';
import { anyOfFilter, searchFilter, type ListSpec } from './list';
import { isoString } from './timestamps';

interface QueueDbRow {
  id: string;
  source_asset_id: string;
  source_asset_name: string;
  body_asset_id: string;
  body_asset_name: string;
  status: MorphStatus;
  progress: number;
  error: string | null;
  morphed_asset_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const sourceName = searchFilter('s.name');

export const queueListSpec: ListSpec<MorphQueueEntry, QueueDbRow> = {
  from: `morph_queue q JOIN assets a ON a.id = q.source_asset_id
    LEFT JOIN assets b ON b.id = q.body_asset_id`,
  // The count and the page's ids read the queue alone (through its indexes): the joins only
  // name the page's assets.
  keys: { from: 'morph_queue q', idColumn: 'q.id' },
  // A body asset deleted since keeps its id as its name.
  columns: `q.id, q.source_asset_id, a.name AS source_asset_name, q.body_asset_id,
    COALESCE(b.name, q.body_asset_id) AS body_asset_name, q.status,
    q.progress, q.error, q.morphed_asset_id, q.created_at, q.updated_at`,
  orders: { createdAt: 'q.created_at', updatedAt: 'q.updated_at', status: 'q.status' },
  defaultOrder: '-createdAt',
  idColumn: 'q.id',
  filters: {
    status: anyOfFilter('q.status', morphStatusSchema.options),
    search: {
      ...sourceName,
      where: (p) =>
        `EXISTS (SELECT 1 FROM assets s WHERE s.id = q.source_asset_id AND ${sourceName.where(p)})`,
    },
  },
  toRow: (row: QueueDbRow) => ({
    id: row.id,
    sourceAssetId: row.source_asset_id,
    sourceAssetName: row.source_asset_name,
    bodyAssetId: row.body_asset_id,
    bodyAssetName: row.body_asset_name,
    status: row.status,
    progress: row.progress,
    error: row.error,
    morphedAssetId: row.morphed_asset_id,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  }),
};

export interface MorphedDbRow {
  id: string;
  source_asset_id: string;
  body_asset_id: string;
  name: string;
  model_url: string | null;
  created_at: Date;
}

export const morphedListSpec: ListSpec<MorphedAsset, MorphedDbRow> = {
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

/** The statuses of the given queue entries (unknown ids are left out). */
export async function morphStatuses(db: Db, ids: readonly string[]): Promise<MorphStatusList> {
  const { rows } = await db.query<QueueDbRow>(
    `SELECT id, status, progress, error, morphed_asset_id FROM morph_queue
     WHERE id = ANY($1::text[]) ORDER BY created_at, id`,
    [ids],
  );
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    progress: row.progress,
    error: row.error,
    morphedAssetId: row.morphed_asset_id,
  }));
}

/** Queue entries by id, in the order of `ids`. */
async function queueEntries(db: Db, ids: readonly string[]): Promise<MorphQueueEntry[]> {
  const { rows } = await db.query<QueueDbRow>(
    `SELECT ${queueListSpec.columns} FROM ${queueListSpec.from} WHERE q.id = ANY($1::text[])`,
    [ids],
  );
  const byId = new Map(rows.map((row) => [row.id, queueListSpec.toRow(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

interface GenerateAssetRow {
  id: string;
  name: string;
  type: string;
  model_url: string | null;
}

/** Morph jobs one user may have queued or processing at once: one full generate call (20 bodies). */
export const MAX_ACTIVE_MORPH_JOBS = 20;

/**
 * Refuses (429 MORPH_QUEUE_FULL) `count` more jobs for `userId` when they would take the user's
 * queued and processing jobs past MAX_ACTIVE_MORPH_JOBS. Holds a per-user lock until the
 * transaction that inserts them ends, so a parallel burst is counted one request at a time.
 */
async function reserveMorphJobs(tx: Db, userId: string, count: number) {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`morph-jobs:${userId}`]);
  const { rows } = await tx.query<{ active: number }>(
    `SELECT count(*)::int AS active FROM morph_queue
     WHERE requested_by = $1 AND status IN ('queued', 'processing')`,
    [userId],
  );
  const active = rows[0]?.active ?? 0;
  if (active + count > MAX_ACTIVE_MORPH_JOBS) {
    fail(
      429,
      'MORPH_QUEUE_FULL',
      `You have ${active} morph jobs queued or processing; at most ${MAX_ACTIVE_MORPH_JOBS} ` +
        `are allowed at once, so ${count} more cannot be queued until some finish`,
    );
  }
}

/**
 * Queues one entry per body asset (the source fitted onto that body) for `userId` and records
 * morphQueueEntryCreated on the source asset; answers the entries. The assets must exist (400),
 * the bodies be body assets (400), and each have a model (409); the user's limit is a 429.
 */
export async function queueMorphs(
  tx: Db,
  { sourceAssetId, bodyAssetIds }: { sourceAssetId: string; bodyAssetIds: string[] },
  userId: string,
  now: () => Date,
): Promise<MorphQueueEntry[]> {
  const { rows } = await tx.query<GenerateAssetRow>(
    'SELECT id, name, type, model_url FROM assets WHERE id = ANY($1::text[])',
    [[sourceAssetId, ...bodyAssetIds]],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const source = byId.get(sourceAssetId);
  if (!source) fail(400, 'VALIDATION_ERROR', `sourceAssetId: No asset with id ${sourceAssetId}`);
  const unknown = bodyAssetIds.filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    fail(400, 'VALIDATION_ERROR', `bodyAssetIds: No assets with ids ${unknown.join(', ')}`);
  }
  const bodies = bodyAssetIds.map((id) => byId.get(id)!);
  const notBodies = bodies.filter((asset) => asset.type !== 'body');
  if (notBodies.length > 0) {
    const names = notBodies.map((asset) => `${asset.id} (${asset.type})`).join(', ');
    fail(400, 'VALIDATION_ERROR', `bodyAssetIds: Not body assets: ${names}`);
  }
  for (const asset of [source, ...bodies]) {
    if (!asset.model_url) {
      fail(409, 'MODEL_MISSING', `The asset "${asset.name}" has no model; upload one first`);
    }
  }
  await reserveMorphJobs(tx, userId, bodyAssetIds.length);
  const at = now();
  const entryIds = bodyAssetIds.map(() => newId());
  await tx.query(
    `INSERT INTO morph_queue (id, source_asset_id, body_asset_id, status, progress,
       created_at, updated_at, requested_by)
     SELECT v.id, $2, v.body_asset_id, 'queued', 0, $3, $3, $5
     FROM unnest($1::text[], $4::text[]) AS v(id, body_asset_id)`,
    [entryIds, sourceAssetId, at, bodyAssetIds, userId],
  );
  await recordAssetEvents(
    tx,
    entryIds.map((queueEntryId, i) => ({
      assetId: sourceAssetId,
      event: 'morphQueueEntryCreated' as const,
      actorId: userId,
      data: { queueEntryId, bodyAssetId: bodyAssetIds[i] },
      at,
    })),
  );
  return queueEntries(tx, entryIds);
}

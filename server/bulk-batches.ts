/**
 * What one batch of a bulk job does to its rows, per action (server/bulk-job-worker.ts runs the
 * batches): each locks and changes its rows and records their events as the per-id route does.
 */
import type { Asset, TrashKind } from '../contract/schemas';
import { isDbError, PG_UNIQUE_VIOLATION, type Db } from './db';
import { recordAssetEvents, type AssetEventInput } from './events';
import { filterConditions, SqlParams } from './list';
import { lockPositions } from './positions';
import { ASSETS, findAssets, changeTagOnAssets, shareTags } from './asset-store';
import { findHeldAssets, removeAssets, writeLock } from './asset-writes';
import { listOf, type BulkJobRow } from './bulk-job-rows';
import { restoreFromTrash } from './trash-restore';

/** What one batch did to its rows. */
export interface BatchResult {
  changed: number;
  skipped: number;
}

/** An error the job ends with (its message is for the user). */
export class JobFailed extends Error {}

/** The next rows of the job's list after its cursor, in id order (kind too, for the Trash). */
export async function nextRows(
  tx: Db,
  job: BulkJobRow,
  retentionDays: number,
  batchSize: number,
): Promise<{ id: string; kind?: TrashKind }[]> {
  const { spec, filters } = listOf(job, retentionDays);
  const params = new SqlParams();
  const conditions = filterConditions(spec, filters, params);
  if (job.cursor_id !== null) conditions.push(`${spec.idColumn} > ${params.add(job.cursor_id)}`);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const kind = job.list === 'trash' ? ', t.kind AS kind' : '';
  const { rows } = await tx.query<{ id: string; kind?: TrashKind }>(
    `SELECT ${spec.idColumn} AS id${kind} FROM ${spec.from} ${where}
     ORDER BY ${spec.idColumn} LIMIT ${params.add(batchSize)}`,
    params.values,
  );
  return rows;
}

/** Adds the job's mark to events, so the stream leaves them to the job's progress event. */
const marked = (events: readonly AssetEventInput[], bulkJobId: string): AssetEventInput[] =>
  events.map((event) => ({ ...event, data: { ...event.data, bulkJobId } }));

async function lockBatch(
  tx: Db,
  job: BulkJobRow,
  ids: string[],
  locked: boolean,
  at: Date,
): Promise<BatchResult> {
  const rows = await findHeldAssets(tx, ids);
  const changed = rows.filter((row) => row.locked !== locked).map((row) => row.id);
  await writeLock(tx, changed, locked, job.user_id, at, { bulkJobId: job.id });
  return { changed: changed.length, skipped: 0 };
}

async function tagBatch(tx: Db, job: BulkJobRow, ids: string[], at: Date): Promise<BatchResult> {
  const tagId = job.tag_id!;
  const adds = job.action === 'setTag';
  // The tag before the assets, as the per-id routes take them (asset-store.ts `shareTags`).
  if ((await shareTags(tx, [tagId])).length > 0) {
    throw new JobFailed('The tag was deleted while the job ran');
  }
  const rows = await findHeldAssets(tx, ids);
  const free = rows.filter((row) => !row.locked).map((row) => row.id);
  const skipped = rows.length - free.length;
  if (free.length === 0) return { changed: 0, skipped };
  const { changed, events } = await changeTagOnAssets(tx, free, { tagId, adds }, job.user_id, at);
  await recordAssetEvents(tx, marked(events, job.id));
  return { changed: changed.length, skipped };
}

async function deleteBatch(tx: Db, job: BulkJobRow, ids: string[], at: Date): Promise<BatchResult> {
  // The locks of DELETE /v1/assets/{id}, in its order: the global order, the rows, then the
  // orders of their applications (sorted).
  await lockPositions(tx, ASSETS.lockKey);
  const rows = await findHeldAssets(tx, ids);
  const free = rows.filter((row) => !row.locked).map((row) => row.id);
  const skipped = rows.length - free.length;
  if (free.length === 0) return { changed: 0, skipped };
  const assets: Asset[] = await findAssets(tx, free);
  await removeAssets(tx, free, job.user_id, at);
  await recordAssetEvents(
    tx,
    assets.map((asset) => ({
      assetId: asset.id,
      event: 'deleted' as const,
      actorId: job.user_id,
      data: { asset, bulkJobId: job.id },
      at,
    })),
  );
  return { changed: free.length, skipped };
}

/**
 * Restores each record on its own savepoint: one that cannot come back (its name or pair was
 * taken meanwhile, or it left the Trash) is skipped, not a failure of the batch.
 */
async function restoreBatch(
  tx: Db,
  job: BulkJobRow,
  refs: { id: string; kind?: TrashKind }[],
  at: Date,
): Promise<BatchResult> {
  let changed = 0;
  for (const { id, kind } of refs) {
    await tx.query('SAVEPOINT bulk_restore');
    try {
      await restoreFromTrash(tx, [{ kind: kind!, id }], job.user_id, at, { bulkJobId: job.id });
      await tx.query('RELEASE SAVEPOINT bulk_restore');
      changed += 1;
    } catch (error) {
      const refused =
        isDbError(error, PG_UNIQUE_VIOLATION) ||
        (error instanceof Error && error.name === 'ApiError');
      if (!refused) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT bulk_restore');
    }
  }
  return { changed, skipped: refs.length - changed };
}

export function applyBatch(
  tx: Db,
  job: BulkJobRow,
  rows: { id: string; kind?: TrashKind }[],
  at: Date,
): Promise<BatchResult> {
  const ids = rows.map((row) => row.id);
  switch (job.action) {
    case 'lock':
    case 'unlock':
      return lockBatch(tx, job, ids, job.action === 'lock', at);
    case 'setTag':
    case 'removeTag':
      return tagBatch(tx, job, ids, at);
    case 'delete':
      return deleteBatch(tx, job, ids, at);
    case 'restore':
      return restoreBatch(tx, job, rows, at);
  }
}

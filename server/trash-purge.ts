/** Deleting records from the Trash for ever: on request, and after the retention period. */
import type { TrashKind, TrashRef } from '../contract/schemas';
import type { Db } from './db';
import { recordAssetEvents } from './events';
import { lockTrash, recordRecordEvent, takeFromTrash } from './trash';

/**
 * Records the purge of rows taken from the Trash: `asset.purged.v1` for each asset,
 * `<kind>.purged.v1` for the other kinds.
 */
async function purgeRows(
  tx: Db,
  rows: { kind: TrashKind; id: string; name: string }[],
  actorId: string | null,
  at: Date,
) {
  for (const row of rows) await recordRecordEvent(tx, row, 'purged', row.name, actorId, at);
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

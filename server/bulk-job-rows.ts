/** A bulk job's row (server/bulk-jobs.ts), its answer, its progress event and the list it walks. */
import type { BulkJob, BulkJobAction } from '../contract/bulk-jobs';
import type { Db } from './db';
import { recordBulkJobEvent } from './events';
import { filterFromJson, type FilterValues, type ListSpec } from './list';
import { isoString } from './timestamps';
import { assetListSpec } from './asset-store';
import { trashListSpec } from './trash-list';

export interface BulkJobRow {
  id: string;
  user_id: string;
  action: BulkJobAction;
  list: 'assets' | 'trash';
  filter: Record<string, unknown>;
  tag_id: string | null;
  state: BulkJob['state'];
  total: number;
  total_is_estimate: boolean;
  done: number;
  changed: number;
  skipped: number;
  cursor_id: string | null;
  attempts: number;
  error: string | null;
  cancelled_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export function toBulkJob(row: BulkJobRow): BulkJob {
  return {
    id: row.id,
    userId: row.user_id,
    action: row.action,
    list: row.list,
    filter: row.filter,
    tagId: row.tag_id,
    state: row.state,
    total: row.total,
    totalIsEstimate: row.total_is_estimate,
    done: row.done,
    changed: row.changed,
    skipped: row.skipped,
    error: row.error,
    cancelledBy: row.cancelled_by,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/** Records the job's progress as it is after `row` (in the transaction that wrote it). */
export function recordProgress(tx: Db, row: BulkJobRow, at: Date) {
  return recordBulkJobEvent(tx, {
    bulkJobId: row.id,
    actorId: row.user_id,
    data: {
      action: row.action,
      state: row.state,
      done: row.done,
      total: row.total,
      totalIsEstimate: row.total_is_estimate,
      changed: row.changed,
      skipped: row.skipped,
    },
    at,
  });
}

/** The list a job walks: the spec and its filter values (validated as the list validates them). */
export function listOf(
  row: Pick<BulkJobRow, 'list' | 'filter'>,
  retentionDays: number,
): { spec: ListSpec<unknown>; filters: FilterValues } {
  const spec = (
    row.list === 'trash' ? trashListSpec(retentionDays) : assetListSpec
  ) as ListSpec<unknown>;
  return { spec, filters: filterFromJson(spec, row.filter) };
}

/**
 * Bulk jobs (docs/api.md "Bulk jobs"): a change of every asset a list filter matches, run
 * by the server in batches. Its progress arrives on the live stream (`bulk-job.progressed.v1`,
 * one per batch) and is written into the job's query here, so a screen shows it without
 * polling. Every failure carries `service: 'bulk-jobs'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { cleanFilter, type ListFilter } from '../../contract/list-query';
import { queryClient } from './query';
import { onLiveEvent } from './live-cache';
import {
  BULK_JOB_ENDED,
  bulkJobSchema,
  type BulkJob,
  type BulkJobCreateBody,
} from '../../contract/bulk-jobs';
import type { StreamEvent } from '../../contract/schemas';

const bulkJobsService = tagService('bulk-jobs');

const jobKey = (id: string) => ['bulk-jobs', id] as const;

/** One job of the caller (GET v1/bulk-jobs/{id}). */
export const bulkJobQuery = (id: string) =>
  queryOptions({
    queryKey: jobKey(id),
    queryFn: ({ signal }) =>
      bulkJobsService(() =>
        apiRequest(endpoint(ENDPOINTS.bulkJob, { id }), bulkJobSchema, { signal }),
      ),
  });

/** Starts a job over every row `filter` matches (the list's filter, as its screen holds it). */
export function startBulkJob(
  body: Omit<BulkJobCreateBody, 'filter'> & { filter: ListFilter },
): Promise<BulkJob> {
  return bulkJobsService(async () => {
    const job = await apiRequest(endpoint(ENDPOINTS.bulkJobs), bulkJobSchema, {
      method: 'post',
      json: { ...body, filter: cleanFilter(body.filter) },
    });
    queryClient.setQueryData(jobKey(job.id), job);
    return job;
  });
}

/** Cancels a job: it stops after the batch in hand; answers it as it then is. */
export function cancelBulkJob(id: string): Promise<BulkJob> {
  return bulkJobsService(async () => {
    const job = await apiRequest(endpoint(ENDPOINTS.bulkJobCancel, { id }), bulkJobSchema, {
      method: 'post',
    });
    queryClient.setQueryData(jobKey(id), job);
    return job;
  });
}

const PROGRESS_KEY = 'bulk-job.progressed.v1';
const progressFields = ['state', 'done', 'total', 'totalIsEstimate', 'changed', 'skipped'] as const;

/** The job as a progress event of it says it now is (undefined: not this job's, or unreadable). */
function withProgress(job: BulkJob, event: StreamEvent): BulkJob | undefined {
  if (event.routingKey !== PROGRESS_KEY || event.bulkJobId !== job.id) return undefined;
  const parsed = z.safeParse(bulkJobSchema, {
    ...job,
    ...Object.fromEntries(progressFields.map((field) => [field, event.data[field]])),
    updatedAt: event.createdAt,
  });
  return parsed.success ? parsed.data : undefined;
}

/**
 * The job as it ended: read again, since a progress event carries its counts but not who
 * cancelled it or why it failed; as the event says when that read fails.
 */
async function readEnded(id: string, said: BulkJob): Promise<void> {
  try {
    await queryClient.fetchQuery({ ...bulkJobQuery(id), staleTime: 0, retry: false });
  } catch {
    queryClient.setQueryData(jobKey(id), said);
  }
}

/**
 * Keeps the cached job `id` up to date from the live stream; answers the unsubscribe. A
 * progress event older than what the cache holds (a resume's replay) changes nothing.
 */
export function followBulkJob(id: string): () => void {
  return onLiveEvent((event) => {
    const job = queryClient.getQueryData<BulkJob>(jobKey(id));
    const next = job && withProgress(job, event);
    if (!next || next.done < job.done) return;
    if (BULK_JOB_ENDED.includes(next.state)) void readEnded(id, next);
    else queryClient.setQueryData(jobKey(id), next);
  });
}

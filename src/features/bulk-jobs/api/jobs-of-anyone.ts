/**
 * Every user's bulk jobs, for admins (docs/api.md "Bulk jobs"): the queued and running ones and
 * the latest that ended, and cancelling any of them. Every call fails with
 * `service: 'privateBulkJobs'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { tagService } from '../../../api/errors';
import { apiRequest } from '../../../api/http';
import { queryClient } from '../../../api/query';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import {
  BULK_JOB_ENDED,
  bulkJobOfAnyoneSchema,
  type BulkJobOfAnyone,
} from '../../../../contract/bulk-jobs';

const service = tagService('privateBulkJobs');
const jobsKey = ['bulk-jobs-of-anyone'] as const;

/** How often the list is read again while a job in it may still move. */
const ACTIVE_REFRESH_MS = 2000;

const anyActive = (jobs: readonly BulkJobOfAnyone[] | undefined) =>
  jobs?.some((job) => !BULK_JOB_ENDED.includes(job.state)) ?? false;

/**
 * GET /private/v1/bulk-jobs, read again every 2 s while a job in it is queued or running: the
 * server records each batch's progress, and an admin watching a job should see it move.
 */
export const bulkJobsOfAnyoneQuery = () =>
  queryOptions({
    queryKey: jobsKey,
    queryFn: ({ signal }) =>
      service(() =>
        apiRequest(endpoint(ENDPOINTS.bulkJobsOfAnyone), z.array(bulkJobOfAnyoneSchema), {
          signal,
        }),
      ),
    refetchInterval: (query) => (anyActive(query.state.data) ? ACTIVE_REFRESH_MS : false),
  });

/**
 * Cancels anyone's job (it stops after the batch in hand); the list shows it as the server then
 * answers it, cancelled by the caller, and is read again.
 */
export async function cancelBulkJobOfAnyone(id: string): Promise<BulkJobOfAnyone> {
  const job = await service(() =>
    apiRequest(endpoint(ENDPOINTS.bulkJobOfAnyoneCancel, { id }), bulkJobOfAnyoneSchema, {
      method: 'post',
    }),
  );
  queryClient.setQueryData(jobsKey, (jobs: BulkJobOfAnyone[] | undefined) =>
    jobs?.map((shown) => (shown.id === id ? job : shown)),
  );
  await queryClient.invalidateQueries({ queryKey: jobsKey });
  return job;
}

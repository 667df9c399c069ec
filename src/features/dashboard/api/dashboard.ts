/**
 * The dashboard's reads (docs/api.md "Dashboard"): its series and what needs attention, and the
 * latest few events of the activity log. Every call fails with `service: 'dashboard'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { tagService } from '../../../api/errors';
import { apiRequest } from '../../../api/http';
import { fetchList } from '../../../api/lists';
import { queryClient } from '../../../api/query';
import { dashboardSchema } from '../../../../contract/dashboard';
import { activityRowSchema } from '../../../../contract/schemas';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

const service = tagService('dashboard');
const dashboardKeys = {
  all: ['dashboard'] as const,
  activity: ['dashboard', 'activity'] as const,
};

/** How many of the latest events the dashboard shows; the activity log has the rest. */
const LATEST_ACTIVITY = 6;

/** GET /v1/dashboard: the parts the signed-in user's role reads. */
export const dashboardQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.all,
    queryFn: ({ signal }) =>
      service(() => apiRequest(endpoint(ENDPOINTS.dashboard), dashboardSchema, { signal })),
  });

/** The latest events (GET /v1/activity), for roles that read the activity log. */
export const latestActivityQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.activity,
    queryFn: ({ signal }) =>
      service(() =>
        fetchList(endpoint(ENDPOINTS.activity), { limit: LATEST_ACTIVITY }, activityRowSchema, {
          signal,
        }),
      ),
  });

/** Marks everything the dashboard shows stale; what is on screen is read again. */
export const refreshDashboard = (): void =>
  void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });

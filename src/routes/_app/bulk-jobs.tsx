import { createFileRoute } from '@tanstack/react-router';
import { queryClient } from '../../api/query';
import { BulkJobsScreen, bulkJobsOfAnyoneQuery } from '../../features/bulk-jobs';
import { loadPermissions, permissionsOfSession } from '../../machines/permissions.view';

export const Route = createFileRoute('/_app/bulk-jobs')({
  // Started, not awaited: the screen shows its loading state, and a failure with Retry. A role
  // that is not an admin's gets the "not available" page, not the server's 403.
  loader: async ({ context }) => {
    await loadPermissions();
    if (permissionsOfSession(context.session)('manage', 'all')) {
      void queryClient.prefetchQuery(bulkJobsOfAnyoneQuery());
    }
  },
  component: BulkJobsScreen,
});

import { createFileRoute } from '@tanstack/react-router';
import { invitationsQuery } from '../../api/invitations';
import { queryClient } from '../../api/query';
import { InvitationsScreen } from '../../features/users';
import { Allowed, loadPermissions, permissionsOfSession } from '../../machines/permissions.view';

export const Route = createFileRoute('/_app/users/invitations')({
  // Started for admins only (others see "not available"): the list shows its own loading state.
  loader: async ({ context }) => {
    await loadPermissions();
    if (permissionsOfSession(context.session)('manage', 'User')) {
      void queryClient.prefetchQuery(invitationsQuery());
    }
  },
  component: () => (
    <Allowed requires={['manage', 'User']}>
      <InvitationsScreen />
    </Allowed>
  ),
});

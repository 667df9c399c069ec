import { createFileRoute } from '@tanstack/react-router';
import { InvitationsScreen, invitationsList } from '../../features/users';

export const Route = createFileRoute('/_app/users/invitations')({
  validateSearch: invitationsList.validateSearch,
  component: () => <InvitationsScreen />,
});

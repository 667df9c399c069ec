import { createFileRoute } from '@tanstack/react-router';
import { mySessionsQuery } from '../../api/account';
import { queryClient } from '../../api/query';
import { AccountPage } from '../../features/account';

export const Route = createFileRoute('/_app/account')({
  // Started, not awaited: the sessions show their own loading state.
  loader: () => void queryClient.prefetchQuery(mySessionsQuery()),
  component: AccountPage,
});

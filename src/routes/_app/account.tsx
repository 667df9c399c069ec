import { createFileRoute } from '@tanstack/react-router';
import { myPasskeysQuery, myProofQuery, mySessionsQuery } from '../../api/account';
import { queryClient } from '../../api/query';
import { AccountPage } from '../../features/account';

export const Route = createFileRoute('/_app/account')({
  // The sessions and passkeys are started, not awaited: they show their own loading state. How changes are
  // confirmed is awaited, so the forms open with the right field (a password, or a mailed code).
  loader: async () => {
    void queryClient.prefetchQuery(mySessionsQuery());
    void queryClient.prefetchQuery(myPasskeysQuery());
    await queryClient.prefetchQuery(myProofQuery());
  },
  component: AccountPage,
});

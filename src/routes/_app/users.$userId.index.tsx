import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../api/query';
import { userQuery } from '../../api/user-assets';
import { UserPage } from '../../features/users';
import { loadPermissions, permissionsOfSession } from '../../machines/permissions.view';
import { RecordLoadFailed } from '../-chunks/record-error';

export const Route = createFileRoute('/_app/users/$userId/')({
  // A role that may not read users gets the "not available" page, not the server's 403.
  loader: async ({ params, context }) => {
    await loadPermissions();
    if (!permissionsOfSession(context.session)('read', 'User')) return;
    await queryClient.ensureQueryData(userQuery(params.userId));
  },
  component: UserRoute,
  errorComponent: UserLoadFailed,
});

function UserRoute() {
  const { userId } = Route.useParams();
  return <UserPage userId={userId} />;
}

/** The user could not be read: not found, or a failure that may pass (then Retry). */
function UserLoadFailed(props: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <RecordLoadFailed
      {...props}
      notFoundTitle={t('users.notFoundTitle')}
      notFound={t('users.notFound')}
      failedTitle={t('users.loadFailedTitle')}
      section={t('users.title')}
      back={<Link to="/users">{t('users.title')}</Link>}
    />
  );
}

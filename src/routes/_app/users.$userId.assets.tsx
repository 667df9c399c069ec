import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { queryClient } from '../../api/query';
import { userQuery } from '../../api/user-assets';
import { ASSET_TYPES } from '../../../contract/assets';
import { UserAssetsPage } from '../../features/users';
import { selectUser } from '../../machines/app-session';
import { loadPermissions, permissionsOfSession } from '../../machines/permissions.view';
import { RecordLoadFailed } from '../-chunks/record-error';

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    type: z.optional(z.array(z.enum(ASSET_TYPES))),
  }),
  sortFields: ['name', 'createdAt'],
  defaultOrder: { name: 'asc' },
});

export const Route = createFileRoute('/_app/users/$userId/assets')({
  validateSearch: list.validateSearch,
  // The user's e-mail heads the list; an unknown id is "not found", not an empty list. One's
  // own e-mail is in the session; others need a role that may read users.
  loader: async ({ params: { userId }, context }) => {
    if (selectUser(context.session.getSnapshot())._id === userId) return;
    await loadPermissions();
    if (!permissionsOfSession(context.session)('read', 'User')) return;
    await queryClient.ensureQueryData(userQuery(userId));
  },
  component: UserAssetsRoute,
  errorComponent: UserLoadFailed,
});

function UserAssetsRoute() {
  const { userId } = Route.useParams();
  return <UserAssetsPage userId={userId} list={list} />;
}

/** The user could not be read: not found, or a failure that may pass (then Retry). */
function UserLoadFailed(props: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <RecordLoadFailed
      {...props}
      notFoundTitle={t('userAssets.notFoundTitle')}
      notFound={t('userAssets.notFound')}
      failedTitle={t('userAssets.loadFailedTitle')}
      section={t('userAssets.title')}
      back={<Link to="/">{t('app.backHome')}</Link>}
    />
  );
}

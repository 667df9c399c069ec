import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { applicationQuery } from '../../api/applications';
import { defineList } from '../../api/list-url';
import { queryClient } from '../../api/query';
import { ASSET_TYPES } from '../../../contract/assets';
import { ApplicationAssetsPage } from '../../features/applications';
import { loadPermissions, permissionsOfSession } from '../../machines/permissions.view';
import { RecordLoadFailed } from '../-chunks/record-error';

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    type: z.optional(z.array(z.enum(ASSET_TYPES))),
  }),
  sortFields: ['position', 'name', 'createdAt'],
  defaultOrder: { position: 'asc' },
});

export const Route = createFileRoute('/_app/applications/$applicationId/assets')({
  validateSearch: list.validateSearch,
  // The application's name heads the list; an unknown id is "not found", not an empty list.
  loader: async ({ params: { applicationId }, context }) => {
    await loadPermissions();
    if (!permissionsOfSession(context.session)('read', 'Application')) return;
    await queryClient.ensureQueryData(applicationQuery(applicationId));
  },
  component: ApplicationAssetsRoute,
  errorComponent: ApplicationLoadFailed,
});

function ApplicationAssetsRoute() {
  const { applicationId } = Route.useParams();
  return <ApplicationAssetsPage applicationId={applicationId} list={list} />;
}

/** The application could not be read: not found, or a failure that may pass (then Retry). */
function ApplicationLoadFailed(props: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <RecordLoadFailed
      {...props}
      notFoundTitle={t('applications.notFoundTitle')}
      notFound={t('applications.notFound')}
      failedTitle={t('applications.loadFailedTitle')}
      section={t('applications.title')}
      back={<Link to="/applications">{t('applications.back')}</Link>}
    />
  );
}

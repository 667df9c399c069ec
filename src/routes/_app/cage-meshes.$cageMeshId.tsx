import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../api/query';
import { cageMeshQuery, CageMeshPage } from '../../features/cage-meshes';
import { loadPermissions, permissionsOfSession } from '../../machines/permissions.view';
import { RecordLoadFailed } from '../-chunks/record-error';

export const Route = createFileRoute('/_app/cage-meshes/$cageMeshId')({
  // A role that may not read cage meshes gets the "not available" page, not the server's 403.
  loader: async ({ params, context }) => {
    await loadPermissions();
    if (!permissionsOfSession(context.session)('read', 'CageMesh')) return;
    await queryClient.ensureQueryData(cageMeshQuery(params.cageMeshId));
  },
  component: CageMeshRoute,
  errorComponent: CageMeshLoadFailed,
});

function CageMeshRoute() {
  const { cageMeshId } = Route.useParams();
  return <CageMeshPage cageMeshId={cageMeshId} />;
}

/** The cage mesh could not be read: not found, or a failure that may pass (then Retry). */
function CageMeshLoadFailed(props: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <RecordLoadFailed
      {...props}
      notFoundTitle={t('cageMeshes.notFoundTitle')}
      notFound={t('cageMeshes.notFound')}
      failedTitle={t('cageMeshes.loadFailedTitle')}
      section={t('cageMeshes.title')}
      back={<Link to="/cage-meshes">{t('cageMeshes.back')}</Link>}
    />
  );
}

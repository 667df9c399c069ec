import { useSuspenseQuery } from '@tanstack/react-query';
import {
  createFileRoute,
  Link,
  useNavigate,
  type ErrorComponentProps,
} from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { cageMeshQuery } from '../../api/cage-meshes';
import { queryClient } from '../../api/query';
import '../../ui/dom/editor-page.css';
import { SectionCrumbs } from '../../ui/dom/section-crumbs';
import { useDocumentTitle } from '../../ui/dom/use-document-title';
import {
  Allowed,
  loadPermissions,
  permissionsOfSession,
  usePermissions,
} from '../../machines/permissions.view';
import { RecordLoadFailed } from '../-chunks/record-error';
import { CageMeshForm } from './-cage-mesh/cage-mesh-form';
import { TrashButton } from '../../machines/trash-actions.view';

export const Route = createFileRoute('/_app/cage-meshes/$cageMeshId')({
  // A role that may not read cage meshes gets the "not available" page, not the server's 403.
  loader: async ({ params, context }) => {
    await loadPermissions();
    if (!permissionsOfSession(context.session)('read', 'CageMesh')) return;
    await queryClient.ensureQueryData(cageMeshQuery(params.cageMeshId));
  },
  component: () => (
    <Allowed requires={['read', 'CageMesh']}>
      <CageMeshPage />
    </Allowed>
  ),
  errorComponent: CageMeshLoadFailed,
});

function CageMeshPage() {
  const { t } = useTranslation();
  const { cageMeshId } = Route.useParams();
  const { data: mesh } = useSuspenseQuery(cageMeshQuery(cageMeshId));
  const can = usePermissions();
  const navigate = useNavigate();
  useDocumentTitle(mesh.name, t('cageMeshes.title'));
  return (
    <section className="asset-page" aria-labelledby="cage-mesh-title">
      <SectionCrumbs section="/cage-meshes" current={mesh.name} />
      <h1 id="cage-mesh-title">{t('cageMeshes.editTitle', { name: mesh.name })}</h1>
      <CageMeshForm cageMesh={mesh} readOnly={!can('update', 'CageMesh')} />
      {can('delete', 'CageMesh') && (
        <div className="action-row">
          <TrashButton
            kind="cage-mesh"
            record={mesh}
            onMoved={() => navigate({ to: '/cage-meshes' })}
          />
        </div>
      )}
    </section>
  );
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

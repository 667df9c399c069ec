import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { cageMeshQuery } from '../../api/cage-meshes';
import { describeError } from '../../api/error-info';
import { queryClient } from '../../api/query';
import '../../ui/dom/asset-editor.css';
import { LoadFailed } from '../../ui/dom/load-failed';
import { useDocumentTitle } from '../../ui/dom/use-document-title';
import { usePermissions } from '../../machines/permissions.view';
import { CageMeshForm } from './-cage-mesh/cage-mesh-form';

export const Route = createFileRoute('/_app/cage-meshes/$cageMeshId')({
  loader: ({ params }) => queryClient.ensureQueryData(cageMeshQuery(params.cageMeshId)),
  component: CageMeshPage,
  errorComponent: CageMeshLoadFailed,
});

function CageMeshPage() {
  const { t } = useTranslation();
  const { cageMeshId } = Route.useParams();
  const { data: mesh } = useSuspenseQuery(cageMeshQuery(cageMeshId));
  const can = usePermissions();
  useDocumentTitle(mesh.name, t('cageMeshes.title'));
  return (
    <section className="asset-page" aria-labelledby="cage-mesh-title">
      <Link to="/cage-meshes">{t('cageMeshes.back')}</Link>
      <h1 id="cage-mesh-title">{t('cageMeshes.editTitle', { name: mesh.name })}</h1>
      <CageMeshForm cageMesh={mesh} readOnly={!can('update', 'CageMesh')} />
    </section>
  );
}

/** The cage mesh could not be read: not found, or the server failed (then Retry). */
function CageMeshLoadFailed({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <LoadFailed
      back={<Link to="/cage-meshes">{t('cageMeshes.back')}</Link>}
      message={t('cageMeshes.notFound', { message: describeError(error, t) })}
      retryLabel={t('app.retry')}
      onRetry={reset}
    />
  );
}

import { createFileRoute, Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { getCageMesh } from '../../api/cage-meshes';
import { queryClient } from '../../api/query';
import type { CageMesh } from '../../api/schemas';
import { Alert } from '../../ui/dom/alert';
import '../../ui/dom/asset-editor.css';
import { CageMeshForm } from '../-components/cage-mesh-form';
import { describeError } from '../-components/describe-error';
import { useQuery } from '../-components/use-query';

export const Route = createFileRoute('/_app/cage-meshes/$cageMeshId')({
  component: CageMeshPage,
});

function CageMeshPage() {
  const { cageMeshId } = Route.useParams();
  return <CageMeshScreen key={cageMeshId} cageMeshId={cageMeshId} />;
}

function CageMeshScreen({ cageMeshId }: { cageMeshId: string }) {
  const { t } = useTranslation();
  const key = ['cage-mesh', cageMeshId] as const;
  const query = useQuery(key, () => getCageMesh(cageMeshId));
  const mesh = query.data;
  return (
    <section className="asset-page" aria-labelledby="cage-mesh-title">
      <Link to="/cage-meshes">{t('cageMeshes.back')}</Link>
      {mesh ? (
        <>
          <h1 id="cage-mesh-title">{t('cageMeshes.editTitle', { name: mesh.name })}</h1>
          <CageMeshForm
            cageMesh={mesh}
            onSaved={(saved: CageMesh) => queryClient.setQueryData(key, saved)}
          />
        </>
      ) : query.isError ? (
        <Alert tone="error">
          {t('cageMeshes.notFound', { message: describeError(query.error, t) })}
        </Alert>
      ) : (
        <p role="status">{t('assetEditor.loading')}</p>
      )}
    </section>
  );
}

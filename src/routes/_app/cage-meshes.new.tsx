import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import '../../ui/dom/asset-editor.css';
import { Allowed } from '../../machines/permissions.view';
import { announce } from '../../ui/dom/toasts';
import { CageMeshForm } from './-cage-mesh/cage-mesh-form';

export const Route = createFileRoute('/_app/cage-meshes/new')({
  component: NewCageMesh,
});

function NewCageMesh() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Allowed requires={['create', 'CageMesh']}>
      <section className="asset-page" aria-labelledby="cage-mesh-title">
        <Link to="/cage-meshes">{t('cageMeshes.back')}</Link>
        <h1 id="cage-mesh-title">{t('cageMeshes.newTitle')}</h1>
        <CageMeshForm
          onSaved={(mesh) => {
            announce({ title: t('toasts.created', { name: mesh.name }), tone: 'success' });
            void navigate({
              to: '/cage-meshes/$cageMeshId',
              params: { cageMeshId: mesh.id },
              replace: true,
            });
          }}
        />
      </section>
    </Allowed>
  );
}

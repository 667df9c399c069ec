import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import '../../../ui/dom/editor-page.css';
import { Allowed } from '../../../machines/permissions.view';
import { announce } from '../../../ui/dom/toasts';
import { SectionCrumbs } from '../../../ui/dom/section-crumbs';
import { useDocumentTitle } from '../../../ui/dom/use-document-title';
import { CageMeshForm } from './cage-mesh-form';

/** A new cage mesh; once saved, its page replaces this one. */
export function NewCageMeshPage() {
  return (
    <Allowed requires={['create', 'CageMesh']}>
      <NewCageMesh />
    </Allowed>
  );
}

function NewCageMesh() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('cageMeshes.newTitle'), t('cageMeshes.title'));
  return (
    <section className="asset-page" aria-labelledby="cage-mesh-title">
      <SectionCrumbs section="/cage-meshes" current={t('cageMeshes.newTitle')} />
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
  );
}

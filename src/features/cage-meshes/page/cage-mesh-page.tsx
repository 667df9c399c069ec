import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cageMeshQuery } from '../api/requests';
import '../../../ui/dom/editor-page.css';
import { SectionCrumbs } from '../../../ui/dom/section-crumbs';
import { useDocumentTitle } from '../../../ui/dom/use-document-title';
import { Allowed, usePermissions } from '../../../machines/permissions.view';
import { CageMeshForm } from './cage-mesh-form';
import { TrashButton } from '../../../machines/trash-actions.view';
import { listSearchToReturnTo } from '../../../api/list-return';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import type { CageMesh as CageMeshRecord } from '../../../../contract/schemas';
import { Alert } from '../../../ui/dom/alert';
import { displayLabel } from '../../../ui/dom/list/asset-filters';

/** One cage mesh: its form and, for roles that may delete, Delete. */
export function CageMeshPage({ cageMeshId }: { cageMeshId: string }) {
  return (
    <Allowed requires={['read', 'CageMesh']}>
      <CageMesh cageMeshId={cageMeshId} />
    </Allowed>
  );
}

function CageMesh({ cageMeshId }: { cageMeshId: string }) {
  const { t } = useTranslation();
  const { data: mesh } = useSuspenseQuery(cageMeshQuery(cageMeshId));
  const can = usePermissions();
  const navigate = useNavigate();
  useDocumentTitle(mesh.name, t('cageMeshes.title'));
  return (
    <section className="asset-page" aria-labelledby="cage-mesh-title">
      <SectionCrumbs section="/cage-meshes" current={mesh.name} />
      <h1 id="cage-mesh-title">{t('cageMeshes.editTitle', { name: mesh.name })}</h1>
      {can('update', 'CageMesh') ? (
        <CageMeshForm cageMesh={mesh} />
      ) : (
        <>
          <Alert tone="info">{t('cageMeshes.readOnlyNotice')}</Alert>
          <CageMeshDetails mesh={mesh} />
        </>
      )}
      {can('delete', 'CageMesh') && (
        <div className="action-row">
          <TrashButton
            kind="cage-mesh"
            record={mesh}
            // Back to the list as the user left it (its gender filter, sort and page).
            onMoved={() =>
              navigate({
                to: '/cage-meshes',
                search: listSearchToReturnTo(endpoint(ENDPOINTS.cageMeshes)),
              })
            }
          />
        </div>
      )}
    </section>
  );
}

/** The cage mesh as text, for a role that may read cage meshes but not change them. */
function CageMeshDetails({ mesh }: { mesh: CageMeshRecord }) {
  const { t } = useTranslation();
  const facts: [string, ReactNode][] = [
    [t('cageMeshes.name'), mesh.name],
    [t('cageMeshes.gender'), displayLabel(mesh.gender)],
    [t('cageMeshes.bodyType'), mesh.bodyType ?? t('assetEditor.noFile')],
    [
      t('cageMeshes.model'),
      mesh.modelUrl ? (
        <a href={`${mesh.modelUrl}?download`} download>
          {t('cageMeshes.download')}
        </a>
      ) : (
        t('assetEditor.noFile')
      ),
    ],
  ];
  return (
    <section className="panel" aria-labelledby="cage-mesh-details">
      <h2 id="cage-mesh-details">{t('assetEditor.details')}</h2>
      <dl className="fact-list">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

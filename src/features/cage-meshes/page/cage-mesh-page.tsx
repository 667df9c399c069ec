import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
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
      <CageMeshForm cageMesh={mesh} readOnly={!can('update', 'CageMesh')} />
      {can('delete', 'CageMesh') && (
        <div className="action-row">
          <TrashButton
            kind="cage-mesh"
            record={mesh}
            // Back to the list as the user left it (its gender filter, sort and page).
            onMoved={() =>
              navigate({
                to: '/cage-meshes',
                search: listSearchToReturnTo(endpoint(ENDPOINTS.cageMeshes)) as never,
              })
            }
          />
        </div>
      )}
    </section>
  );
}

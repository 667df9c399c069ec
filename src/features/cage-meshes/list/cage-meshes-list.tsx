import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { Link } from '@tanstack/react-router';
import type { ListDefinition } from '../../../api/list-url';
import { cageMeshSchema, type CageMesh } from '../../../../contract/schemas';
import { displayLabel, searchFilter, toOptions } from '../../../ui/dom/list/asset-filters';
import { personIcon } from '../../../ui/dom/list/filter-icons';
import { GENDERS } from '../../../../contract/assets';
import { dateColumn, modelColumn } from '../../../ui/dom/list/columns';
import type { Can } from '../../../../contract/ability';
import { ListScreen, type ListScreenConfig } from '../../../machines/list.view';
import { TrashBulkActions, trashRowAction } from '../../../machines/trash-actions.view';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/**
 * The cage meshes list: its columns, filters and Trash actions. The route declares `list`, the
 * search it validates (filters, sort fields, default order).
 */
export function CageMeshesList({ list }: { list: ListDefinition }) {
  const config = useCallback((t: TFunction, can: Can) => cageMeshesList(t, can, list), [list]);
  return <ListScreen config={config} />;
}

/** What the list shows, in the user's language. */
const cageMeshesList = (
  t: TFunction,
  can: Can,
  list: ListDefinition,
): ListScreenConfig<CageMesh> => ({
  title: t('cageMeshes.title'),
  requires: ['read', 'CageMesh'],
  endpoint: endpoint(ENDPOINTS.cageMeshes),
  rowSchema: cageMeshSchema,
  ...list,
  rowLabel: (mesh) => mesh.name,
  ...(can('create', 'CageMesh')
    ? {
        toolbar: () => (
          <Link to="/cage-meshes/new" className="button primary">
            {t('cageMeshes.new')}
          </Link>
        ),
      }
    : {}),
  filters: [
    searchFilter(t),
    {
      field: 'gender',
      type: 'single-select',
      label: t('assets.gender'),
      icon: personIcon,
      options: toOptions(GENDERS),
      // Cage meshes are made per body, and one works on one body's cages at a time: the list
      // always shows one gender (male until another is chosen; spec §4 preselectValue), so it
      // offers no "Any".
      preselectValue: 'male',
      visibleOnMobile: true,
    },
  ],
  columns: [
    {
      field: 'name',
      headerName: t('assets.name'),
      sortable: true,
      render: (m) => (
        <Link to="/cage-meshes/$cageMeshId" params={{ cageMeshId: m.id }}>
          {m.name}
        </Link>
      ),
    },
    { field: 'gender', headerName: t('assets.gender'), render: (m) => displayLabel(m.gender) },
    {
      field: 'bodyType',
      headerName: t('cageMeshes.bodyType'),
      render: (m) => (m.bodyType ? displayLabel(m.bodyType) : '—'),
    },
    modelColumn(t),
    dateColumn('updatedAt', t('assets.updated')),
  ],
  ...(can('delete', 'CageMesh') && {
    rowActions: (mesh, list) => [trashRowAction(t, 'cage-mesh', mesh, list)],
    bulkActions: (ids, list) => <TrashBulkActions kind="cage-mesh" ids={ids} list={list} />,
  }),
});

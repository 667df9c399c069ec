import type { TFunction } from 'i18next';
import { useCallback, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { ListDefinition } from '../../../api/list-url';
import { assetSchema, type Asset } from '../../../../contract/schemas';
import {
  displayLabel,
  genderFilter,
  searchFilter,
  typeFilter,
} from '../../../ui/dom/list/asset-filters';
import { assetNameCell, badgeCell } from '../../../ui/dom/list/cells';
import { applicationIcon, lockIcon, tagIcon } from '../../../ui/dom/list/filter-icons';
import { dateColumn, positionColumn } from '../../../ui/dom/list/columns';
import type { Can } from '../../../../contract/ability';
import { deleteChange, lockChange, runChange } from './asset-changes';
import { AssetBulkActions } from './bulk-actions';
import { TagLink } from '../asset-link';
import { BulkJobsInProgress } from '../../../machines/bulk-jobs.view';
import { TrashRetention } from '../../../machines/trash-actions.view';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../../machines/list.view';
import type { ActionMenuItem } from '../../../ui/dom/list/row-menu';
import type { FilterDef } from '../../../ui/dom/list/filter-bar';
import { moveActions } from '../../../ui/dom/list/move-actions';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/**
 * The assets list: its columns, filters, row and bulk actions. The route declares `list`, the
 * search it validates (filters, sort fields, default order).
 */
export function AssetsList({ list }: { list: ListDefinition }) {
  const config = useCallback((t: TFunction, can: Can) => assetsList(t, can, list), [list]);
  return <ListScreen config={config} />;
}

/** What the list shows, in the user's language. */
const assetsList = (t: TFunction, can: Can, list: ListDefinition): ListScreenConfig<Asset> => ({
  title: t('assets.title'),
  requires: ['read', 'Asset'],
  endpoint: endpoint(ENDPOINTS.assets),
  rowSchema: assetSchema,
  ...list,
  canScroll: true,
  ...(can('update', 'Asset') ? { reorder: { endpoint: endpoint(ENDPOINTS.assetPosition) } } : {}),
  rowLabel: (asset) => asset.name,
  ...(can('create', 'Asset') || can('update', 'Asset') || can('delete', 'Asset')
    ? {
        // Bulk jobs this tab started show their progress here until they end.
        toolbar: (list: ListControls) => (
          <>
            <BulkJobsInProgress list={list} />
            {can('create', 'Asset') && (
              <Link to="/assets/new" className="button primary">
                {t('assets.new')}
              </Link>
            )}
          </>
        ),
      }
    : {}),
  filters: [
    searchFilter(t),
    typeFilter(t),
    genderFilter(t),
    // Only filters whose options the role may read: a guest reads no applications or tags,
    // and their suggestions would answer 403 into an empty box.
    ...(can('read', 'Application')
      ? [
          entityFilter(
            'applicationId',
            t('assets.application'),
            applicationIcon,
            endpoint(ENDPOINTS.applications),
          ),
        ]
      : []),
    ...(can('read', 'Tag')
      ? [entityFilter('tagId', t('assets.tags'), tagIcon, endpoint(ENDPOINTS.tags))]
      : []),
    {
      field: 'locked',
      type: 'single-select',
      label: t('assets.lockState'),
      icon: lockIcon,
      position: 'right',
      options: [
        { value: 'true', label: t('assets.locked') },
        { value: 'false', label: t('assets.unlocked') },
      ],
    },
  ],
  columns: [
    {
      field: 'name',
      headerName: t('assets.name'),
      sortable: true,
      render: (a) => (
        <Link to="/assets/$assetId" params={{ assetId: a.id }}>
          {assetNameCell(a)}
        </Link>
      ),
    },
    {
      field: 'type',
      headerName: t('assets.type'),
      sortable: true,
      render: (a) => badgeCell(displayLabel(a.type)),
    },
    {
      field: 'gender',
      headerName: t('assets.gender'),
      sortable: true,
      render: (a) => displayLabel(a.gender),
    },
    {
      field: 'tags',
      headerName: t('assets.tags'),
      // Each tag leads to the tag, for a role that may open the tags list.
      render: (a) =>
        a.tags.length === 0
          ? '—'
          : can('read', 'Tag')
            ? a.tags.map((tag, index) => (
                <span key={tag.id}>
                  {index > 0 && ', '}
                  <TagLink name={tag.name} />
                </span>
              ))
            : a.tags.map((tag) => tag.name).join(', '),
    },
    {
      field: 'locked',
      headerName: t('assets.lockState'),
      render: (a) =>
        a.locked
          ? badgeCell(t('assets.locked'), 'locked')
          : badgeCell(t('assets.unlocked'), 'unlocked'),
    },
    positionColumn(t, t('assets.positionTooltip')),
    dateColumn('updatedAt', t('assets.updated')),
  ],
  ...(can('update', 'Asset') || can('delete', 'Asset')
    ? {
        bulkActions: (ids, list, scope) => (
          <AssetBulkActions ids={ids} list={list} scope={scope} can={can} />
        ),
      }
    : {}),
  rowActions: (asset, list) => [
    ...(can('update', 'Asset')
      ? [
          {
            title: t(asset.locked ? 'assets.unlock' : 'assets.lock'),
            onAction: () => void runChange(list, lockChange(t, !asset.locked, asset)),
          },
          ...moveActions<Asset>(t),
        ]
      : []),
    ...(can('delete', 'Asset') ? [deleteAction(t, asset, list)] : []),
  ],
});

/** A filter by the ids of related records, picked by name from `endpoint`. */
const entityFilter = (
  field: string,
  label: string,
  icon: ReactNode,
  endpoint: string,
): FilterDef => ({
  field,
  type: 'autocomplete',
  label,
  icon,
  endpoint,
  findByIdEndpoint: endpoint,
  multiple: true,
  // One chip, then "+N": the chosen values stay inside the field.
  limitTags: 1,
});

/** Deletes the asset after a confirmation; a locked asset cannot be deleted. */
function deleteAction(t: TFunction, asset: Asset, list: ListControls): ActionMenuItem<Asset> {
  return {
    title: t('assets.delete'),
    color: 'danger',
    isDisabled: asset.locked,
    confirm: {
      title: t('assets.deleteTitle', { name: asset.name }),
      body: (
        <>
          {t('assets.deleteBody')} <TrashRetention />
        </>
      ),
      confirmLabel: t('assets.delete'),
    },
    onAction: () => void runChange(list, deleteChange(t, asset)),
  };
}

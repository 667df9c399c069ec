import type { TFunction } from 'i18next';
import { useCallback, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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
import type { ListFilter } from '../../../../contract/list-query';
import './assets-list.css';

/**
 * Which assets the list shows: every one, those the signed-in user may change (unlocked, for a
 * role that edits assets), or each type's default pick (the first of its type in the catalogue
 * order, which a client gets when it has chosen none).
 */
export type AssetsView = 'all' | 'editable' | 'defaults';

const VIEWS = {
  all: { to: '/assets', path: ENDPOINTS.assets },
  editable: { to: '/assets/editable', path: ENDPOINTS.assetsEditable },
  defaults: { to: '/assets/defaults', path: ENDPOINTS.assetsByDefault },
} as const;

/**
 * The assets list: its columns, filters, row and bulk actions, in one of its views. The route
 * declares `list`, the search it validates (filters, sort fields, default order).
 */
export function AssetsList({ list, view }: { list: ListDefinition; view: AssetsView }) {
  const config = useCallback(
    (t: TFunction, can: Can) => assetsList(t, can, list, view),
    [list, view],
  );
  return <ListScreen key={view} config={config} />;
}

/** The views as links, the current one marked; "Editable by me" for a role that edits. */
function AssetViews({ can }: { can: Can }) {
  const { t } = useTranslation();
  const offered = (Object.keys(VIEWS) as AssetsView[]).filter(
    (name) => name !== 'editable' || can('update', 'Asset'),
  );
  return (
    <nav className="list-views" aria-label={t('assets.views.label')}>
      {offered.map((name) => (
        <Link
          key={name}
          to={VIEWS[name].to}
          className="button"
          // The router marks the one open (aria-current): this address only, whatever its query.
          activeOptions={{ exact: true, includeSearch: false }}
          // The filter goes along: the same assets seen another way.
          search={(previous: { filter?: ListFilter }) =>
            previous.filter === undefined ? {} : { filter: previous.filter }
          }
        >
          {t(`assets.views.${name}`)}
        </Link>
      ))}
    </nav>
  );
}

/** What the list shows, in the user's language. */
const assetsList = (
  t: TFunction,
  can: Can,
  list: ListDefinition,
  view: AssetsView,
): ListScreenConfig<Asset> => ({
  title: view === 'all' ? t('assets.title') : t(`assets.views.${view}Title`),
  requires: view === 'editable' ? ['update', 'Asset'] : ['read', 'Asset'],
  endpoint: endpoint(VIEWS[view].path),
  rowSchema: assetSchema,
  ...list,
  canScroll: true,
  // A position is the asset's place in the whole catalogue: moved where every asset shows.
  ...(can('update', 'Asset') && view === 'all'
    ? { reorder: { endpoint: endpoint(ENDPOINTS.assetPosition) } }
    : {}),
  rowLabel: (asset) => asset.name,
  toolbarMore: () => <AssetViews can={can} />,
  // Bulk jobs this tab started show their progress here until they end.
  toolbar: (list: ListControls) => (
    <>
      {(can('create', 'Asset') || can('update', 'Asset') || can('delete', 'Asset')) && (
        <BulkJobsInProgress list={list} />
      )}
      {can('create', 'Asset') && (
        <Link to="/assets/new" className="button primary">
          {t('assets.new')}
        </Link>
      )}
    </>
  ),
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

import { useCallback } from 'react';
import type { TFunction } from 'i18next';
import type { ListDefinition } from '../../../api/list-url';
import {
  morphQueueEntrySchema,
  morphStatusSchema,
  type MorphQueueEntry,
} from '../../../../contract/schemas';
import type { Can } from '../../../../contract/ability';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../../machines/list.view';
import { searchFilter } from '../../../ui/dom/list/asset-filters';
import { badgeCell } from '../../../ui/dom/list/cells';
import { dateColumn } from '../../../ui/dom/list/columns';
import { statusIcon } from '../../../ui/dom/list/filter-icons';
import { AssetLink } from '../../assets';
import { morphRowActions, RetryMorphButton } from './morph-retry';

const STATUSES = morphStatusSchema.options;

/**
 * The morph queue: every job, newest first; a failed one can run again. The route declares
 * `list`, the search it validates (filters, sort fields, default order).
 */
export function MorphQueueList({ list }: { list: ListDefinition }) {
  const config = useCallback((t: TFunction, can: Can) => morphQueueList(t, can, list), [list]);
  return <ListScreen config={config} />;
}

/** What the list shows, in the user's language. */
const morphQueueList = (
  t: TFunction,
  can: Can,
  list: ListDefinition,
): ListScreenConfig<MorphQueueEntry> => ({
  title: t('morphs.queueTitle'),
  requires: ['read', 'MorphedAsset'],
  endpoint: endpoint(ENDPOINTS.morphQueue),
  rowSchema: morphQueueEntrySchema,
  ...list,
  limit: 20,
  rowLabel: (entry) => entry.sourceAssetName,
  filters: [
    searchFilter(t),
    {
      field: 'status',
      type: 'multi-select',
      label: t('morphs.status'),
      icon: statusIcon,
      visibleOnMobile: true,
      options: STATUSES.map((s) => ({ value: s, label: t(`morphs.statuses.${s}`) })),
    },
  ],
  columns: [
    // The names lead to the assets they stand for.
    {
      field: 'sourceAssetName',
      headerName: t('morphs.source'),
      render: (e) => <AssetLink id={e.sourceAssetId}>{e.sourceAssetName}</AssetLink>,
    },
    {
      field: 'bodyAssetName',
      headerName: t('morphs.body'),
      render: (e) => <AssetLink id={e.bodyAssetId}>{e.bodyAssetName}</AssetLink>,
    },
    {
      field: 'status',
      headerName: t('morphs.status'),
      sortable: true,
      render: (e) => badgeCell(t(`morphs.statuses.${e.status}`), e.status),
    },
    {
      field: 'progress',
      headerName: t('morphs.progress'),
      headerAlign: 'right',
      cellAlign: 'right',
      render: (e) => `${e.progress}%`,
    },
    {
      field: 'error',
      headerName: t('morphs.error'),
      // A failed job offers to run again where its error is read.
      render: (e) =>
        e.status === 'failed' && can('update', 'Asset') ? (
          <span className="morph-error">
            {e.error ?? '—'} <RetryMorphButton entry={e} />
          </span>
        ) : (
          (e.error ?? '—')
        ),
    },
    dateColumn('createdAt', t('assets.created')),
  ],
  // Who may generate morphs may run a failed job again.
  ...(can('update', 'Asset') && {
    rowActions: (entry: MorphQueueEntry, list: ListControls) => morphRowActions(t, entry, list),
  }),
});

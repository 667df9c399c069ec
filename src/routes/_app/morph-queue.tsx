import type { TFunction } from 'i18next';
import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import {
  morphQueueEntrySchema,
  morphStatusSchema,
  type MorphQueueEntry,
} from '../../../contract/schemas';
import { badgeCell } from '../../ui/dom/list/cells';
import { searchFilter } from '../../ui/dom/list/asset-filters';
import { statusIcon } from '../../ui/dom/list/filter-icons';
import { dateColumn } from '../../ui/dom/list/columns';
import { ListScreen, type ListScreenConfig } from '../../machines/list.view';
import { AssetLink } from '../../features/assets';
import { endpoint, ENDPOINTS } from '../../../contract/paths';

const STATUSES = morphStatusSchema.options;

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    status: z.optional(z.array(morphStatusSchema)),
  }),
  sortFields: ['createdAt', 'updatedAt', 'status'],
  defaultOrder: { createdAt: 'desc' },
  mode: 'infinite',
});

export const Route = createFileRoute('/_app/morph-queue')({
  validateSearch: list.validateSearch,
  component: () => <ListScreen config={morphQueueList} />,
});

/** What the list shows, in the user's language. */
const morphQueueList = (t: TFunction): ListScreenConfig<MorphQueueEntry> => ({
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
    { field: 'error', headerName: t('morphs.error'), render: (e) => e.error ?? '—' },
    dateColumn('createdAt', t('assets.created')),
  ],
});

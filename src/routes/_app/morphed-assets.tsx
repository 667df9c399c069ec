import type { TFunction } from 'i18next';
import { createFileRoute } from '@tanstack/react-router';
import { defineList } from '../../api/list-url';
import { morphedAssetSchema, type MorphedAsset } from '../../../contract/schemas';
import { searchFilter } from '../../ui/dom/list/asset-filters';
import { dateColumn, modelColumn } from '../../ui/dom/list/columns';
import { ListScreen, type ListScreenConfig } from '../../machines/list.view';
import type { Can } from '../../../contract/ability';
import { AssetLink } from '../../features/assets';
import { TrashBulkActions, trashRowAction } from '../../machines/trash-actions.view';
import { endpoint, ENDPOINTS } from '../../../contract/paths';

const list = defineList({
  sortFields: ['name', 'createdAt'],
  defaultOrder: { createdAt: 'desc' },
});

export const Route = createFileRoute('/_app/morphed-assets')({
  validateSearch: list.validateSearch,
  component: () => <ListScreen config={morphedAssetsList} />,
});

/** What the list shows, in the user's language. */
const morphedAssetsList = (t: TFunction, can: Can): ListScreenConfig<MorphedAsset> => ({
  title: t('morphs.title'),
  requires: ['read', 'MorphedAsset'],
  endpoint: endpoint(ENDPOINTS.morphedAssets),
  rowSchema: morphedAssetSchema,
  ...list,
  rowLabel: (m) => m.name,
  filters: [searchFilter(t)],
  columns: [
    // A morphed asset has no page of its own: its name leads to the asset it was made from.
    {
      field: 'name',
      headerName: t('assets.name'),
      sortable: true,
      render: (m) => <AssetLink id={m.sourceAssetId}>{m.name}</AssetLink>,
    },
    modelColumn(t),
    dateColumn('createdAt', t('assets.created')),
  ],
  ...(can('delete', 'MorphedAsset') && {
    rowActions: (morphed, list) => [trashRowAction(t, 'morphed-asset', morphed, list)],
    bulkActions: (ids, list) => <TrashBulkActions kind="morphed-asset" ids={ids} list={list} />,
  }),
});

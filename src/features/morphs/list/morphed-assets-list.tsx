import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import type { ListDefinition } from '../../../api/list-url';
import { morphedAssetSchema, type MorphedAsset } from '../../../../contract/schemas';
import { searchFilter } from '../../../ui/dom/list/asset-filters';
import { dateColumn, modelColumn } from '../../../ui/dom/list/columns';
import { ListScreen, type ListScreenConfig } from '../../../machines/list.view';
import type { Can } from '../../../../contract/ability';
import { AssetLink } from '../../assets';
import { TrashBulkActions, trashRowAction } from '../../../machines/trash-actions.view';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import { PlaceMorphedAssets } from './place-morphed';

/**
 * The morphed assets: what the morph queue made, each named after and leading to its source.
 * The route declares `list`, the search it validates (sort fields, default order).
 */
export function MorphedAssetsList({ list }: { list: ListDefinition }) {
  const config = useCallback((t: TFunction, can: Can) => morphedAssetsList(t, can, list), [list]);
  return <ListScreen config={config} />;
}

/** What the list shows, in the user's language. */
const morphedAssetsList = (
  t: TFunction,
  can: Can,
  list: ListDefinition,
): ListScreenConfig<MorphedAsset> => ({
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
  }),
  // Who places assets in applications places the selected morphs in one; admins also delete.
  ...((can('update', 'Application') || can('delete', 'MorphedAsset')) && {
    bulkActions: (ids, list) => (
      <>
        {can('update', 'Application') && <PlaceMorphedAssets ids={ids} list={list} />}
        {can('delete', 'MorphedAsset') && (
          <TrashBulkActions kind="morphed-asset" ids={ids} list={list} />
        )}
      </>
    ),
  }),
});

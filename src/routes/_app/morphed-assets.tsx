import type { TFunction } from 'i18next';
import { createFileRoute } from '@tanstack/react-router';
import { defineList, searchOnly } from '../../api/list-url';
import { morphedAssetSchema, type MorphedAsset } from '../../api/schemas';
import { dateCell } from '../../ui/dom/list/cells';
import { searchFilter } from '../../ui/dom/list/asset-filters';
import { ListScreen, type ListScreenConfig } from '../../machines/list.view';

const list = defineList({
  filterSchema: searchOnly,
  sortFields: ['name', 'createdAt'],
  defaultOrder: { createdAt: 'desc' },
  mode: 'paged',
});

export const Route = createFileRoute('/_app/morphed-assets')({
  validateSearch: list.validateSearch,
  component: MorphedAssetsScreen,
});

function MorphedAssetsScreen() {
  return <ListScreen config={morphedAssetsList} />;
}

/** What the list shows, in the user's language. */
const morphedAssetsList = (t: TFunction): ListScreenConfig<MorphedAsset> => ({
  title: t('morphs.title'),
  endpoint: 'private/v1/morphed-assets',
  rowSchema: morphedAssetSchema,
  ...list,
  rowLabel: (m) => m.name,
  filters: [searchFilter(t)],
  columns: [
    { field: 'name', headerName: t('assets.name'), sortable: true },
    {
      field: 'modelUrl',
      headerName: t('cageMeshes.model'),
      render: (m) => (m.modelUrl ? <a href={m.modelUrl}>{t('cageMeshes.download')}</a> : '—'),
    },
    {
      field: 'createdAt',
      headerName: t('assets.created'),
      sortable: true,
      render: (m) => dateCell(m.createdAt),
    },
  ],
});

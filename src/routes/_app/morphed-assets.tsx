import { createFileRoute } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { morphedAssetSchema, type MorphedAsset } from '../../api/schemas';
import { dateCell } from '../../ui/dom/list/cells';
import { searchFilter } from '../../ui/dom/list/asset-filters';
import { ListScreen, type ListScreenConfig } from '../../machines/list.view';

const SORT_FIELDS = ['name', 'createdAt'] as const;
const DEFAULT_ORDER = { createdAt: 'desc' } as const;
const filterSchema = z.strictObject({ search: z.optional(z.string()) });

/** The list this screen shows: its filters, sorting and paging, in the address too. */
const list = defineList({
  filterSchema,
  sortFields: SORT_FIELDS,
  defaultOrder: DEFAULT_ORDER,
  mode: 'paged',
});

export const Route = createFileRoute('/_app/morphed-assets')({
  validateSearch: list.validateSearch,
  component: MorphedAssetsScreen,
});

function MorphedAssetsScreen() {
  const { t } = useTranslation();
  const search = Route.useSearch();
  const config = useMemo<ListScreenConfig<MorphedAsset>>(
    () => ({
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
    }),
    [t],
  );
  return <ListScreen config={config} search={search} />;
}

import type { TFunction } from 'i18next';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { applicationAssetSchema, type ApplicationAsset } from '../../api/schemas';
import { searchFilter, typeFilter } from '../../ui/dom/list/asset-filters';
import { ASSET_TYPES } from '../../domain/assets';
import { assetNameCell, badgeCell } from '../../ui/dom/list/cells';
import { positionColumn } from '../../ui/dom/list/columns';
import type { Can } from '../../api/ability';
import { ListScreen, type ListScreenConfig } from '../../machines/list.view';
import { moveActions } from '../../ui/dom/list/move-actions';

const list = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    type: z.optional(z.array(z.enum(ASSET_TYPES))),
  }),
  sortFields: ['position', 'name', 'createdAt'],
  defaultOrder: { position: 'asc' },
});

export const Route = createFileRoute('/_app/applications/$applicationId/assets')({
  validateSearch: list.validateSearch,
  component: ApplicationAssetsScreen,
});

/** The assets of one application, in the order the application offers them: drag to reorder. */
function ApplicationAssetsScreen() {
  const { applicationId } = Route.useParams();
  const config = useCallback(
    (t: TFunction, can: Can): ListScreenConfig<ApplicationAsset> => ({
      title: t('applications.assetsTitle'),
      requires: ['read', 'Application'],
      endpoint: `v1/application-assets?applicationId=${encodeURIComponent(applicationId)}`,
      rowSchema: applicationAssetSchema,
      ...list,
      limit: 20,
      ...(can('update', 'Application')
        ? { reorder: { endpoint: 'v1/application-assets/{id}/position', drag: true } }
        : {}),
      rowLabel: (row) => row.asset.name,
      filters: [searchFilter(t), typeFilter(t)],
      columns: [
        {
          field: 'name',
          headerName: t('assets.name'),
          sortable: true,
          render: (row) => assetNameCell(row.asset),
        },
        { field: 'type', headerName: t('assets.type'), render: (row) => badgeCell(row.asset.type) },
        { field: 'gender', headerName: t('assets.gender'), render: (row) => row.asset.gender },
        positionColumn(t),
      ],
      rowActions: () => (can('update', 'Application') ? moveActions<ApplicationAsset>(t) : []),
    }),
    [applicationId],
  );
  return <ListScreen key={applicationId} config={config} />;
}

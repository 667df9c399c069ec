import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { applicationQuery } from '../../../api/applications';
import type { ListDefinition } from '../../../api/list-url';
import { applicationAssetSchema, type ApplicationAsset } from '../../../../contract/schemas';
import { displayLabel, searchFilter, typeFilter } from '../../../ui/dom/list/asset-filters';
import { assetNameCell, badgeCell } from '../../../ui/dom/list/cells';
import { positionColumn } from '../../../ui/dom/list/columns';
import type { Can } from '../../../../contract/ability';
import {
  AddToApplication,
  ApplicationAssetsBulkActions,
  AssetLink,
  removeFromApplicationAction,
} from '../../assets';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { RenameDialog } from '../../../machines/rename-dialog.view';
import { moveActions } from '../../../ui/dom/list/move-actions';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/**
 * The assets of one application, in the order the application offers them: drag to reorder.
 * The route declares `list`, the search it validates (filters, sort fields, default order).
 */
export function ApplicationAssetsPage({
  applicationId,
  list,
}: {
  applicationId: string;
  list: ListDefinition;
}) {
  const application = useQuery(applicationQuery(applicationId)).data;
  const name = application?.name;
  // The list whose controls refresh and tell once a rename (admins) is stored.
  const [renaming, setRenaming] = useState<ListControls | null>(null);
  const config = useCallback(
    (t: TFunction, can: Can): ListScreenConfig<ApplicationAsset> => {
      // What adding and removing name in what they say (the name is read with the list).
      const target = name === undefined ? undefined : { id: applicationId, name };
      return {
        title: name ? t('applications.assetsOf', { name }) : t('applications.assetsTitle'),
        documentTitle: [name, t('applications.title')].filter((part) => part !== undefined),
        breadcrumbs: [
          <Link to="/applications" activeOptions={{ exact: true }}>
            {t('applications.title')}
          </Link>,
        ],
        requires: ['read', 'Application'],
        endpoint: `${endpoint(ENDPOINTS.applicationAssets)}?applicationId=${encodeURIComponent(applicationId)}`,
        rowSchema: applicationAssetSchema,
        ...list,
        limit: 25,
        ...(can('update', 'Application')
          ? { reorder: { endpoint: endpoint(ENDPOINTS.applicationAssetPosition), drag: true } }
          : {}),
        rowLabel: (row) => row.asset.name,
        toolbar: (list) => (
          <>
            {can('update', 'Application') && target && (
              <AddToApplication application={target} list={list} />
            )}
            {can('manage', 'Application') && (
              <ActionButton onPress={() => setRenaming(list)}>
                {t('applications.renameTitle')}
              </ActionButton>
            )}
          </>
        ),
        filters: [searchFilter(t), typeFilter(t)],
        columns: [
          {
            field: 'name',
            headerName: t('assets.name'),
            sortable: true,
            render: (row) => <AssetLink id={row.asset.id}>{assetNameCell(row.asset)}</AssetLink>,
          },
          {
            field: 'type',
            headerName: t('assets.type'),
            render: (row) => badgeCell(displayLabel(row.asset.type)),
          },
          {
            field: 'gender',
            headerName: t('assets.gender'),
            render: (row) => displayLabel(row.asset.gender),
          },
          positionColumn(t),
        ],
        rowActions: (_row, list) =>
          can('update', 'Application')
            ? [
                ...moveActions<ApplicationAsset>(t),
                ...(target ? [removeFromApplicationAction(t, list, target)] : []),
              ]
            : [],
        ...(can('update', 'Application') &&
          target && {
            bulkActions: (_ids, list, _scope, selected) => (
              <ApplicationAssetsBulkActions application={target} rows={selected} list={list} />
            ),
          }),
      };
    },
    [applicationId, name, list],
  );
  return (
    <>
      <ListScreen key={applicationId} config={config} />
      {renaming && application && (
        <RenameDialog
          kind="application"
          record={application}
          list={renaming}
          onClose={() => setRenaming(null)}
        />
      )}
    </>
  );
}

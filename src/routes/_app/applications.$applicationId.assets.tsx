import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { applicationQuery } from '../../api/applications';
import { queryClient } from '../../api/query';
import { RecordLoadFailed } from '../-chunks/record-error';
import { loadPermissions, permissionsOfSession } from '../../machines/permissions.view';
import { useCallback, useState } from 'react';
import { z } from 'zod/mini';
import { defineList } from '../../api/list-url';
import { applicationAssetSchema, type ApplicationAsset } from '../../../contract/schemas';
import { displayLabel, searchFilter, typeFilter } from '../../ui/dom/list/asset-filters';
import { ASSET_TYPES } from '../../../contract/assets';
import { assetNameCell, badgeCell } from '../../ui/dom/list/cells';
import { positionColumn } from '../../ui/dom/list/columns';
import type { Can } from '../../../contract/ability';
import {
  AddToApplication,
  ApplicationAssetsBulkActions,
  AssetLink,
  removeFromApplicationAction,
} from '../../features/assets';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../machines/list.view';
import { ActionButton } from '../../ui/dom/action-button';
import { RenameDialog } from './-rename-dialog';
import { moveActions } from '../../ui/dom/list/move-actions';
import { endpoint, ENDPOINTS } from '../../../contract/paths';

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
  // The application's name heads the list; an unknown id is "not found", not an empty list.
  loader: async ({ params: { applicationId }, context }) => {
    await loadPermissions();
    if (!permissionsOfSession(context.session)('read', 'Application')) return;
    await queryClient.ensureQueryData(applicationQuery(applicationId));
  },
  component: ApplicationAssetsScreen,
  errorComponent: ApplicationLoadFailed,
});

/** The assets of one application, in the order the application offers them: drag to reorder. */
function ApplicationAssetsScreen() {
  const { applicationId } = Route.useParams();
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
    [applicationId, name],
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

/** The application could not be read: not found, or a failure that may pass (then Retry). */
function ApplicationLoadFailed(props: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <RecordLoadFailed
      {...props}
      notFoundTitle={t('applications.notFoundTitle')}
      notFound={t('applications.notFound')}
      failedTitle={t('applications.loadFailedTitle')}
      section={t('applications.title')}
      back={<Link to="/applications">{t('applications.back')}</Link>}
    />
  );
}

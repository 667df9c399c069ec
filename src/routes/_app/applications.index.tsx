import type { TFunction } from 'i18next';
import { createFileRoute, Link } from '@tanstack/react-router';
import { exportApplicationAssets } from '../../api/assets';
import { defineList } from '../../api/list-url';
import { applicationRowSchema, type ApplicationRow } from '../../api/schemas';
import { downloadBlob } from '../../ui/dom/download';
import { searchFilter } from '../../ui/dom/list/asset-filters';
import { dateColumn } from '../../ui/dom/list/columns';
import { ListScreen, type ListScreenConfig } from '../../machines/list.view';
import type { Can } from '../../api/ability';
import { TrashBulkActions, trashRowAction } from './-trash-actions';

const list = defineList({
  sortFields: ['name', 'createdAt'],
  defaultOrder: { name: 'asc' },
});

export const Route = createFileRoute('/_app/applications/')({
  validateSearch: list.validateSearch,
  component: () => <ListScreen config={applicationsList} />,
});

/** What the list shows, in the user's language. */
const applicationsList = (t: TFunction, can: Can): ListScreenConfig<ApplicationRow> => ({
  title: t('applications.title'),
  requires: ['read', 'Application'],
  endpoint: 'v1/applications',
  rowSchema: applicationRowSchema,
  ...list,
  rowLabel: (a) => a.name,
  filters: [searchFilter(t)],
  columns: [
    {
      field: 'name',
      headerName: t('assets.name'),
      sortable: true,
      render: (a) => (
        <Link to="/applications/$applicationId/assets" params={{ applicationId: a.id }}>
          {a.name}
        </Link>
      ),
    },
    dateColumn('createdAt', t('assets.created')),
  ],
  rowActions: (application, list) => [
    {
      title: t('assets.exportAssets'),
      onAction: () =>
        void list.run(
          async () => {
            const file = await exportApplicationAssets(application.id);
            downloadBlob(file.blob, file.filename);
          },
          { done: t('toasts.exported', { name: application.name }) },
        ),
    },
    ...(can('delete', 'Application') ? [trashRowAction(t, 'application', application, list)] : []),
  ],
  ...(can('delete', 'Application') && {
    bulkActions: (ids, list) => <TrashBulkActions kind="application" ids={ids} list={list} />,
  }),
});

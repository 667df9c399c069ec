import type { TFunction } from 'i18next';
import { createFileRoute, Link } from '@tanstack/react-router';
import { exportApplicationAssets } from '../../api/assets';
import { defineList, searchOnly } from '../../api/list-url';
import { applicationRowSchema, type ApplicationRow } from '../../api/schemas';
import { downloadBlob } from '../../ui/dom/download';
import { dateCell } from '../../ui/dom/list/cells';
import { searchFilter } from '../../ui/dom/list/asset-filters';
import { ListScreen, type ListScreenConfig } from '../../machines/list.view';

const list = defineList({
  filterSchema: searchOnly,
  sortFields: ['name', 'createdAt'],
  defaultOrder: { name: 'asc' },
  mode: 'paged',
});

export const Route = createFileRoute('/_app/applications/')({
  validateSearch: list.validateSearch,
  component: ApplicationsScreen,
});

function ApplicationsScreen() {
  return <ListScreen config={applicationsList} />;
}

/** What the list shows, in the user's language. */
const applicationsList = (t: TFunction): ListScreenConfig<ApplicationRow> => ({
  title: t('applications.title'),
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
    {
      field: 'createdAt',
      headerName: t('assets.created'),
      sortable: true,
      render: (a) => dateCell(a.createdAt),
    },
  ],
  rowActions: (application, list) => [
    {
      title: t('assets.exportAssets'),
      onAction: () =>
        void list.run(async () => {
          const file = await exportApplicationAssets(application.id);
          downloadBlob(file.blob, file.filename);
        }),
    },
  ],
});

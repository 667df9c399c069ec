import type { TFunction } from 'i18next';
import { useCallback, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { addApplication } from '../../../api/mutations';
import { exportApplicationAssets } from '../../assets';
import type { ListDefinition } from '../../../api/list-url';
import { applicationRowSchema, type ApplicationRow } from '../../../../contract/schemas';
import { downloadBlob } from '../../../ui/dom/download';
import { searchFilter } from '../../../ui/dom/list/asset-filters';
import { dateColumn } from '../../../ui/dom/list/columns';
import { SchemaForm } from '../../../ui/dom/schema-form';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../../machines/list.view';
import type { Can } from '../../../../contract/ability';
import { RenameDialog } from '../../../machines/rename-dialog.view';
import { TrashBulkActions, trashRowAction } from '../../../machines/trash-actions.view';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

const newApplicationForm = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'form.required'), z.maxLength(80, 'applications.tooLong')),
});

/** A rename in progress: the application as the list showed it, and that list. */
interface Renaming {
  record: ApplicationRow;
  list: ListControls;
}

/**
 * The applications list: its columns, the new application form, rename, export and Trash. The
 * route declares `list`, the search it validates (sort fields, default order).
 */
export function ApplicationsList({ list }: { list: ListDefinition }) {
  const [renaming, setRenaming] = useState<Renaming | null>(null);
  const config = useCallback(
    (t: TFunction, can: Can) =>
      applicationsList(t, can, list, (record, controls) => setRenaming({ record, list: controls })),
    [list],
  );
  return (
    <>
      <ListScreen config={config} />
      {renaming && (
        <RenameDialog kind="application" {...renaming} onClose={() => setRenaming(null)} />
      )}
    </>
  );
}

/** What the list shows, in the user's language; `rename` opens the rename dialog (admins). */
const applicationsList = (
  t: TFunction,
  can: Can,
  list: ListDefinition,
  rename: (application: ApplicationRow, list: ListControls) => void,
): ListScreenConfig<ApplicationRow> => ({
  title: t('applications.title'),
  requires: ['read', 'Application'],
  endpoint: endpoint(ENDPOINTS.applications),
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
  // Creating and renaming define the catalogue's applications: `manage Application` (admins).
  toolbar: (list) =>
    can('manage', 'Application') && (
      <SchemaForm
        layout="inline"
        label={t('applications.new')}
        schema={newApplicationForm}
        defaultValues={{ name: '' }}
        fields={[
          { name: 'name', label: t('applications.name'), placeholder: t('applications.new') },
        ]}
        submitLabel={t('applications.add')}
        pendingLabel={t('applications.adding')}
        resetOnSuccess
        onSubmit={({ name }) =>
          list.run(
            () => addApplication(name),
            (application) => ({
              done: t('toasts.applicationCreated', { name }),
              created: { id: application.id },
            }),
          )
        }
      />
    ),
  rowActions: (application, list) => [
    ...(can('manage', 'Application')
      ? [{ title: t('applications.rename'), onAction: () => rename(application, list) }]
      : []),
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

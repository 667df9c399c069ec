import type { TFunction } from 'i18next';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod/mini';
import type { ListDefinition } from '../../../api/list-url';
import {
  TRASH_KINDS,
  trashRowSchema,
  type TrashKind,
  type TrashRef,
  type TrashRow,
} from '../../../../contract/schemas';
import { deleteForEver, restoreFromTrash } from '../../../api/trash';
import { BulkJobsInProgress, runBulkJob, useAllMatching } from '../../../machines/bulk-jobs.view';
import {
  ListScreen,
  type BulkScope,
  type ListControls,
  type ListScreenConfig,
} from '../../../machines/list.view';
import { ActionButton } from '../../../ui/dom/action-button';
import { searchFilter } from '../../../ui/dom/list/asset-filters';
import { dateColumn } from '../../../ui/dom/list/columns';
import { personIcon, typeIcon } from '../../../ui/dom/list/filter-icons';
import { FormDialog, type ActionMenuItem } from '../../../ui/dom/list/row-menu';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

/**
 * The Trash: every trashed record the caller may delete, restored or deleted for ever one by
 * one or together. The route declares `list`, the search it validates (filters, sort fields,
 * default order).
 */
export function TrashList({ list }: { list: ListDefinition }) {
  const config = useCallback((t: TFunction) => trashList(t, list), [list]);
  return <ListScreen config={config} />;
}

/** A row of the screen: records of different kinds may share an id, so the row id holds both. */
type Row = TrashRow & { record: TrashRef };
const rowSchema = z.pipe(
  trashRowSchema,
  z.transform((row): Row => ({ ...row, id: `${row.kind}:${row.id}`, record: row })),
);
/** The record a row id (`kind:id`) stands for. */
function recordOf(rowId: string): TrashRef {
  const at = rowId.indexOf(':');
  return { kind: rowId.slice(0, at) as TrashKind, id: rowId.slice(at + 1) };
}

/** What the list shows, in the user's language. */
const trashList = (t: TFunction, list: ListDefinition): ListScreenConfig<Row> => ({
  title: t('trash.title'),
  // Only admins may delete today; the server lists just the kinds the caller may delete.
  requires: ['delete', 'Asset'],
  endpoint: endpoint(ENDPOINTS.trash),
  rowSchema,
  ...list,
  rowLabel: (row) => row.name,
  filters: [
    searchFilter(t),
    {
      field: 'kind',
      type: 'multi-select',
      label: t('trash.kind'),
      icon: typeIcon,
      options: TRASH_KINDS.map((kind) => ({ value: kind, label: t(`trash.kinds.${kind}`) })),
    },
    {
      field: 'deletedBy',
      type: 'autocomplete',
      label: t('trash.deletedBy'),
      icon: personIcon,
      endpoint: endpoint(ENDPOINTS.users),
      displayField: 'email',
      multiple: true,
      limitTags: 1,
    },
  ],
  columns: [
    { field: 'name', headerName: t('trash.name'), sortable: true },
    {
      field: 'kind',
      headerName: t('trash.kind'),
      sortable: true,
      render: (row) => t(`trash.kinds.${row.kind}`),
    },
    dateColumn('deletedAt', t('trash.deletedAt')),
    {
      field: 'deletedByEmail',
      headerName: t('trash.deletedBy'),
      render: (row) => row.deletedByEmail ?? t('trash.unknownUser'),
    },
    { ...dateColumn('purgeAt', t('trash.purgeAt')), sortable: false },
  ],
  // Restores of every record the filter matches run as a job; its progress shows here.
  toolbar: (list) => <BulkJobsInProgress list={list} />,
  bulkActions: (ids, list, scope) => <TrashBulkActions ids={ids} list={list} scope={scope} />,
  rowActions: (row, list) => [restoreAction(t, row, list), deleteForEverAction(t, row, list)],
});

function restoreAction(t: TFunction, row: Row, list: ListControls): ActionMenuItem<Row> {
  return {
    title: t('trash.restore'),
    onAction: () =>
      void list.run(() => restoreFromTrash([row.record]), {
        done: t('trash.restored', { name: row.name }),
      }),
  };
}

function deleteForEverAction(t: TFunction, row: Row, list: ListControls): ActionMenuItem<Row> {
  return {
    title: t('trash.deleteForEver'),
    color: 'danger',
    confirm: {
      title: t('trash.deleteForEverTitle', { name: row.name }),
      body: t('trash.deleteForEverBody'),
      confirmLabel: t('trash.deleteForEver'),
    },
    onAction: () =>
      void list.run(() => deleteForEver([row.record]), {
        done: t('trash.deletedForEver', { name: row.name }),
      }),
  };
}

/**
 * Restore or delete for ever the selected records, all or none. With the whole page selected
 * it offers every record the filter matches, restored by a job on the server (deleting for
 * ever stays with the records selected: the server runs no such job).
 */
function TrashBulkActions({
  ids,
  list,
  scope,
}: {
  ids: string[];
  list: ListControls;
  scope: BulkScope;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const { allMatching, label, offer, reset } = useAllMatching(ids, scope, 'trash');
  const count = ids.length;
  const records = ids.map(recordOf);
  const restore = () =>
    allMatching
      ? void runBulkJob(list, scope, { action: 'restore' }).then((started) => started && reset())
      : void list.run(() => restoreFromTrash(records), {
          done: t('trash.bulkRestored', { count }),
        });
  return (
    <div className="bulk-actions" role="toolbar" aria-label={label}>
      <strong>{label}</strong>
      {offer}
      <ActionButton onPress={restore}>{t('trash.restore')}</ActionButton>
      {!allMatching && (
        <ActionButton variant="danger" onPress={() => setConfirming(true)}>
          {t('trash.deleteForEver')}
        </ActionButton>
      )}
      <FormDialog
        isOpen={confirming}
        onClose={() => setConfirming(false)}
        title={t('trash.bulkDeleteForEverTitle', { count })}
        submitLabel={t('trash.deleteForEver')}
        cancelLabel={t('list.cancel')}
        tone="danger"
        onSubmit={() => {
          setConfirming(false);
          void list.run(() => deleteForEver(records), {
            done: t('trash.bulkDeletedForEver', { count }),
          });
        }}
      >
        <p>{t('trash.bulkDeleteForEverBody')}</p>
      </FormDialog>
    </div>
  );
}

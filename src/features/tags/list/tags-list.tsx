import type { TFunction } from 'i18next';
import { useCallback, useState } from 'react';
import { z } from 'zod/mini';
import type { ListDefinition } from '../../../api/list-url';
import { tagRowSchema, type TagRow } from '../../../../contract/schemas';
import { addTag, trashTag } from '../../../api/mutations';
import { restoreFromTrash } from '../../../api/trash';
import { SchemaForm } from '../../../ui/dom/schema-form';
import { searchFilter } from '../../../ui/dom/list/asset-filters';
import { dateColumn } from '../../../ui/dom/list/columns';
import type { Can } from '../../../../contract/ability';
import { ListScreen, type ListControls, type ListScreenConfig } from '../../../machines/list.view';
import type { ActionMenuItem } from '../../../ui/dom/list/row-menu';
import { RenameDialog } from '../../../machines/rename-dialog.view';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

const newTagForm = z.object({
  name: z
    .string()
    .check(z.trim(), z.minLength(1, 'form.required'), z.maxLength(60, 'tags.tooLong')),
});

/** A rename in progress: the tag as the list showed it, and the list it was chosen in. */
interface Renaming {
  record: TagRow;
  list: ListControls;
}

/**
 * The tags list: its columns, the new tag form, rename and delete. The route declares `list`,
 * the search it validates (sort fields, default order).
 */
export function TagsList({ list }: { list: ListDefinition }) {
  const [renaming, setRenaming] = useState<Renaming | null>(null);
  const config = useCallback(
    (t: TFunction, can: Can) =>
      tagsList(t, can, list, (record, controls) => setRenaming({ record, list: controls })),
    [list],
  );
  return (
    <>
      <ListScreen config={config} />
      {renaming && <RenameDialog kind="tag" {...renaming} onClose={() => setRenaming(null)} />}
    </>
  );
}

/** What the list shows, in the user's language; `rename` opens the rename dialog. */
const tagsList = (
  t: TFunction,
  can: Can,
  list: ListDefinition,
  rename: (tag: TagRow, list: ListControls) => void,
): ListScreenConfig<TagRow> => ({
  title: t('tags.title'),
  requires: ['read', 'Tag'],
  endpoint: endpoint(ENDPOINTS.tags),
  rowSchema: tagRowSchema,
  ...list,
  rowLabel: (tag) => tag.name,
  filters: [searchFilter(t)],
  columns: [
    { field: 'name', headerName: t('tags.name'), sortable: true },
    {
      field: 'assetCount',
      headerName: t('tags.assets'),
      sortable: true,
      headerAlign: 'right',
      cellAlign: 'right',
    },
    dateColumn('createdAt', t('assets.created')),
  ],
  toolbar: (list) =>
    can('create', 'Tag') && (
      <SchemaForm
        layout="inline"
        label={t('tags.new')}
        schema={newTagForm}
        defaultValues={{ name: '' }}
        fields={[{ name: 'name', label: t('tags.name'), placeholder: t('tags.new') }]}
        submitLabel={t('tags.add')}
        pendingLabel={t('tags.adding')}
        resetOnSuccess
        onSubmit={({ name }) =>
          list.run(
            () => addTag(name),
            (tag) => ({ done: t('toasts.tagCreated', { name }), created: { id: tag.id } }),
          )
        }
      />
    ),
  rowActions: (tag, list) => [
    ...(can('update', 'Tag')
      ? [{ title: t('tags.rename'), onAction: () => rename(tag, list) }]
      : []),
    ...(can('delete', 'Tag') ? [deleteAction(t, tag, list)] : []),
  ],
});

function deleteAction(t: TFunction, tag: TagRow, list: ListControls): ActionMenuItem<TagRow> {
  return {
    title: t('assets.delete'),
    color: 'danger',
    confirm: {
      title: t('tags.deleteTitle', { name: tag.name }),
      body: t('tags.deleteBody', { count: tag.assetCount }),
      confirmLabel: t('assets.delete'),
    },
    onAction: () =>
      void list.run(() => trashTag(tag.id), {
        done: t('toasts.tagDeleted', { name: tag.name }),
        undo: {
          run: () => restoreFromTrash([{ kind: 'tag', id: tag.id }]),
          done: t('toasts.tagRestored', { name: tag.name }),
        },
      }),
  };
}

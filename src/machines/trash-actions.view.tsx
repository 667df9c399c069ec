/**
 * Moving records to the Trash from the lists and pages of the kinds whose delete is the
 * Trash's own (cage meshes, applications, morphed assets), and the retention the delete dialogs
 * name. Nothing here is permanent, so nothing asks first: the toast says where the record went
 * and its Undo brings it back.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { servicesQuery } from '../api/services';
import { moveToTrash, restoreFromTrash, type TrashedKind } from '../api/trash';
import {
  announceFailure,
  announceOutcome,
  type ChangeOutcome,
  type ListControls,
} from './list.view';
import { ActionButton } from '../ui/dom/action-button';
import type { ActionMenuItem } from '../ui/dom/list/row-menu';

/** "Moved to the Trash", with the Undo that restores what went. */
export function trashOutcome(
  t: TFunction,
  kind: TrashedKind,
  names: { one: string } | { count: number },
): (moved: { id: string }[]) => ChangeOutcome {
  return (moved) => ({
    done: 'one' in names ? t('trash.moved', { name: names.one }) : t('trash.bulkMoved', names),
    undo: {
      run: () => restoreFromTrash(moved.map(({ id }) => ({ kind, id }))),
      done:
        'one' in names
          ? t('trash.restored', { name: names.one })
          : t('trash.bulkRestored', { count: moved.length }),
    },
  });
}

/** The row menu's Delete: the record moves to the Trash. */
export function trashRowAction<Row extends { id: string; name: string }>(
  t: TFunction,
  kind: TrashedKind,
  row: Row,
  list: ListControls,
): ActionMenuItem<Row> {
  return {
    title: t('trash.delete'),
    color: 'danger',
    onAction: () =>
      void list.run(() => moveToTrash(kind, [row.id]), trashOutcome(t, kind, { one: row.name })),
  };
}

/** The bulk bar of such a list: the selected records move to the Trash together, or none. */
export function TrashBulkActions(props: { kind: TrashedKind; ids: string[]; list: ListControls }) {
  const { t } = useTranslation();
  const count = props.ids.length;
  return (
    <div className="bulk-actions" role="toolbar" aria-label={t('bulk.selected', { count })}>
      <ActionButton
        variant="danger"
        onPress={() =>
          void props.list.run(
            () => moveToTrash(props.kind, props.ids),
            trashOutcome(t, props.kind, { count }),
          )
        }
      >
        {t('trash.delete')}
      </ActionButton>
    </div>
  );
}

/** "The Trash keeps it N days", N from the server's TRASH_RETENTION_DAYS. */
export function TrashRetention() {
  const { t } = useTranslation();
  const days = useQuery(servicesQuery()).data?.trashRetentionDays;
  return days === undefined ? t('trash.retentionUnknown') : t('trash.retention', { count: days });
}

/**
 * A record page's Delete: the record moves to the Trash and the page leaves (`onMoved`); the
 * toast outlives the page and its Undo restores the record.
 */
export function TrashButton(props: {
  kind: TrashedKind;
  record: { id: string; name: string };
  onMoved: () => unknown;
}) {
  const { t } = useTranslation();
  const { kind, record } = props;
  const move = useMutation({
    mutationFn: () => moveToTrash(kind, [record.id]),
    onSuccess: (moved) => {
      announceOutcome(trashOutcome(t, kind, { one: record.name })(moved), t);
      return props.onMoved();
    },
    onError: (error) => announceFailure(error, t),
  });
  return (
    <ActionButton variant="danger" isPending={move.isPending} onPress={() => move.mutate()}>
      {t('trash.delete')}
    </ActionButton>
  );
}

import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { announce } from '../ui/dom/toasts';
import type { ListActor } from './list.actor.view';

/**
 * Moving rows: the table's menu and drag handles send the move; a stored move says where the
 * row went and puts it back on Undo, a refused one says so.
 */
export function useListReorder<Row extends { id: string }>(
  actor: ListActor,
  rowLabel: (row: Row) => string,
) {
  const { t } = useTranslation();
  useEffect(() => {
    const failed = actor.on('REORDER_FAILED', () =>
      announce({ title: t('list.reorderFailed'), tone: 'error' }),
    );
    const moved = actor.on('REORDERED', ({ id, position, previousPosition }) => {
      const row = actor.getSnapshot().context.rows.find((r) => r.id === id) as Row | undefined;
      announce({
        title: t('list.moved', { name: row ? rowLabel(row) : id, position }),
        tone: 'success',
        action: {
          label: t('list.undo'),
          onAction: () => actor.send({ type: 'SET_ORDER', id, position: previousPosition }),
        },
      });
    });
    return () => {
      failed.unsubscribe();
      moved.unsubscribe();
    };
  }, [actor, t, rowLabel]);
  const setOrder = useCallback(
    (row: Row, position: number) => actor.send({ type: 'SET_ORDER', id: row.id, position }),
    [actor],
  );
  const move = useCallback(
    (id: string, toIndex: number) => actor.send({ type: 'MOVE', id, toIndex }),
    [actor],
  );
  return { setOrder, move };
}

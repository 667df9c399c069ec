import { useEffect, useMemo, useRef } from 'react';
import {
  useDragAndDrop,
  type DragAndDropOptions,
  type DropTarget,
  type Key,
} from 'react-aria-components';

/** The new index of row `from` dropped at `target`, or null for a target that is not a row gap. */
export function reorderIndex(
  ids: readonly string[],
  from: number,
  target: DropTarget,
): number | null {
  if (target.type !== 'item' || target.dropPosition === 'on') return null;
  const index = ids.indexOf(String(target.key));
  if (index < 0) return null;
  const gap = target.dropPosition === 'after' ? index + 1 : index;
  return from < gap ? gap - 1 : gap;
}

/** The drag type that names the dragged row. */
const rowType = (id: string) => `application/x-row-id+${id.toLowerCase()}`;

interface Drag {
  id: string;
  /** The drop position the keyboard or pointer is at now. */
  target: DropTarget | null;
}

/**
 * Drag reordering of the rows `ids` by mouse, touch and keyboard (React Aria); `onMove` gets the
 * row and its new index.
 *
 * Two keyboard traps of React Aria's defaults are closed here. A drag starts at the gap after
 * the row, and the gap before it is another drop position that moves nothing, so the first
 * press up did nothing: that gap is no drop position, and each arrow press moves the row by one
 * place. And an arrow past the first or last place wraps round to the other end of the list (a
 * row sent to the bottom by a press up): at the ends the arrow is kept from React Aria.
 */
export function useRowReorder(
  ids: readonly string[],
  onMove?: (id: string, toIndex: number) => void,
) {
  const drag = useRef<Drag | null>(null);
  const idsRef = useRef(ids);
  useEffect(() => {
    idsRef.current = ids;
  });
  // The options change only with the rows and the owner's move, so the hooks (and the table
  // they are handed to) stay the same while other things render.
  const options: DragAndDropOptions<object> = useMemo(
    () => ({
      // The dragged row's id also travels as a type of its own: the drop checks read the types.
      getItems: (keys) => {
        const id = String([...keys][0] ?? '');
        drag.current = { id, target: null };
        return [{ 'text/plain': id, [rowType(id)]: id }];
      },
      onDragEnd: () => {
        drag.current = null;
      },
      onDropEnter: (event) => {
        if (drag.current) drag.current.target = event.target;
      },
      getDropOperation: (target, types) => {
        if (target.type !== 'item' || target.dropPosition === 'on') return 'move';
        const isDragged = (key: Key | undefined) =>
          key !== undefined && types.has(rowType(String(key)));
        const index = ids.indexOf(String(target.key));
        // The gap after the dragged row is where a drag starts (React Aria's default); the gap
        // before it means the same place (no move), so it is no drop position.
        const gapBefore =
          target.dropPosition === 'before' ? isDragged(target.key) : isDragged(ids[index + 1]);
        return gapBefore ? 'cancel' : 'move';
      },
      onReorder: (event) => {
        const moved = [...event.keys][0];
        if (moved === undefined) return;
        const from = ids.indexOf(String(moved));
        const to = from < 0 ? null : reorderIndex(ids, from, event.target);
        if (to !== null && to !== from) onMove?.(String(moved), to);
      },
    }),
    [ids, onMove],
  );
  const { dragAndDropHooks } = useDragAndDrop<object>(options);
  useEffect(() => {
    // Before React Aria's own key handler (document, capture phase).
    const onKeyDown = (event: KeyboardEvent) => {
      const current = drag.current;
      if (!current?.target || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
      const rows = idsRef.current;
      const to = reorderIndex(rows, rows.indexOf(current.id), current.target);
      const atEnd = event.key === 'ArrowUp' ? to === 0 : to === rows.length - 1;
      if (!atEnd) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);
  return dragAndDropHooks;
}

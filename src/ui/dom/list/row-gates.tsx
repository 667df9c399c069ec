import { Fragment, useContext, useState, type ReactNode } from 'react';
import {
  CollectionRendererContext,
  DefaultCollectionRenderer,
  DragAndDropContext,
  TableColumnResizeStateContext,
  TableStateContext,
  type Key,
} from 'react-aria-components';

/*
 * React Aria's Table hands every row and cell a new table state (TableStateContext) and a new
 * drag and drop context whenever it renders, so a focus moving from one row to the next, a
 * menu opening in a row or one checkbox pressed renders every row and cell of the page again.
 * The renderer below stands between the table's body and its rows: each row keeps the state
 * object it last rendered with until something that row shows changes (its selection, its
 * focus, the rows themselves, the selection mode; see `rowShows`), so only the rows concerned
 * render. The header's column headers are gated the same way (their sort and focus; see
 * `columnShows`).
 *
 * A row that keeps an older state must still act on the current one: its handlers read the
 * state (and its selection manager) they rendered with, and React Aria registers each state
 * object for the grid's id and keyboard navigation. So the kept objects stay the same objects
 * and take the current state's fields on every render of the body: a press on a kept row's
 * checkbox toggles the current selection, never the one of its last render.
 */

type TableState = NonNullable<React.ContextType<typeof TableStateContext>>;
type ResizeState = React.ContextType<typeof TableColumnResizeStateContext>;
type Manager = TableState['selectionManager'];
type Renderer = React.ContextType<typeof CollectionRendererContext>;
type BranchProps = React.ComponentProps<Renderer['CollectionBranch']>;
type CollectionNode = BranchProps['parent'];

interface Kept {
  state: TableState;
  /** The kept state's own manager: the one its row's handlers hold. */
  manager: Manager;
  shows: unknown[];
}

/** What a row draws from the table's state: when any of it changes, the row renders again. */
function rowShows(state: TableState, key: Key): unknown[] {
  const manager = state.selectionManager;
  const focused = manager.focusedKey;
  const holdsFocus =
    focused != null && (focused === key || state.collection.getItem(focused)?.parentKey === key);
  return [
    state.collection,
    // A new set on every render of the table, whether anything is expanded or not.
    state.expandedKeys.has(key),
    state.isKeyboardNavigationDisabled,
    state.showSelectionCheckboxes,
    manager.selectionMode,
    manager.selectionBehavior,
    manager.disallowEmptySelection,
    manager.disabledKeys,
    // In toggle selection, a press on a row acts or selects as the selection is empty or not.
    manager.isEmpty,
    manager.isSelected(key),
    manager.isDisabled(key),
    // Only the row that holds the focus (itself or one of its cells) shows it.
    holdsFocus ? focused : null,
    holdsFocus && manager.isFocused,
    holdsFocus ? manager.childFocusStrategy : null,
  ];
}

/**
 * What a column header draws from the table's state: its sort, its focus, the table emptying
 * (headers are not focusable then). The select-all checkbox takes the selection through a
 * context of the header row, so it follows the selection on its own.
 */
function columnShows(state: TableState, key: Key): unknown[] {
  const manager = state.selectionManager;
  const focused = manager.focusedKey === key;
  return [
    state.collection,
    state.sortDescriptor?.column,
    state.sortDescriptor?.direction,
    state.isKeyboardNavigationDisabled,
    manager.selectionMode,
    focused,
    focused && manager.isFocused,
    focused ? manager.childFocusStrategy : null,
  ];
}

const same = (a: unknown[], b: unknown[]) => a.every((value, i) => Object.is(value, b[i]));

// Nothing to drag or drop: only a table without drag and drop hooks has its rows gated.
const NO_DRAG_AND_DROP = {};

/**
 * The children of a body (its rows) or a header row (its columns) for the table's current
 * state, each under the state it keeps. Made once per branch: it remembers each child's state,
 * and the element React Aria made for each node (as its default renderer does).
 */
function gatedChildren(kind: 'item' | 'column', showsOf: typeof rowShows) {
  const kept = new Map<Key, Kept>();
  const elements = new WeakMap<CollectionNode, ReactNode>();
  return ({ collection, parent }: BranchProps, current: TableState) => {
    const children: ReactNode[] = [];
    const refreshed = new Set<Kept>();
    const shown = new Set<Key>();
    for (const node of collection.getChildren?.(parent.key) ?? []) {
      let element = elements.get(node);
      if (element === undefined) {
        element = node.render?.(node) ?? null;
        elements.set(node, element);
      }
      if (node.type !== kind) {
        // The rows still to load (TableLoadMoreItem): as React Aria renders it.
        children.push(<Fragment key={node.key}>{element}</Fragment>);
        continue;
      }
      shown.add(node.key);
      const shows = showsOf(current, node.key);
      let row = kept.get(node.key);
      if (!row || !same(row.shows, shows)) {
        row = { state: current, manager: current.selectionManager, shows };
        kept.set(node.key, row);
      } else if (row.state !== current && !refreshed.has(row)) {
        refreshed.add(row);
        Object.assign(row.manager, current.selectionManager);
        Object.assign(row.state, current, { selectionManager: row.manager });
      }
      children.push(
        <TableStateContext.Provider key={node.key} value={row.state}>
          <DragAndDropContext.Provider value={NO_DRAG_AND_DROP}>
            {element}
          </DragAndDropContext.Provider>
        </TableStateContext.Provider>,
      );
    }
    for (const key of kept.keys()) if (!shown.has(key)) kept.delete(key);
    return children;
  };
}

function GatedBody(props: BranchProps) {
  const current = useContext(TableStateContext)!;
  const [rows] = useState(() => gatedChildren('item', rowShows));
  return rows(props, current);
}

/**
 * The column widths of a resizable table as its headers last rendered with them: React Aria
 * makes them anew with every table state, which every header reads. Kept (and given the
 * current fields, so a resize acts on the current state) until the widths or the column being
 * resized change.
 */
function keptResizeState() {
  let kept: ResizeState = null;
  return (current: ResizeState) => {
    if (
      !kept ||
      !current ||
      kept.columnWidths !== current.columnWidths ||
      kept.resizingColumn !== current.resizingColumn
    ) {
      kept = current;
    } else if (kept !== current) {
      Object.assign(kept, current);
    }
    return kept;
  };
}

function GatedHeaderRow(props: BranchProps) {
  const current = useContext(TableStateContext)!;
  const resize = useContext(TableColumnResizeStateContext);
  const [columns] = useState(() => gatedChildren('column', columnShows));
  const [resizeState] = useState(keptResizeState);
  return (
    <TableColumnResizeStateContext.Provider value={resizeState(resize)}>
      {columns(props, current)}
    </TableColumnResizeStateContext.Provider>
  );
}

const defaultBranch = DefaultCollectionRenderer.CollectionBranch as (
  props: BranchProps,
) => ReactNode;

/**
 * The collection renderer of a table without drag and drop that draws all its rows (not
 * virtualised): its body's rows render only when what they show changes.
 */
const GATED_ROWS: Renderer = {
  ...DefaultCollectionRenderer,
  CollectionBranch(props: BranchProps) {
    // The same branch of this for a component's whole life: a body stays a body.
    if (props.parent.type === 'tablebody') return <GatedBody {...props} />;
    if (props.parent.type === 'headerrow') return <GatedHeaderRow {...props} />;
    return defaultBranch(props);
  },
};

/** Renders the table in it with rows that render only when what they show changes. */
export function GatedRows({ children }: { children: ReactNode }) {
  return (
    <CollectionRendererContext.Provider value={GATED_ROWS}>
      {children}
    </CollectionRendererContext.Provider>
  );
}

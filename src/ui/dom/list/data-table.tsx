import {
  Fragment,
  memo,
  useCallback,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type PointerEvent,
  type ReactNode,
} from 'react';
import {
  ProgressBar,
  ResizableTableContainer,
  Table,
  TableLayout,
  Virtualizer,
  type Key,
  type SortDescriptor,
} from 'react-aria-components';
import type { ListOrder } from '../../../../contract/list-query';
import { repairColumnLayout, useColumnLayout, type ColumnLayout } from './column-layout';
import type { ListColumn } from './columns';
import { defaultColumnWidth, measureWhenRowsShow, type NaturalWidth } from './column-widths';
import { useHeldWhilePressed } from '../held-while-pressed';
import { PHONE_QUERY, useMediaQuery } from '../use-media-query';
import { useBody } from './data-table-body';
import type { DataTableLabels } from './data-table-labels';
import { useHeader } from './data-table-header';
import type { ActionMenuItem } from './row-menu';
import { GatedRows } from './row-gates';
import { useRowReorder } from './row-reorder';

interface DataTableProps<Row extends { id: string }> {
  columns: ListColumn<Row>[];
  /**
   * The list's name the user's column layout is remembered by (column-layout.ts): given, the
   * table shows the columns as the user arranged them and their edges resize.
   */
  layoutKey?: string;
  rows: Row[];
  labels: DataTableLabels;
  /** A readable name per row, for the drag handle and menu labels. */
  rowLabel: (row: Row) => string;
  /** Spec §3 order state; the owner decides the next direction (onSort names the column). */
  order?: ListOrder;
  onSort?: (field: string) => void;
  /** Row selection for bulk actions: a checkbox per row and one for the whole page. */
  selection?: RowSelection;
  /** Per-row action menu (spec §3 action menu items). */
  rowActions?: (row: Row) => ActionMenuItem<Row>[];
  onSetOrder?: (row: Row, position: number) => void;
  /** Drag reordering: a handle on the first cell; `toIndex` is the row's new index. */
  onMove?: (id: string, toIndex: number) => void;
  isLoading?: boolean;
  /**
   * The rows answer the previous page or filter while the next one loads: skeleton rows stand
   * in for them until it arrives (only while `isLoading`).
   */
  isStale?: boolean;
  /** Skeleton rows while loading (the page limit); below the rows while more load. */
  skeletonRows?: number;
  showProgress?: boolean;
  isFiltered?: boolean;
  onClearFilters?: () => void;
  /** Infinite scroll: called when the end of the rows comes into view. */
  onLoadMore?: () => void;
  isLoadingMore?: boolean;
  /** Rows someone else deleted: shown marked, without their menu, until they go. */
  removedIds?: readonly string[];
  /** The row the user just created: marked, and scrolled into view when it is on this page. */
  createdId?: string;
}

/**
 * Which rows are selected (their ids), kept by the owner. A selection is of rows on screen:
 * when rows leave it (another page, filter or sort; a row someone deleted), the table hands
 * the owner the selection without them, and while skeleton rows stand in for the rows nothing
 * can be selected. So a bulk action never reaches a row the user cannot see.
 */
export interface RowSelection {
  selectedIds: ReadonlySet<string> | readonly string[];
  /** Every selected id after a checkbox press (this page's changes merged into the rest). */
  onChange: (ids: string[]) => void;
  /** The select-all checkbox's name; React Aria's localised "Select All" when left out. */
  selectAllLabel?: string;
  /**
   * A row checkbox's name before the row's own ("Select" reads "Select Olive Cyber");
   * React Aria's localised "Select" when left out.
   */
  selectLabel?: string;
  /**
   * Shown above the table while any row is selected, with every selected id: the screen
   * writes the count ("3 selected") and offers its bulk actions here.
   */
  bulkActions?: (selectedIds: string[]) => ReactNode;
}

/** React Aria's sort for the spec's order: its first sorted field. */
function sortDescriptorOf(order: ListOrder | undefined): SortDescriptor | undefined {
  const [sorted] = Object.entries(order ?? {}).filter(([, direction]) => direction);
  return (
    sorted && { column: sorted[0], direction: sorted[1] === 'desc' ? 'descending' : 'ascending' }
  );
}

/** Rows beyond which only the visible rows are rendered. */
const VIRTUALIZE_FROM = 300;
const ROW_HEIGHT = 56;

/**
 * The shared list table: sortable headers with aria-sort, per-row action menus, drag
 * reordering by mouse, touch and keyboard, skeleton rows, empty states and, for long
 * lists, row virtualisation. The owner keeps the sort and the selection (the list machine);
 * React Aria renders an accessible grid from them.
 */
function DataTableView<Row extends { id: string }>(props: DataTableProps<Row>) {
  const { labels, selection, layoutKey } = props;
  const layout = useShownLayout(props.columns, layoutKey);
  // Resizable columns have set widths: until the user sets some, they are the ones the content
  // gave them in the table's first look at its rows (measured once, column-widths.ts). A phone
  // shows the rows as cards, with no columns to size: it neither measures nor draws the table a
  // second time.
  const [natural, setNatural] = useState<Record<string, NaturalWidth>>();
  const phone = useMediaQuery(PHONE_QUERY);
  const sizesColumns = Boolean(layoutKey) && !phone;
  const resizable = sizesColumns && natural !== undefined;
  const columns = useMemo(
    () =>
      layout.columns.map((c, index) => {
        const measured = c.width === undefined ? natural?.[c.field] : undefined;
        return measured ? { ...c, ...defaultColumnWidth(index, measured) } : c;
      }),
    [layout.columns, natural],
  );
  const sortDescriptor = useMemo(() => sortDescriptorOf(props.order), [props.order]);
  // The rows, and whether they load, stay as they were while a pointer is pressed on the table:
  // a search's answer arriving under the press would move the pressed row, losing the click.
  const [shown, holdWhilePressed] = useHeldWhilePressed(
    useMemo(
      () => ({ rows: props.rows, isLoading: Boolean(props.isLoading), isStale: props.isStale }),
      [props.rows, props.isLoading, props.isStale],
    ),
  );
  const { rows, isLoading } = shown;
  // Not for a press on the header: nothing there moves with the rows, and a sort's skeleton rows
  // show with the sort it made instead of in renders of their own after the release.
  const holdUnlessHeader = useCallback(
    (event: PointerEvent) => {
      if (!(event.target as Element).closest('[role="columnheader"]')) holdWhilePressed();
    },
    [holdWhilePressed],
  );
  const showSkeleton = isLoading && (rows.length === 0 || Boolean(shown.isStale));
  // Ids of rows that left the screen would stay selected, out of sight, and a bulk action would
  // reach them: the table shows only the ids of rows on screen as selected and hands the owner
  // the selection without the others. Skeleton rows hide the rows they stand in for, so they
  // leave none.
  const shownIds = useMemo(
    () => new Set(showSkeleton ? [] : rows.map((row) => row.id)),
    [showSkeleton, rows],
  );
  const chosenIds = [...(selection?.selectedIds ?? [])];
  const selectedKey = chosenIds.filter((id) => shownIds.has(id)).join('\u0000');
  // Kept while the ids are the same: React Aria gives every row its table's new state when the
  // selection it is handed is a new set, and each row renders again.
  const selectedOnScreen = useMemo(
    () => (selectedKey ? selectedKey.split('\u0000') : []),
    [selectedKey],
  );
  const selectedKeys = useMemo(() => new Set(selectedOnScreen), [selectedOnScreen]);
  const onSelectionChange = selection?.onChange;
  const selectionChanged = useCallback(
    (keys: 'all' | Set<Key>) =>
      onSelectionChange?.(
        rows.filter((row) => keys === 'all' || keys.has(row.id)).map((row) => row.id),
      ),
    [onSelectionChange, rows],
  );
  const { onSort } = props;
  // The owner applies the spec's toggle; the table says which column was chosen.
  const sortChanged = useCallback(
    (descriptor: SortDescriptor) => onSort?.(String(descriptor.column)),
    [onSort],
  );
  const dropUnshown = useEffectEvent(() => {
    if (selectedOnScreen.length < chosenIds.length) selection?.onChange(selectedOnScreen);
  });
  const shownKey = [...shownIds].join('\u0000');
  const chosenKey = chosenIds.join('\u0000');
  useEffect(() => dropUnshown(), [shownKey, chosenKey]);
  const reorderable = Boolean(props.onMove);
  const dragAndDropHooks = useRowReorder(
    useMemo(() => rows.map((row) => row.id), [rows]),
    props.onMove,
  );
  const skeletonRows = props.skeletonRows ?? 10;
  const virtualized = rows.length > VIRTUALIZE_FROM;
  const gridRef = useRef<HTMLTableElement>(null);
  // React Aria's Table does not pass aria-busy on, so it goes onto the element it rendered
  // (a new one when the table switches to virtualised rows).
  useLayoutEffect(() => {
    if (isLoading) gridRef.current?.setAttribute('aria-busy', 'true');
    else gridRef.current?.removeAttribute('aria-busy');
  }, [isLoading, virtualized]);
  const measure = sizesColumns && natural === undefined && !showSkeleton && rows.length > 0;
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!measure || !grid) return;
    return measureWhenRowsShow(grid, setNatural);
  }, [measure]);
  const { rowLabel, rowActions, onSetOrder, removedIds, isFiltered, onClearFilters } = props;
  const { createdId } = props;
  const { isLoadingMore, onLoadMore } = props;
  const hasActions = Boolean(rowActions);
  const hasSelection = Boolean(selection);
  const selectAllLabel = selection?.selectAllLabel;
  const selectLabel = selection?.selectLabel;

  const header = useHeader(columns, {
    resizable,
    sortable: Boolean(props.onSort),
    reorderable,
    hasSelection,
    selectAllLabel,
    hasActions,
    labels,
  });
  const body = useBody({
    columns,
    rows,
    labels,
    rowLabel,
    rowActions,
    onSetOrder,
    removedIds,
    createdId,
    isFiltered,
    onClearFilters,
    onLoadMore,
    isLoadingMore,
    reorderable,
    hasSelection,
    selectLabel,
    showSkeleton,
    skeletonRows,
    virtualized,
  });

  // React Aria's table hands each row a new state whenever it renders, and every row renders
  // again: it renders only when what it shows changes, not when the bulk bar or a press does.
  const grid = useMemo(() => {
    const table = (
      <Table
        ref={gridRef}
        aria-label={labels.table}
        className={virtualized ? 'data-table virtualized' : 'data-table'}
        sortDescriptor={sortDescriptor}
        onSortChange={sortChanged}
        {...(hasSelection
          ? {
              // Nothing to select while skeleton rows stand in: the header checkbox would select
              // the rows they hide.
              selectionMode: showSkeleton ? ('none' as const) : ('multiple' as const),
              selectionBehavior: 'toggle' as const,
              // Only the checkboxes select: a press on the row (its name link, a cell) is not
              // a selection, so links in rows keep working while rows are selected.
              onRowAction: noRowAction,
              // This page's selected rows only, so the header checkbox speaks for this page.
              selectedKeys,
              onSelectionChange: selectionChanged,
            }
          : {})}
        // Constant for the table's life: React Aria calls hooks through it.
        dragAndDropHooks={reorderable ? dragAndDropHooks : undefined}
      >
        {header}
        {body}
      </Table>
    );
    // Its rows render only when what they show changes (row-gates.tsx); a virtualised table has
    // its own renderer, and dragging rows changes what each row shows while it lasts.
    return virtualized || reorderable ? table : <GatedRows>{table}</GatedRows>;
  }, [
    body,
    dragAndDropHooks,
    hasSelection,
    header,
    labels.table,
    reorderable,
    selectedKeys,
    selectionChanged,
    showSkeleton,
    sortChanged,
    sortDescriptor,
    virtualized,
  ]);

  // Kept while the grid and layout are: a press on the table renders this component (to hold
  // its rows), which would otherwise render the container and the table around the rows again.
  const table = useMemo(
    () =>
      resizable ? (
        <ResizableTableContainer
          // Another layout (a reset, a saved view, columns shown or moved) starts the table
          // afresh: React Aria's collection, updated in place, lost a column when columns
          // moved and one came back in the same change.
          key={layout.key}
          className="data-table-resizable"
          onResizeEnd={layout.resized}
        >
          {virtualized ? virtualize(grid) : grid}
        </ResizableTableContainer>
      ) : (
        // Keyed by the layout as the resizable container is (a phone's cards, a table before
        // its widths are measured): updated in place, React Aria's collection lost a column.
        <Fragment key={layout.key}>{virtualized ? virtualize(grid) : grid}</Fragment>
      ),
    [grid, layout.key, layout.resized, resizable, virtualized],
  );
  // Made again only when the selection or what the screen's actions need changes (not on a
  // press that holds the rows).
  const bulkActions = selection?.bulkActions;
  const bulkBar = useMemo(
    () => (selectedOnScreen.length > 0 ? bulkActions?.(selectedOnScreen) : undefined),
    [bulkActions, selectedOnScreen],
  );

  return (
    <>
      <div
        className="data-table-container"
        onPointerDownCapture={holdUnlessHeader}
        ref={resizable ? markOverflow : undefined}
      >
        {props.showProgress && isLoading && (
          <ProgressBar aria-label={labels.loading} isIndeterminate className="progress-bar">
            <div className="progress-bar-fill" />
          </ProgressBar>
        )}
        {table}
      </div>
      {/* After the rows, sticky at the bottom of the window, in a slot of its own height that
          a selectable list always keeps: the bar appears without moving a row, so a tap lands
          where the finger aimed, and the last row can still be scrolled clear of it. */}
      {bulkActions && (
        <div className="selection-bar-slot">
          {selectedOnScreen.length > 0 && (
            <div className="selection-bar" ref={keepToastsClear}>
              {bulkBar}
            </div>
          )}
        </div>
      )}
    </>
  );
}

const noRowAction = () => undefined;

const virtualize = (grid: ReactNode) => (
  <Virtualizer layout={TableLayout} layoutOptions={{ rowHeight: ROW_HEIGHT, headingHeight: 44 }}>
    {grid}
  </Virtualizer>
);

/**
 * The columns as the user's layout of this list shows them (all of them, as given, without a
 * `layoutKey`), and what a resize keeps. React Aria holds the widths while columns are
 * dragged; `key` changes when the layout's widths change from elsewhere, so the table takes
 * them up, but not when this table's own resize stored them (the resizer keeps its focus),
 * and when the columns shown or their order change.
 */
function useShownLayout<Row>(all: ListColumn<Row>[], layoutKey: string | undefined) {
  const [stored, setLayout] = useColumnLayout(layoutKey ?? '');
  const fields = useMemo(() => all.map((c) => c.field), [all]);
  const layout: ColumnLayout | undefined = useMemo(
    () => (layoutKey === undefined ? undefined : repairColumnLayout(stored, fields)),
    [layoutKey, stored, fields],
  );
  const columns = useMemo(() => {
    if (!layout) return all;
    const byField = new Map(all.map((c) => [c.field, c]));
    return layout.order.flatMap((field) => {
      const column = byField.get(field);
      if (!column || layout.hidden.includes(field)) return [];
      const width = layout.widths[field];
      return [width === undefined ? column : { ...column, width }];
    });
  }, [all, layout]);
  const widthsKey = JSON.stringify(layout?.widths ?? {});
  const [own, setOwn] = useState<string>();
  const [seen, setSeen] = useState(widthsKey);
  const [epoch, setEpoch] = useState(0);
  if (seen !== widthsKey) {
    setSeen(widthsKey);
    if (widthsKey !== own) setEpoch(epoch + 1);
  }
  // Kept while the layout is: React Aria hands its table a new state when the container's
  // handlers change, and every row and cell renders again (a press on the table re-renders
  // this component, to hold its rows).
  const resized = useCallback(
    (widths: Map<Key, number | string>) => {
      if (!layout) return;
      const next = { ...layout.widths };
      for (const [key, width] of widths) {
        if (typeof width === 'number' && fields.includes(String(key))) {
          next[String(key)] = Math.round(width);
        }
      }
      const repaired = repairColumnLayout({ ...layout, widths: next }, fields);
      setOwn(JSON.stringify(repaired.widths));
      setLayout(repaired);
    },
    [layout, fields, setLayout],
  );
  const key = `${epoch}:${columns.map((c) => c.field).join(',')}`;
  return { columns, key, resized };
}

/**
 * Marks the container while its resizable table is wider than it (columns resized wide; no other
 * table outgrows its place): a wide window's container clips, for headers that stick to the
 * window, so such a table scrolls instead.
 */
function markOverflow(container: HTMLDivElement | null) {
  if (!container || typeof ResizeObserver === 'undefined') return undefined;
  let table: Element | null = null;
  const check = () => {
    const now = container.querySelector('[role="grid"]');
    if (now !== table) {
      if (table) observer.unobserve(table);
      if (now) observer.observe(now);
      table = now;
    }
    const wider = table ? table.getBoundingClientRect().width > container.clientWidth + 1 : false;
    container.toggleAttribute('data-overflows', wider);
  };
  const observer = new ResizeObserver(check);
  observer.observe(container);
  check();
  return () => observer.disconnect();
}

/**
 * While the bulk bar shows, the toasts (bottom right, over everything) keep clear of it: a
 * toast saying what an action did must not cover the bar's next action. The bar sticks to the
 * window's bottom only when the rows reach it; under a short list it sits higher, so the
 * toasts go by where it is, not by its height: above it when it is in the lower part of the
 * window, at the bottom (below it) when it is higher up or out of sight.
 */
function keepToastsClear(bar: HTMLDivElement | null) {
  if (!bar) return undefined;
  const root = document.documentElement;
  let frame = 0;
  const measure = () => {
    frame = 0;
    const { top, bottom } = bar.getBoundingClientRect();
    const height = window.innerHeight;
    const above = bottom > 0 && top < height && top >= height - bottom;
    root.style.setProperty('--selection-bar-clearance', above ? `${height - top}px` : '0px');
  };
  const later = () => {
    if (!frame) frame = requestAnimationFrame(measure);
  };
  measure();
  const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(later);
  resized?.observe(bar);
  // Rows removed or loaded move the bar without a scroll or a change of the page's size.
  const changed = new MutationObserver(later);
  changed.observe(document.body, { childList: true, subtree: true });
  window.addEventListener('scroll', later, { passive: true, capture: true });
  window.addEventListener('resize', later, { passive: true });
  return () => {
    cancelAnimationFrame(frame);
    resized?.disconnect();
    changed.disconnect();
    window.removeEventListener('scroll', later, { capture: true });
    window.removeEventListener('resize', later);
    root.style.removeProperty('--selection-bar-clearance');
  };
}

/** Re-rendered only when its props change (its owner keeps them stable). */
export const DataTable = memo(DataTableView) as typeof DataTableView;

import {
  columnSizingFeature,
  createColumnHelper,
  flexRender,
  metaHelper,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import type { TFunction } from 'i18next';
import {
  memo,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useMemo,
  useRef,
  type ReactNode,
} from 'react';
import {
  Button,
  Cell,
  Checkbox,
  Column,
  ProgressBar,
  Row,
  Table,
  TableBody,
  TableHeader,
  TableLayout,
  TableLoadMoreItem,
  Virtualizer,
  type Key,
  type SortDescriptor,
} from 'react-aria-components';
import type { ListOrder } from '../../../../contract/list-query';
import { RowMenu, type ActionMenuItem } from './row-menu';
import { useRowReorder } from './row-reorder';

type Align = 'left' | 'center' | 'right';

/** Spec §3 column definition, plus how to render a cell. */
export interface ListColumn<Row> {
  field: string;
  headerName: string;
  width?: number;
  sortable?: boolean;
  tooltip?: string;
  headerAlign?: Align;
  cellAlign?: Align;
  render?: (row: Row) => ReactNode;
}

export interface DataTableLabels {
  table: string;
  actions: string;
  dragHandle: (row: string) => string;
  loading: string;
  noItems: string;
  noMatches: string;
  clearFilters: string;
  /** Marks a row someone else deleted (it goes a moment later). */
  removed: string;
}

/** The table's texts from the locale (`list.*`); `table` names the grid. */
export const dataTableLabels = (t: TFunction, table: string): DataTableLabels => ({
  table,
  actions: t('list.actions'),
  dragHandle: (name) => t('list.dragHandle', { name }),
  loading: t('list.loading'),
  noItems: t('list.noItems'),
  noMatches: t('list.noMatches'),
  clearFilters: t('list.clear'),
  removed: t('list.removedByOther'),
});

interface DataTableProps<Row extends { id: string }> {
  columns: ListColumn<Row>[];
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

/** Rows beyond which only the visible rows are rendered. */
const VIRTUALIZE_FROM = 300;
const ROW_HEIGHT = 56;
const SKELETON_ROW_HEIGHT = 80;

/** How a column's header and cells look (spec §3 column definition, beyond name and width). */
interface ColumnLook {
  tooltip?: string | undefined;
  headerAlign: Align;
  cellAlign: Align;
}

// Sorting is manual (the server sorts) and filtering and paging happen on the server: the table
// holds the columns (their width as the column size, their look as meta), the sort state the
// headers show and the row selection.
const features = tableFeatures({
  rowSortingFeature,
  rowSelectionFeature,
  columnSizingFeature,
  columnMeta: metaHelper<ColumnLook>(),
});

const sortingOf = (order: ListOrder | undefined): SortingState =>
  Object.entries(order ?? {}).flatMap(([id, direction]) =>
    direction ? [{ id, desc: direction === 'desc' }] : [],
  );

const applyUpdater = <T,>(updater: T | ((old: T) => T), old: T): T =>
  typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater;

/** A cell without a renderer shows scalars as text and anything else as a dash. */
const plainValue = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '—';

const sortDescriptorOf = (sorting: SortingState): SortDescriptor | undefined => {
  const [sort] = sorting;
  return sort && { column: sort.id, direction: sort.desc ? 'descending' : 'ascending' };
};

/**
 * The shared list table: sortable headers with aria-sort, per-row action menus, drag
 * reordering by mouse, touch and keyboard, skeleton rows, empty states and, for long
 * lists, row virtualisation. TanStack Table holds the column and row model; React Aria
 * renders an accessible grid from it.
 */
function DataTableView<Row extends { id: string }>(props: DataTableProps<Row>) {
  const { columns, rows, labels, selection } = props;
  const columnDefs = useMemo(() => {
    const helper = createColumnHelper<typeof features, Row>();
    return helper.columns(
      columns.map((c) =>
        // An accessor column (the field's value) so the table can sort by it.
        helper.accessor((row) => (row as Record<string, unknown>)[c.field], {
          id: c.field,
          header: c.headerName,
          size: c.width,
          enableSorting: Boolean(c.sortable),
          // The spec's toggle (an unsorted field starts descending), though the owner decides.
          sortDescFirst: true,
          meta: {
            tooltip: c.tooltip,
            headerAlign: c.headerAlign ?? 'left',
            cellAlign: c.cellAlign ?? 'left',
          },
        }),
      ),
    );
  }, [columns]);
  const sorting = sortingOf(props.order);
  const showSkeleton = Boolean(props.isLoading) && (rows.length === 0 || Boolean(props.isStale));
  // TanStack keeps a selected id (getRowId) whether or not its row is in `data`, so ids of rows
  // that left the screen would stay selected, out of sight, and a bulk action would reach them:
  // the table holds only the ids of rows on screen and hands the owner the selection without
  // the others. Skeleton rows hide the rows they stand in for, so they leave none.
  const shownIds = useMemo(
    () => new Set(showSkeleton ? [] : rows.map((row) => row.id)),
    [showSkeleton, rows],
  );
  const chosenIds = [...(selection?.selectedIds ?? [])];
  const selectedOnScreen = chosenIds.filter((id) => shownIds.has(id));
  const dropUnshown = useEffectEvent(() => {
    if (selectedOnScreen.length < chosenIds.length) selection?.onChange(selectedOnScreen);
  });
  const shownKey = [...shownIds].join('\u0000');
  const chosenKey = chosenIds.join('\u0000');
  useEffect(() => dropUnshown(), [shownKey, chosenKey]);
  const rowSelection: RowSelectionState = Object.fromEntries(
    selectedOnScreen.map((id) => [id, true as const]),
  );
  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId: (row) => row.id,
    state: { sorting, rowSelection },
    manualSorting: true,
    enableSorting: Boolean(props.onSort),
    enableSortingRemoval: false,
    onSortingChange: (updater) => {
      // The owner applies the spec's toggle; the table says which column was chosen.
      const [next] = applyUpdater(updater, sorting);
      if (next) props.onSort?.(next.id);
    },
    enableRowSelection: Boolean(selection),
    onRowSelectionChange: (updater) =>
      selection?.onChange(Object.keys(applyUpdater(updater, rowSelection))),
  });
  const reorderable = Boolean(props.onMove);
  const dragAndDropHooks = useRowReorder(
    useMemo(() => rows.map((row) => row.id), [rows]),
    props.onMove,
  );
  const skeletonRows = props.skeletonRows ?? 10;
  const virtualized = rows.length > VIRTUALIZE_FROM;
  const gridRef = useRef<HTMLTableElement>(null);
  const busy = Boolean(props.isLoading);
  // React Aria's Table does not pass aria-busy on, so it goes onto the element it rendered
  // (a new one when the table switches to virtualised rows).
  useLayoutEffect(() => {
    if (busy) gridRef.current?.setAttribute('aria-busy', 'true');
    else gridRef.current?.removeAttribute('aria-busy');
  }, [busy, virtualized]);
  const { rowLabel, rowActions, onSetOrder, removedIds, isFiltered, onClearFilters } = props;
  const { isLoadingMore, onLoadMore } = props;
  const hasActions = Boolean(rowActions);
  const hasSelection = Boolean(selection);
  const selectAllLabel = selection?.selectAllLabel;
  const selectLabel = selection?.selectLabel;
  const pageRows = table.getRowModel().rows;

  // The header and the body are kept while what they show stays the same: React Aria re-renders
  // every cell when the table's own state changes (a selection, the focus), and a new header or
  // body would make it build its collection again on top of that.
  // TanStack keeps the header objects while the columns stay the same.
  const headers = table.getHeaderGroups()[0]?.headers;
  const header = useMemo(
    () => (
      <TableHeader>
        {reorderable && (
          <Column className="col-drag" width={44}>
            <span className="visually-hidden">{labels.dragHandle('')}</span>
          </Column>
        )}
        {hasSelection && (
          <Column className="col-select" width={44}>
            {/* React Aria checks it when every row of the page is selected, and shows it
                indeterminate when some are. */}
            <Checkbox slot="selection" aria-label={selectAllLabel} className="checkbox">
              <span className="checkbox-box" aria-hidden="true" />
            </Checkbox>
          </Column>
        )}
        {headers?.map((h, index) => {
          const look = h.column.columnDef.meta;
          // A column without a width sizes to its content (the table's default size is not one).
          const width = h.column.columnDef.size === undefined ? null : h.getSize();
          return (
            <Column
              key={h.column.id}
              id={h.column.id}
              isRowHeader={index === 0}
              allowsSorting={h.column.getCanSort()}
              width={width}
              style={width === null ? undefined : { width }}
              className={`align-${look?.headerAlign ?? 'left'}`}
            >
              {({ allowsSorting, sortDirection }) => (
                <span className="column-header" title={look?.tooltip}>
                  {flexRender(h.column.columnDef.header, h.getContext())}
                  {allowsSorting && (
                    <span className="sort-indicator" aria-hidden="true">
                      {sortDirection === 'ascending'
                        ? '▲'
                        : sortDirection === 'descending'
                          ? '▼'
                          : '↕'}
                    </span>
                  )}
                  {look?.tooltip && <span className="visually-hidden">, {look.tooltip}</span>}
                </span>
              )}
            </Column>
          );
        })}
        {hasActions && (
          <Column className="col-actions" width={64}>
            <span className="visually-hidden">{labels.actions}</span>
          </Column>
        )}
      </TableHeader>
    ),
    [headers, reorderable, hasSelection, selectAllLabel, hasActions, labels],
  );

  const removedKey = removedIds?.join('\u0000') ?? '';
  const body = useMemo(() => {
    const removedNow = new Set(removedKey ? removedKey.split('\u0000') : []);
    const skeletonCells = (key: string) => (
      <Row
        key={key}
        id={key}
        className="skeleton-row"
        // A virtualised table places rows at its own row height.
        style={virtualized ? undefined : { height: SKELETON_ROW_HEIGHT }}
      >
        {reorderable && <Cell />}
        {hasSelection && <Cell />}
        {columns.map((c) => (
          <Cell key={c.field}>
            <span className="skeleton-line short" aria-hidden="true" />
          </Cell>
        ))}
        {hasActions && <Cell />}
      </Row>
    );
    // Each row's element is kept (by React Aria, per row object) until the row's data or what
    // this body depends on changes, so a selection or an open menu re-renders no row's content.
    const renderRow = (row: Row) => {
      const removed = removedNow.has(row.id);
      return (
        <Row key={row.id} id={row.id} textValue={rowLabel(row)} data-removed={removed || undefined}>
          {reorderable && (
            <Cell className="col-drag">
              <Button
                slot="drag"
                className="drag-handle"
                aria-label={labels.dragHandle(rowLabel(row))}
              >
                ⠿
              </Button>
            </Cell>
          )}
          {hasSelection && (
            <Cell className="col-select">
              <Checkbox slot="selection" aria-label={selectLabel} className="checkbox">
                <span className="checkbox-box" aria-hidden="true" />
              </Checkbox>
            </Cell>
          )}
          {columns.map((c, index) => (
            <Cell
              key={c.field}
              className={`align-${c.cellAlign ?? 'left'}`}
              // On a phone each row is a card and each value is labelled by its column.
              data-label={c.headerName}
            >
              {c.render ? c.render(row) : plainValue((row as Record<string, unknown>)[c.field])}
              {removed && index === 0 && <span className="badge removed">{labels.removed}</span>}
            </Cell>
          ))}
          {rowActions && (
            <Cell className="col-actions">
              {!removed && (
                <RowMenu
                  label={`${labels.actions}: ${rowLabel(row)}`}
                  items={() => rowActions(row)}
                  row={row}
                  onSetOrder={onSetOrder}
                />
              )}
            </Cell>
          )}
        </Row>
      );
    };
    return (
      <TableBody
        renderEmptyState={() =>
          isFiltered ? (
            <div className="empty-state">
              <p>{labels.noMatches}</p>
              {onClearFilters && (
                <Button className="button" onPress={onClearFilters}>
                  {labels.clearFilters}
                </Button>
              )}
            </div>
          ) : (
            <div className="empty-state">
              <p>{labels.noItems}</p>
            </div>
          )
        }
      >
        {showSkeleton
          ? Array.from({ length: skeletonRows }, (_, i) => skeletonCells(`skeleton-${i}`))
          : rows.map(renderRow)}
        {/* The next page loading below the rows already there. */}
        {isLoadingMore &&
          !showSkeleton &&
          Array.from({ length: skeletonRows }, (_, i) => skeletonCells(`skeleton-more-${i}`))}
        {onLoadMore && !showSkeleton && <TableLoadMoreItem onLoadMore={onLoadMore} />}
      </TableBody>
    );
  }, [
    columns,
    hasActions,
    hasSelection,
    isFiltered,
    isLoadingMore,
    labels,
    onClearFilters,
    onLoadMore,
    onSetOrder,
    removedKey,
    reorderable,
    rowActions,
    rowLabel,
    rows,
    selectLabel,
    showSkeleton,
    skeletonRows,
    virtualized,
  ]);

  const grid = (
    <Table
      ref={gridRef}
      aria-label={labels.table}
      className={virtualized ? 'data-table virtualized' : 'data-table'}
      sortDescriptor={sortDescriptorOf(sorting)}
      onSortChange={(d) => table.getColumn(String(d.column))?.toggleSorting()}
      {...(selection
        ? {
            // Nothing to select while skeleton rows stand in: the header checkbox would select
            // the rows they hide.
            selectionMode: showSkeleton ? ('none' as const) : ('multiple' as const),
            selectionBehavior: 'toggle' as const,
            // Only the checkboxes select: a press on the row (its name link, a cell) is not
            // a selection, so links in rows keep working while rows are selected.
            onRowAction: () => undefined,
            // This page's selected rows only, so the header checkbox speaks for this page.
            selectedKeys: new Set(pageRows.filter((r) => r.getIsSelected()).map((r) => r.id)),
            onSelectionChange: (keys: 'all' | Set<Key>) =>
              keys === 'all'
                ? table.toggleAllPageRowsSelected(true)
                : table.setRowSelection(
                    Object.fromEntries(
                      pageRows.filter((r) => keys.has(r.id)).map((r) => [r.id, true as const]),
                    ),
                  ),
          }
        : {})}
      // Constant for the table's life: React Aria calls hooks through it.
      dragAndDropHooks={reorderable ? dragAndDropHooks : undefined}
    >
      {header}
      {body}
    </Table>
  );

  return (
    <>
      <div className="data-table-container">
        {props.showProgress && props.isLoading && (
          <ProgressBar aria-label={labels.loading} isIndeterminate className="progress-bar">
            <div className="progress-bar-fill" />
          </ProgressBar>
        )}
        {virtualized ? (
          <Virtualizer
            layout={TableLayout}
            layoutOptions={{ rowHeight: ROW_HEIGHT, headingHeight: 44 }}
          >
            {grid}
          </Virtualizer>
        ) : (
          grid
        )}
      </div>
      {/* After the rows, sticky at the bottom of the window, in a slot of its own height that
          a selectable list always keeps: the bar appears without moving a row, so a tap lands
          where the finger aimed, and the last row can still be scrolled clear of it. */}
      {selection?.bulkActions && (
        <div className="selection-bar-slot">
          {selectedOnScreen.length > 0 && (
            <div className="selection-bar">{selection.bulkActions(selectedOnScreen)}</div>
          )}
        </div>
      )}
    </>
  );
}

/** Re-rendered only when its props change (its owner keeps them stable). */
export const DataTable = memo(DataTableView) as typeof DataTableView;

export type { ActionMenuItem };

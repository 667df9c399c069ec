import {
  createColumnHelper,
  flexRender,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
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
  useDragAndDrop,
  Virtualizer,
  type Key,
  type SortDescriptor,
} from 'react-aria-components';
import type { ListOrder } from '../../../domain/list-query';
import { RowMenu, type ActionMenuItem } from './row-menu';

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
  loadingMore: string;
}

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
  /** Skeleton rows while loading (the page limit). */
  skeletonRows?: number;
  showProgress?: boolean;
  isFiltered?: boolean;
  onClearFilters?: () => void;
  /** Infinite scroll: called when the end of the rows comes into view. */
  onLoadMore?: () => void;
  isLoadingMore?: boolean;
}

/** Which rows are selected (their ids); the owner keeps the ids across pages. */
interface RowSelection {
  selectedIds: readonly string[];
  onChange: (ids: string[]) => void;
  /** The accessible name of the select-all checkbox ("Select all on this page"). */
  selectAllLabel: string;
  /** A row checkbox's name before the row's own ("Select" reads "Select Olive Cyber"). */
  selectLabel: string;
}

/** Rows beyond which only the visible rows are rendered. */
const VIRTUALIZE_FROM = 300;
const ROW_HEIGHT = 56;
const SKELETON_ROW_HEIGHT = 80;

// Sorting is manual (the server sorts) and filtering and paging happen on the server: the table
// holds the columns, the sort state the headers show and the row selection.
const features = tableFeatures({ rowSortingFeature, rowSelectionFeature });

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
export function DataTable<Row extends { id: string }>(props: DataTableProps<Row>) {
  const { columns, rows, labels, selection } = props;
  const byField = useMemo(() => new Map(columns.map((c) => [c.field, c])), [columns]);
  const columnDefs = useMemo(() => {
    const helper = createColumnHelper<typeof features, Row>();
    return helper.columns(
      columns.map((c) =>
        // An accessor column (the field's value) so the table can sort by it.
        helper.accessor((row) => (row as Record<string, unknown>)[c.field], {
          id: c.field,
          header: c.headerName,
          enableSorting: Boolean(c.sortable),
          cell: ({ row, getValue }) => (c.render ? c.render(row.original) : plainValue(getValue())),
        }),
      ),
    );
  }, [columns]);
  const sorting = sortingOf(props.order);
  const rowSelection: RowSelectionState = Object.fromEntries(
    (selection?.selectedIds ?? []).map((id) => [id, true as const]),
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
  const { dragAndDropHooks } = useDragAndDrop<Row>({
    getItems: (keys) => [...keys].map((key) => ({ 'text/plain': String(key) })),
    onReorder: (event) => {
      const moved = [...event.keys][0];
      const targetIndex = rows.findIndex((r) => r.id === event.target.key);
      const fromIndex = rows.findIndex((r) => r.id === moved);
      if (moved === undefined || targetIndex < 0 || fromIndex < 0) return;
      let toIndex = event.target.dropPosition === 'after' ? targetIndex + 1 : targetIndex;
      if (fromIndex < toIndex) toIndex -= 1;
      if (toIndex !== fromIndex) props.onMove?.(String(moved), toIndex);
    },
  });
  const showSkeleton = props.isLoading && rows.length === 0;
  const hasActions = Boolean(props.rowActions);
  const byId = new Map(rows.map((row) => [row.id, row]));

  const header = (
    <TableHeader>
      {reorderable && (
        <Column className="col-drag" width={44}>
          <span className="visually-hidden">{labels.dragHandle('')}</span>
        </Column>
      )}
      {selection && (
        <Column className="col-select" width={44}>
          <Checkbox slot="selection" aria-label={selection.selectAllLabel} className="checkbox">
            <span className="checkbox-box" aria-hidden="true" />
          </Checkbox>
        </Column>
      )}
      {table.getHeaderGroups()[0]?.headers.map((h, index) => {
        const col = byField.get(h.column.id)!;
        return (
          <Column
            key={col.field}
            id={col.field}
            isRowHeader={index === 0}
            allowsSorting={h.column.getCanSort()}
            width={col.width ?? null}
            style={col.width ? { width: col.width } : undefined}
            className={`align-${col.headerAlign ?? 'left'}`}
          >
            {({ allowsSorting, sortDirection }) => (
              <span className="column-header" title={col.tooltip}>
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
                {col.tooltip && <span className="visually-hidden">, {col.tooltip}</span>}
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
  );

  const skeletonCells = (key: string) => (
    <Row key={key} id={key} className="skeleton-row" style={{ height: SKELETON_ROW_HEIGHT }}>
      {selection && <Cell />}
      {reorderable && <Cell />}
      {columns.map((c) => (
        <Cell key={c.field}>
          <span className="skeleton-line short" aria-hidden="true" />
        </Cell>
      ))}
      {hasActions && <Cell />}
    </Row>
  );

  const body = (
    <TableBody
      renderEmptyState={() =>
        props.isFiltered ? (
          <div className="empty-state">
            <p>{labels.noMatches}</p>
            {props.onClearFilters && (
              <Button className="button" onPress={props.onClearFilters}>
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
        ? Array.from({ length: props.skeletonRows ?? 10 }, (_, i) => skeletonCells(`skeleton-${i}`))
        : table.getRowModel().rows.map((tableRow) => {
            const row = byId.get(tableRow.id)!;
            return (
              <Row key={row.id} id={row.id} textValue={props.rowLabel(row)}>
                {selection && (
                  <Cell className="col-select">
                    <Checkbox
                      slot="selection"
                      aria-label={selection.selectLabel}
                      className="checkbox"
                    >
                      <span className="checkbox-box" aria-hidden="true" />
                    </Checkbox>
                  </Cell>
                )}
                {reorderable && (
                  <Cell className="col-drag">
                    <Button
                      slot="drag"
                      className="drag-handle"
                      aria-label={labels.dragHandle(props.rowLabel(row))}
                    >
                      ⠿
                    </Button>
                  </Cell>
                )}
                {tableRow.getAllCells().map((cell) => (
                  <Cell
                    key={cell.column.id}
                    className={`align-${byField.get(cell.column.id)?.cellAlign ?? 'left'}`}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Cell>
                ))}
                {hasActions && (
                  <Cell className="col-actions">
                    <RowMenu
                      label={`${labels.actions}: ${props.rowLabel(row)}`}
                      items={props.rowActions!(row)}
                      row={row}
                      onSetOrder={props.onSetOrder}
                    />
                  </Cell>
                )}
              </Row>
            );
          })}
      {props.onLoadMore && !showSkeleton && (
        <TableLoadMoreItem onLoadMore={props.onLoadMore} isLoading={props.isLoadingMore}>
          <span className="spinner" aria-hidden="true" /> {labels.loadingMore}
        </TableLoadMoreItem>
      )}
    </TableBody>
  );

  const grid = (
    <Table
      aria-label={labels.table}
      aria-busy={props.isLoading || undefined}
      className={rows.length > VIRTUALIZE_FROM ? 'data-table virtualized' : 'data-table'}
      sortDescriptor={sortDescriptorOf(sorting)}
      onSortChange={(d) => table.getColumn(String(d.column))?.toggleSorting()}
      {...(selection
        ? {
            selectionMode: 'multiple' as const,
            selectionBehavior: 'toggle' as const,
            selectedKeys: new Set(table.getSelectedRowIds()),
            onSelectionChange: (keys: 'all' | Set<Key>) =>
              keys === 'all'
                ? table.toggleAllPageRowsSelected(true)
                : table.setRowSelection(
                    Object.fromEntries([...keys].map((key) => [String(key), true as const])),
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
    <div className="data-table-container">
      {props.showProgress && props.isLoading && (
        <ProgressBar aria-label={labels.loading} isIndeterminate className="progress-bar">
          <div className="progress-bar-fill" />
        </ProgressBar>
      )}
      {rows.length > VIRTUALIZE_FROM ? (
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
  );
}

export type { ActionMenuItem };

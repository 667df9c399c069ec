import { createColumnHelper, tableFeatures, useTable } from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import {
  Button,
  Cell,
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
import { RowMenu, type ActionMenuItem } from './row-menu';

export type Align = 'left' | 'center' | 'right';
export type SortDirection = 'asc' | 'desc';
/** Spec §3 order state: a direction per field (one field at a time here). */
export type SortOrder = Partial<Record<string, SortDirection>>;

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
  order?: SortOrder;
  onSort?: (field: string) => void;
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

/** Rows beyond which only the visible rows are rendered. */
const VIRTUALIZE_FROM = 300;
const ROW_HEIGHT = 56;
const SKELETON_ROW_HEIGHT = 80;

// Core model only: sorting, paging and filtering happen on the server.
const features = tableFeatures({});

/** A cell without a renderer shows scalars as text and anything else as a dash. */
const plainValue = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '—';

const sortDescriptorOf = (order: SortOrder | undefined): SortDescriptor | undefined => {
  const [field, direction] = Object.entries(order ?? {})[0] ?? [];
  if (!field || !direction) return undefined;
  return { column: field, direction: direction === 'asc' ? 'ascending' : 'descending' };
};

/**
 * The shared list table: sortable headers with aria-sort, per-row action menus, drag
 * reordering by mouse, touch and keyboard, skeleton rows, empty states and, for long
 * lists, row virtualisation. TanStack Table holds the column and row model; React Aria
 * renders an accessible grid from it.
 */
export function DataTable<Row extends { id: string }>(props: DataTableProps<Row>) {
  const { columns, rows, labels } = props;
  const columnDefs = useMemo(() => {
    const helper = createColumnHelper<typeof features, Row>();
    return helper.columns(
      columns.map((c) => helper.display({ id: c.field, header: c.headerName })),
    );
  }, [columns]);
  const table = useTable({ features, columns: columnDefs, data: rows, getRowId: (row) => row.id });
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
      {table.getHeaderGroups()[0]?.headers.map((h) => {
        const col = columns.find((c) => c.field === h.column.id)!;
        return (
          <Column
            key={col.field}
            id={col.field}
            isRowHeader={col === columns[0]}
            allowsSorting={Boolean(col.sortable && props.onSort)}
            width={col.width ?? null}
            className={`align-${col.headerAlign ?? 'left'}`}
          >
            {({ allowsSorting, sortDirection }) => (
              <span className="column-header" title={col.tooltip}>
                {col.headerName}
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
                {columns.map((c) => (
                  <Cell key={c.field} className={`align-${c.cellAlign ?? 'left'}`}>
                    {c.render
                      ? c.render(row)
                      : plainValue((row as Record<string, unknown>)[c.field])}
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
      sortDescriptor={sortDescriptorOf(props.order)}
      onSortChange={(d) => props.onSort?.(String(d.column))}
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

export type { ActionMenuItem, Key };

import { useMemo, type ReactElement } from 'react';
import {
  Button,
  ButtonContext,
  Cell,
  Checkbox,
  Row,
  TableBody,
  TableLoadMoreItem,
} from 'react-aria-components';
import type { ListColumn } from './columns';
import type { DataTableLabels } from './data-table-labels';
import { RowMenu, type ActionMenuItem } from './row-menu';

const SKELETON_ROW_HEIGHT = 80;

/** A cell without a renderer shows scalars as text and anything else as a dash. */
const plainValue = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '—';

/**
 * The list table's body: a row per list row (or skeleton rows while they load), the empty
 * state, and the next page loading below. Kept while what it shows stays the same, like the
 * header (see useHeader).
 */
/**
 * The row just created comes into view as it appears (after the list has read it): the form
 * that made it may sit above a long page, and the row far below. Stable, so React calls it
 * once per row element.
 */
function revealCreated(row: HTMLTableRowElement | null) {
  row?.scrollIntoView?.({ block: 'nearest' });
}

/** The element made for each row object, made on the first ask. */
function elementsPerRow<Data extends object>() {
  const made = new WeakMap<Data, ReactElement>();
  return (row: Data, make: (row: Data) => ReactElement) => {
    let element = made.get(row);
    if (!element) {
      element = make(row);
      made.set(row, element);
    }
    return element;
  };
}

export function useBody<Data extends { id: string }>(options: {
  columns: ListColumn<Data>[];
  rows: Data[];
  labels: DataTableLabels;
  rowLabel: (row: Data) => string;
  rowActions: ((row: Data) => ActionMenuItem<Data>[]) | undefined;
  onSetOrder: ((row: Data, position: number) => void) | undefined;
  removedIds: readonly string[] | undefined;
  createdId: string | undefined;
  isFiltered: boolean | undefined;
  onClearFilters: (() => void) | undefined;
  onLoadMore: (() => void) | undefined;
  isLoadingMore: boolean | undefined;
  reorderable: boolean;
  hasSelection: boolean;
  selectLabel: string | undefined;
  showSkeleton: boolean;
  skeletonRows: number;
  virtualized: boolean;
}) {
  const { columns, rows, labels, rowLabel, rowActions, onSetOrder, removedIds, createdId } =
    options;
  const { isFiltered, onClearFilters, onLoadMore, isLoadingMore, reorderable } = options;
  const { hasSelection, selectLabel, showSkeleton, skeletonRows, virtualized } = options;
  const hasActions = Boolean(rowActions);
  const removedKey = removedIds?.join('\u0000') ?? '';
  const skeletonCells = useMemo(() => {
    // Skeleton rows pulse together: the whole body while they stand in for the rows, each row
    // while the next page loads below rows already there (data-table.css, .skeleton-pulse).
    return (key: string, pulse: boolean) => (
      <Row
        key={key}
        id={key}
        className={pulse ? 'skeleton-row skeleton-pulse' : 'skeleton-row'}
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
  }, [columns, hasActions, hasSelection, reorderable, virtualized]);
  // A row's element is made once per row object (and what every row shows: its columns, menu,
  // labels): a sort, a selection or the next rows arriving leave a row that did not change as
  // React Aria built it, so its cells do not render again.
  const renderRow = useMemo(() => {
    const removedNow = new Set(removedKey ? removedKey.split('\u0000') : []);
    const made = elementsPerRow<Data>();
    const rowOf = (row: Data) => {
      const removed = removedNow.has(row.id);
      return (
        <Row
          key={row.id}
          id={row.id}
          textValue={rowLabel(row)}
          data-removed={removed || undefined}
          data-created={row.id === createdId || undefined}
          ref={row.id === createdId ? revealCreated : undefined}
        >
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
                // The row offers its buttons a new context whenever React Aria renders it (a
                // focus, a selection); the menu's button takes nothing from it, so it is cut off
                // and renders only when its own menu does.
                <ButtonContext.Provider value={null}>
                  <RowMenu
                    label={`${labels.actions}: ${rowLabel(row)}`}
                    items={() => rowActions(row)}
                    row={row}
                    onSetOrder={onSetOrder}
                  />
                </ButtonContext.Provider>
              )}
            </Cell>
          )}
        </Row>
      );
    };
    return (row: Data) => made(row, rowOf);
  }, [
    columns,
    createdId,
    labels,
    onSetOrder,
    removedKey,
    reorderable,
    rowActions,
    rowLabel,
    hasSelection,
    selectLabel,
  ]);
  return useMemo(() => {
    return (
      <TableBody
        className={showSkeleton ? 'react-aria-TableBody skeleton-pulse' : 'react-aria-TableBody'}
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
          ? Array.from({ length: skeletonRows }, (_, i) => skeletonCells(`skeleton-${i}`, false))
          : rows.map(renderRow)}
        {/* The next page loading below the rows already there. */}
        {isLoadingMore &&
          !showSkeleton &&
          Array.from({ length: skeletonRows }, (_, i) => skeletonCells(`skeleton-more-${i}`, true))}
        {onLoadMore && !showSkeleton && <TableLoadMoreItem onLoadMore={onLoadMore} />}
      </TableBody>
    );
  }, [
    isFiltered,
    isLoadingMore,
    labels,
    onClearFilters,
    onLoadMore,
    renderRow,
    rows,
    showSkeleton,
    skeletonCells,
    skeletonRows,
  ]);
}

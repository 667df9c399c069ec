import { useMemo } from 'react';
import { Checkbox, Column, ColumnResizer, TableHeader } from 'react-aria-components';
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from './column-layout';
import type { ListColumn } from './columns';
import type { DataTableLabels } from './data-table-labels';

/**
 * The list table's header row: the drag, selection and actions columns around the list's
 * own, each sortable one with its indicator. Kept while what it shows stays the same: React
 * Aria re-renders every cell when the table's own state changes (a selection, the focus), and
 * a new header would make it build its collection again on top of that.
 */
export function useHeader<Row>(
  /** An unsized column's widths from its content (resizable only: column-widths.ts). */
  columns: (ListColumn<Row> & {
    defaultWidth?: number | `${number}fr`;
    minWidth?: number;
  })[],
  options: {
    /** Whether the owner sorts (a sortable column's header then sorts by it). */
    sortable: boolean;
    /** Whether the column edges resize (the table is in a ResizableTableContainer). */
    resizable: boolean;
    reorderable: boolean;
    hasSelection: boolean;
    selectAllLabel: string | undefined;
    hasActions: boolean;
    labels: DataTableLabels;
  },
) {
  const { sortable, resizable, reorderable, hasSelection, selectAllLabel, hasActions, labels } =
    options;
  return useMemo(
    () => (
      <TableHeader>
        {reorderable && (
          <Column className="col-drag" width={44} minWidth={44}>
            <span className="visually-hidden">{labels.dragHandle('')}</span>
          </Column>
        )}
        {hasSelection && (
          <Column className="col-select" width={44} minWidth={44}>
            {/* React Aria checks it when every row of the page is selected, and shows it
                indeterminate when some are. */}
            <Checkbox slot="selection" aria-label={selectAllLabel} className="checkbox">
              <span className="checkbox-box" aria-hidden="true" />
            </Checkbox>
          </Column>
        )}
        {columns.map((c, index) => {
          // A column without a width sizes to its content.
          const width = c.width ?? null;
          return (
            <Column
              key={c.field}
              id={c.field}
              isRowHeader={index === 0}
              allowsSorting={sortable && Boolean(c.sortable)}
              // Resizable, the widths are React Aria's (from these), which it sets on the cell.
              {...(resizable
                ? {
                    defaultWidth: width ?? c.defaultWidth ?? null,
                    minWidth: c.minWidth ?? MIN_COLUMN_WIDTH,
                    maxWidth: MAX_COLUMN_WIDTH,
                  }
                : { width, style: width === null ? undefined : { width } })}
              className={`align-${c.headerAlign ?? 'left'}`}
            >
              {({ allowsSorting, sortDirection }) => (
                <>
                  <span
                    className="column-header"
                    title={c.tooltip}
                    // Focusable, so the header's focus lands on its name (Enter sorts) before
                    // the arrow keys reach its edge.
                    tabIndex={resizable ? -1 : undefined}
                  >
                    {c.headerName}
                    {allowsSorting && (
                      <span className="sort-indicator" aria-hidden="true">
                        {sortDirection === 'ascending'
                          ? '▲'
                          : sortDirection === 'descending'
                            ? '▼'
                            : '↕'}
                      </span>
                    )}
                    {c.tooltip && <span className="visually-hidden">, {c.tooltip}</span>}
                  </span>
                  {resizable && (
                    <ColumnResizer
                      className="column-resizer"
                      aria-label={labels.resizeColumn(c.headerName)}
                    />
                  )}
                </>
              )}
            </Column>
          );
        })}
        {hasActions && (
          <Column className="col-actions" width={64} minWidth={64}>
            <span className="visually-hidden">{labels.actions}</span>
          </Column>
        )}
      </TableHeader>
    ),
    [columns, sortable, resizable, reorderable, hasSelection, selectAllLabel, hasActions, labels],
  );
}

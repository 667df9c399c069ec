import { flexRender, type Header, type RowData } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Checkbox, Column, TableHeader } from 'react-aria-components';
import type { DataTableLabels } from './data-table-labels';
import type { features } from './table-model';

/**
 * The list table's header row: the drag, selection and actions columns around the list's
 * own, each sortable one with its indicator. Kept while what it shows stays the same: React
 * Aria re-renders every cell when the table's own state changes (a selection, the focus), and
 * a new header would make it build its collection again on top of that. TanStack keeps the
 * header objects while the columns stay the same.
 */
export function useHeader<Row extends RowData>(
  headers: Header<typeof features, Row>[] | undefined,
  options: {
    reorderable: boolean;
    hasSelection: boolean;
    selectAllLabel: string | undefined;
    hasActions: boolean;
    labels: DataTableLabels;
  },
) {
  const { reorderable, hasSelection, selectAllLabel, hasActions, labels } = options;
  return useMemo(
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
}

// The TanStack Table model behind the list table: its columns, features and sort state.
import {
  columnSizingFeature,
  createColumnHelper,
  metaHelper,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo } from 'react';
import type { SortDescriptor } from 'react-aria-components';
import type { ListOrder } from '../../../../contract/list-query';
import type { Align, ListColumn } from './columns';

/** How a column's header and cells look (spec §3 column definition, beyond name and width). */
interface ColumnLook {
  tooltip?: string | undefined;
  headerAlign: Align;
  cellAlign: Align;
}

// Sorting is manual (the server sorts) and filtering and paging happen on the server: the table
// holds the columns (their width as the column size, their look as meta), the sort state the
// headers show and the row selection.
export const features = tableFeatures({
  rowSortingFeature,
  rowSelectionFeature,
  columnSizingFeature,
  columnMeta: metaHelper<ColumnLook>(),
});

export const sortingOf = (order: ListOrder | undefined): SortingState =>
  Object.entries(order ?? {}).flatMap(([id, direction]) =>
    direction ? [{ id, desc: direction === 'desc' }] : [],
  );

export const applyUpdater = <T>(updater: T | ((old: T) => T), old: T): T =>
  typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater;

export const sortDescriptorOf = (sorting: SortingState): SortDescriptor | undefined => {
  const [sort] = sorting;
  return sort && { column: sort.id, direction: sort.desc ? 'descending' : 'ascending' };
};

/** The table's columns for these list columns (kept while they stay the same). */
export function useColumnDefs<Row extends RowData>(columns: ListColumn<Row>[]) {
  return useMemo(() => {
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
}

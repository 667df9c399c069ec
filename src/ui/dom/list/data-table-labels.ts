import type { TFunction } from 'i18next';

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
  /** Names a column edge that resizes the column. */
  resizeColumn: (column: string) => string;
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
  resizeColumn: (column) => t('list.columns.resize', { column }),
});

import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListFilter } from '../../contract/list-query';
import type { ListScreenConfig } from './list.config.view';
import type { ListControls } from './list.outcome.view';

/**
 * The rows the user selected and the bulk bar that acts on them, where the list has bulk
 * actions. The selection stays after a change (lock, then tag, without selecting again); the
 * table drops the ids of rows that leave the screen (deleted, filtered out).
 */
export function useListSelection<Row extends { id: string }>(
  config: ListScreenConfig<Row>,
  controls: ListControls,
  {
    rows,
    filter,
    totalDocs,
    totalIsEstimate,
  }: { rows: Row[]; filter: ListFilter; totalDocs: number; totalIsEstimate: boolean },
) {
  const { t } = useTranslation();
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  return useMemo(
    () =>
      config.bulkActions
        ? {
            selectedIds,
            onChange: setSelectedIds,
            selectAllLabel: t('list.selectAll'),
            selectLabel: t('list.select'),
            bulkActions: (ids: string[]) =>
              config.bulkActions!(
                ids,
                controls,
                { filter, totalDocs, totalIsEstimate, shown: rows.length },
                rows.filter((row) => ids.includes(row.id)),
              ),
          }
        : undefined,
    [config, controls, selectedIds, t, filter, totalDocs, totalIsEstimate, rows],
  );
}

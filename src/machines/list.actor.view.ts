import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import type { ListSearch } from '../api/list-url';
import { decodeOrder } from '../../contract/list-query';
import { inspect } from '../devtools/inspect';
import { initialValuesOf, isHiddenFilter, type FilterDef } from '../ui/dom/list/filter-bar';
import { rememberedPageSize } from '../ui/dom/list/page-size';
import { listKey, type ListScreenConfig, type ScrollChoice } from './list.config.view';
import { listMachine, type Preselect } from './list.machine';

/**
 * The list machine of one list screen, started from the address (or, for an endless list,
 * from what the address had), the remembered page size and the viewport.
 */
export function useListActor<Row extends { id: string }>(
  config: ListScreenConfig<Row>,
  search: ListSearch,
  isMobile: boolean,
  scroll: ScrollChoice | undefined,
) {
  const urlState = config.urlState !== false;
  // The page size is remembered per list screen (the endpoint without its fixed parameters);
  // one in the address wins.
  const [initialLimit] = useState(() =>
    config.mode === 'paged' ? (rememberedPageSize(listKey(config)) ?? config.limit) : config.limit,
  );
  return useActorRef(listMachine, {
    inspect,
    input: {
      endpoint: config.endpoint,
      rowSchema: config.rowSchema,
      limit: initialLimit,
      mode: config.mode,
      // The endless form of a paged list starts from the filter and sort the address had.
      initialOrder:
        scroll?.scrolls && search.order ? decodeOrder(search.order) : config.defaultOrder,
      // An address without a filter starts from the filters' initial values (spec §3 value).
      ...(urlState
        ? { search: search.filter === undefined ? initialSearch(search, config.filters) : search }
        : {
            initialFilter:
              scroll?.scrolls && search.filter ? search.filter : initialValuesOf(config.filters),
          }),
      preselect: preselectsOf(config.filters),
      isMobile,
      newRowsOnTop: config.newRowsOnTop,
      ...(config.reorder ? { reorder: { endpoint: config.reorder.endpoint } } : {}),
    },
  });
}

/** One list screen's actor. */
export type ListActor = ReturnType<typeof useListActor>;

/** The address's list state with the initial values as its filter, when there are any. */
function initialSearch(search: ListSearch, filters: readonly FilterDef[]): ListSearch {
  const initial = initialValuesOf(filters);
  return Object.keys(initial).length === 0 ? search : { ...search, filter: initial };
}

/** Spec §4: single-select filters with a preselectValue; hidden ones only count on mobile. */
function preselectsOf(filters: readonly FilterDef[]): Preselect[] {
  return filters.flatMap((f) =>
    f.type === 'single-select' && f.preselectValue
      ? [
          {
            field: f.field,
            value: f.preselectValue,
            hiddenOnDesktop: isHiddenFilter(f),
          },
        ]
      : [],
  );
}

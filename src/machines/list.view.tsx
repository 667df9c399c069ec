import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListOrder } from '../api/list-query';
import { parseListSearch, toListSearch, type ListSearch } from '../api/list-url';
import { inspect } from '../inspect';
import type { RowSchema } from '../api/lists';
import {
  isFilterActive,
  listMachine,
  selectError,
  selectFilter,
  selectIsLoadingMore,
  selectOrder,
  selectPage,
  selectRows,
  selectStatus,
  selectTotalDocs,
  selectTotalPages,
  type ListMode,
} from './list.machine';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { DataTable, type ActionMenuItem, type ListColumn } from '../ui/dom/list/data-table';
import {
  FilterBar,
  MOBILE_QUERY,
  type FilterDef,
  type FilterValues,
} from '../ui/dom/list/filter-bar';
import { Pager } from '../ui/dom/list/pager';
import { useMediaQuery } from '../ui/dom/use-media-query';
import type { z } from 'zod/mini';
import { describeError } from '../api/error-info';
import { AutocompleteFilter } from './autocomplete.view';

/** Everything one list screen needs; the route file only fills this in. */
export interface ListScreenConfig<Row extends { id: string }> {
  title: string;
  endpoint: string;
  rowSchema: RowSchema<Row>;
  columns: ListColumn<Row>[];
  filters: FilterDef[];
  /** Validates the `filter` search param (URL state). */
  filterSchema: z.core.$ZodType;
  sortFields: readonly string[];
  defaultOrder: ListOrder;
  mode: ListMode;
  /** Keep filter, order and page in the address. */
  urlState: boolean;
  limit?: number;
  /** The order-update endpoint (menu reorder); `drag` adds drag handles too. */
  reorder?: { endpoint: string; drag?: boolean };
  rowLabel: (row: Row) => string;
  rowActions?: (row: Row, list: ListControls) => ActionMenuItem<Row>[];
  /** Buttons or forms above the list (create, add...). */
  toolbar?: (list: ListControls) => ReactNode;
}

/** What row actions and toolbars get: run a change, then the list reloads; failures are shown. */
export interface ListControls {
  refresh: () => void;
  /** Resolves true once the change is stored (and the list reloads), false when it failed. */
  run: (work: () => Promise<unknown>) => Promise<boolean>;
}

const REORDER_NOTICE_MS = 6000;

/** Binds the list machine to the filter bar, the table and the pager (or infinite scroll). */
export function ListScreen<Row extends { id: string }>({
  config,
  search,
}: {
  config: ListScreenConfig<Row>;
  search: ListSearch;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const initial = config.urlState
    ? parseListSearch(search as Record<string, unknown>, config.filterSchema, config)
    : { filter: {}, order: config.defaultOrder, page: 1 };
  const actor = useActorRef(listMachine, {
    inspect,
    input: {
      endpoint: config.endpoint,
      rowSchema: config.rowSchema,
      limit: config.limit,
      mode: config.mode,
      initialFilter: initial.filter,
      initialOrder: initial.order,
      initialPage: initial.page,
      ...(config.reorder ? { reorder: { endpoint: config.reorder.endpoint } } : {}),
    },
  });
  const status = useSelector(actor, selectStatus);
  const rows = useSelector(actor, selectRows) as Row[];
  const page = useSelector(actor, selectPage);
  const totalPages = useSelector(actor, selectTotalPages);
  const totalDocs = useSelector(actor, selectTotalDocs);
  const order = useSelector(actor, selectOrder);
  const filter = useSelector(actor, selectFilter);
  const error = useSelector(actor, selectError);
  const isLoadingMore = useSelector(actor, selectIsLoadingMore);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => actor.send({ type: 'REFRESH' });
  // Row actions and toolbars write through one mutation: the list reloads after it, a failure
  // is shown. What else the change touches, its request function's cache effect updates.
  const change = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onSuccess: refresh,
    onError: (e) => setNotice(describeError(e, t)),
  });
  const controls: ListControls = {
    refresh,
    run: (work) =>
      change.mutateAsync(work).then(
        () => true,
        () => false,
      ),
  };

  // The machine is the source of truth; the address follows it. Paging, sorting and choosing
  // filters add history entries (Back undoes them); typing in a text filter and the first
  // normalisation replace the current entry so the history is not flooded.
  const written = useRef('');
  useEffect(() => {
    if (!config.urlState) return;
    const next = toListSearch({ filter, order, page }, { mode: config.mode });
    const key = JSON.stringify(next);
    if (key === written.current) return;
    const previous = written.current ? (JSON.parse(written.current) as ListSearch) : null;
    written.current = key;
    const typing =
      previous !== null &&
      previous.filter?.search !== next.filter?.search &&
      JSON.stringify({ ...previous.filter, search: undefined }) ===
        JSON.stringify({ ...next.filter, search: undefined }) &&
      previous.order === next.order;
    void navigate({ to: '.', search: next as never, replace: previous === null || typing });
  }, [config.urlState, config.mode, filter, order, page, navigate]);

  // ... and adopts the address when it changes from outside (back, forward, a pasted link).
  useEffect(() => {
    if (!config.urlState) return;
    const key = JSON.stringify(search);
    if (key === written.current) return;
    written.current = key;
    const state = parseListSearch(search as Record<string, unknown>, config.filterSchema, config);
    actor.send({ type: 'SET_QUERY', ...state });
  }, [search, config, actor]);

  useEffect(() => {
    const subscription = actor.on('REORDER_FAILED', () => setNotice(t('list.reorderFailed')));
    return () => subscription.unsubscribe();
  }, [actor, t]);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), REORDER_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  // A single-select with preselectValue fills itself when empty (on mobile, hidden ones too).
  useEffect(() => {
    for (const f of config.filters) {
      if (f.type !== 'single-select' || !f.preselectValue || filter[f.field]) continue;
      const hidden = f.hiddenWithOneOption && (f.options?.length ?? 0) <= 1;
      const offScreen = hidden || (isMobile && !f.visibleOnMobile);
      if (!offScreen || isMobile) {
        actor.send({ type: 'SET_FILTER', field: f.field, value: f.preselectValue });
      }
    }
  }, [config.filters, filter, isMobile, actor]);

  const active = isFilterActive(filter);
  return (
    <section className="list-screen" aria-labelledby="list-title">
      <div className="list-header">
        <h1 id="list-title">{config.title}</h1>
        {status === 'success' && (
          <span className="count">{t('list.total', { count: totalDocs })}</span>
        )}
        {config.toolbar?.(controls)}
      </div>
      <FilterBar
        filters={config.filters}
        values={filter as FilterValues}
        onChange={(field, value) => actor.send({ type: 'SET_FILTER', field, value })}
        onApply={(values) => actor.send({ type: 'SET_FILTERS', filter: values })}
        onClear={() => actor.send({ type: 'CLEAR_FILTERS' })}
        isActive={active}
        labels={{
          filters: t('list.filters'),
          allFilters: t('list.allFilters'),
          apply: t('list.apply'),
          cancel: t('list.cancel'),
          clear: t('list.clear'),
          any: t('list.any'),
        }}
        renderAutocomplete={(def, value, onChange) => (
          <AutocompleteFilter key={def.field} filter={def} value={value} onChange={onChange} />
        )}
      />
      {notice && (
        <div className="toast">
          <Alert tone="error">{notice}</Alert>
        </div>
      )}
      {status === 'error' ? (
        <Alert tone="error">
          {t('list.failed', { message: describeError(error, t) })}
          <ActionButton onPress={() => actor.send({ type: 'RETRY' })}>
            {t('list.retry')}
          </ActionButton>
        </Alert>
      ) : (
        <DataTable
          columns={config.columns}
          rows={rows}
          labels={{
            table: config.title,
            actions: t('list.actions'),
            dragHandle: (name) => t('list.dragHandle', { name }),
            loading: t('list.loading'),
            noItems: t('list.noItems'),
            noMatches: t('list.noMatches'),
            clearFilters: t('list.clearFilters'),
            loadingMore: t('list.loadingMore'),
          }}
          rowLabel={config.rowLabel}
          order={order}
          onSort={(field) => actor.send({ type: 'SORT', field })}
          {...(config.rowActions
            ? { rowActions: (row: Row) => config.rowActions!(row, controls) }
            : {})}
          onSetOrder={(row, position) => actor.send({ type: 'SET_ORDER', id: row.id, position })}
          {...(config.reorder?.drag
            ? { onMove: (id: string, toIndex: number) => actor.send({ type: 'MOVE', id, toIndex }) }
            : {})}
          isLoading={status === 'loading' || status === 'uninitialized'}
          skeletonRows={config.limit ?? 10}
          showProgress
          isFiltered={active}
          onClearFilters={() => actor.send({ type: 'CLEAR_FILTERS' })}
          {...(config.mode === 'infinite' && page < totalPages
            ? { onLoadMore: () => actor.send({ type: 'LOAD_MORE' }), isLoadingMore }
            : {})}
        />
      )}
      {config.mode === 'paged' && (
        <Pager
          page={page}
          totalPages={totalPages}
          onPage={(next) => actor.send({ type: 'SET_PAGE', page: next })}
          labels={{
            nav: t('list.pages'),
            previous: t('list.previous'),
            next: t('list.next'),
            page: (n) => t('list.page', { page: n }),
          }}
        />
      )}
    </section>
  );
}

import { useMutation } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListDefinition, ListSearch } from '../api/list-url';
import { rememberListSearch } from '../api/list-return';
import { inspect } from '../devtools/inspect';
import type { RowSchema } from '../api/lists';
import {
  listMachine,
  selectCanLoadMore,
  selectIsFilterActive,
  selectError,
  selectFilter,
  selectIncomingCount,
  selectIsLoadingMore,
  selectIsLoadingOtherRows,
  selectIsTooDeep,
  selectLimit,
  selectOrder,
  selectPage,
  selectRemovedIds,
  selectRows,
  selectSetFilterCount,
  selectStatus,
  selectTotalDocs,
  selectTotalIsEstimate,
  selectTotalPages,
  type Preselect,
} from './list.machine';
import { ActionButton } from '../ui/dom/action-button';
import { Breadcrumbs } from '../ui/dom/breadcrumbs';
import { Alert } from '../ui/dom/alert';
import type { ListColumn } from '../ui/dom/list/columns';
import { DataTable } from '../ui/dom/list/data-table';
import { dataTableLabels } from '../ui/dom/list/data-table-labels';
import type { ActionMenuItem } from '../ui/dom/list/row-menu';
import {
  FilterBar,
  filterBarLabels,
  initialValuesOf,
  isHiddenFilter,
  MOBILE_QUERY,
  type FilterDef,
} from '../ui/dom/list/filter-bar';
import { IgnoredFilterNotice } from '../ui/dom/list/ignored-filter-notice';
import { ListTotal } from '../ui/dom/list/list-total';
import { Pager } from '../ui/dom/list/pager';
import { PageSize, rememberedPageSize } from '../ui/dom/list/page-size';
import { rememberedScroll, ScrollSwitch } from '../ui/dom/list/scroll-switch';
import { SortMenu } from '../ui/dom/list/sort-menu';
import { decodeOrder, LIST_PAGE_SIZES, sortOf, type ListFilter } from '../../contract/list-query';
import { useMediaQuery } from '../ui/dom/use-media-query';
import { describeError } from '../api/error-info';
import { onListChange } from '../api/live-cache';
import type { Can } from '../../contract/ability';
import { announce } from '../ui/dom/toasts';
import { useDocumentTitle } from '../ui/dom/use-document-title';
import { AutocompleteFilter } from './autocomplete.view';
import { Allowed, usePermissions, type Requirement } from './permissions.view';
import { useIgnoredFilter } from './ignored-filter.view';

/** Everything one list screen needs; the route's list definition plus what the screen shows. */
export interface ListScreenConfig<Row extends { id: string }> extends ListDefinition {
  title: string;
  /** Who may see the list; others get a "not available for your role" page. */
  requires: Requirement;
  /** Links to the screens above the list, shown above the title as breadcrumbs ending in it. */
  breadcrumbs?: ReactNode[];
  /** The browser tab's title, most specific first (default: the title). */
  documentTitle?: string[];
  /** The list endpoint, e.g. `v1/assets`. */
  endpoint: string;
  rowSchema: RowSchema<Row>;
  columns: ListColumn<Row>[];
  filters: FilterDef[];
  limit?: number;
  /**
   * A paged list the user may also read as one endless list (a switch beside the title); the
   * endless list keeps its state out of the address, as its page is not one place to link to.
   */
  canScroll?: boolean;
  /** A feed, newest first: rows others add arrive on top of the first page (list machine). */
  newRowsOnTop?: boolean;
  /** The order-update endpoint (menu reorder); `drag` adds drag handles too. */
  reorder?: { endpoint: string; drag?: boolean };
  rowLabel: (row: Row) => string;
  rowActions?: (row: Row, list: ListControls) => ActionMenuItem<Row>[];
  /** Buttons or forms above the list (create, add...). */
  toolbar?: (list: ListControls) => ReactNode;
  /**
   * With it, rows can be selected (a checkbox each, one per page) and these actions act on
   * the selected ids; the selection stays after a change, less the rows that left the list.
   * `scope` says what "every row matching this filter" is, for actions that offer it.
   */
  bulkActions?: (
    ids: string[],
    list: ListControls,
    scope: BulkScope,
    /** The selected rows as shown (the selection is of rows on screen). */
    selected: Row[],
  ) => ReactNode;
}

/** The rows a bulk bar may act on beyond the selection: every one the list's filter matches. */
export interface BulkScope {
  filter: ListFilter;
  totalDocs: number;
  totalIsEstimate: boolean;
  /** The rows on screen: when every one is selected, the bar may offer all the matches. */
  shown: number;
}

/** What a change says once it is stored, and how to take it back where that is cheap. */
export interface ChangeOutcome {
  /** e.g. "Olive Cyber locked". */
  done: string;
  undo?: { run: () => Promise<unknown>; done: string };
  /** The record the change created: the list marks its row where it lands on this page. */
  created?: { id: string };
}

/** What row actions and toolbars get: run a change, then the list reloads; failures are shown. */
export interface ListControls {
  refresh: () => void;
  /**
   * Resolves true once the change is stored (and the list reloads), false when it failed.
   * With `outcome`, a toast says what happened and offers its Undo; `outcome` may be made from
   * the change's answer (a bulk change answers which rows it changed, and Undo takes back those).
   */
  run: <T>(
    work: () => Promise<T>,
    outcome?: ChangeOutcome | ((answer: T) => ChangeOutcome),
  ) => Promise<boolean>;
  /** Says what a change stored elsewhere (a dialog's own save) did, with its Undo. */
  announce: (outcome: ChangeOutcome) => void;
}

/** Says in a toast why a change failed. */
export const announceFailure = (error: unknown, t: TFunction) =>
  announce({ title: describeError(error, t) ?? String(error), tone: 'error' });

/** How an Undo runs, where not on its own (the toast may outlive the screen that asked). */
interface UndoOptions {
  /** Runs the inverse; default: as it is. */
  run?: (work: () => Promise<unknown>) => Promise<unknown>;
  /** Says why the inverse failed; default: announceFailure. */
  failed?: (error: unknown) => void;
}

/** Says what a stored change did; its Undo runs the inverse and says so too, or why it failed. */
export function announceOutcome(
  outcome: ChangeOutcome,
  t: TFunction,
  { run = (work) => work(), failed = (error) => announceFailure(error, t) }: UndoOptions = {},
) {
  const { undo } = outcome;
  announce({
    title: outcome.done,
    tone: 'success',
    ...(undo && {
      action: {
        label: t('list.undo'),
        onAction: () =>
          void run(undo.run).then(() => announce({ title: undo.done, tone: 'info' }), failed),
      },
    }),
  });
}

/**
 * A list screen as the user may see it: the config factory gets the user's language and
 * permissions (toolbars and row actions offer only what the role may do).
 */
export function ListScreen<Row extends { id: string }>({
  config: configOf,
}: {
  /** The screen in the user's language; stable (module level, or memoised with its inputs). */
  config: (t: TFunction, can: Can) => ListScreenConfig<Row>;
}) {
  const { t } = useTranslation();
  const can = usePermissions();
  const config = useMemo(() => configOf(t, can), [configOf, t, can]);
  const [scrolls, setScrolls] = useState(
    () => config.canScroll === true && rememberedScroll(listKey(config)),
  );
  // Another list machine for the other mode (a key of its own): it starts from what the
  // address says, and an endless list keeps no page there.
  const shown = useMemo(
    (): ListScreenConfig<Row> =>
      scrolls ? { ...config, mode: 'infinite', urlState: false } : config,
    [config, scrolls],
  );
  return (
    <Allowed requires={config.requires}>
      <ListScreenBody
        key={scrolls ? 'scroll' : 'pages'}
        config={shown}
        {...(config.canScroll ? { scroll: { scrolls, onChange: setScrolls } } : {})}
      />
    </Allowed>
  );
}

/** The name a list screen's choices are remembered by: its endpoint without fixed parameters. */
const listKey = (config: { endpoint: string }) => config.endpoint.split('?')[0] ?? config.endpoint;

/** Binds the list machine to the filter bar, the table and the pager (or infinite scroll). */
function ListScreenBody<Row extends { id: string }>({
  config,
  scroll,
}: {
  config: ListScreenConfig<Row>;
  /** The switch between the pager and one endless list, where the list offers it. */
  scroll?: { scrolls: boolean; onChange: (scrolls: boolean) => void };
}) {
  const { t } = useTranslation();
  // The route validated its search with the same list definition (`defineList`).
  const search: ListSearch = useSearch({ strict: false });
  const navigate = useNavigate();
  const filterIgnored = useIgnoredFilter(config.urlState !== false);
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const urlState = config.urlState !== false;
  // The page size is remembered per list screen (the endpoint without its fixed parameters);
  // one in the address wins.
  const sizeKey = listKey(config);
  const [initialLimit] = useState(() =>
    config.mode === 'paged' ? (rememberedPageSize(sizeKey) ?? config.limit) : config.limit,
  );
  const actor = useActorRef(listMachine, {
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
  const status = useSelector(actor, selectStatus);
  const rows = useSelector(actor, selectRows) as Row[];
  const page = useSelector(actor, selectPage);
  const limit = useSelector(actor, selectLimit);
  const totalPages = useSelector(actor, selectTotalPages);
  const totalDocs = useSelector(actor, selectTotalDocs);
  const totalIsEstimate = useSelector(actor, selectTotalIsEstimate);
  const order = useSelector(actor, selectOrder);
  const filter = useSelector(actor, selectFilter);
  const error = useSelector(actor, selectError);
  const isTooDeep = useSelector(actor, selectIsTooDeep);
  const isLoadingMore = useSelector(actor, selectIsLoadingMore);
  const isStale = useSelector(actor, selectIsLoadingOtherRows);
  const [selectedIds, setSelectedIds] = useState<string[]>([]);
  const [createdId, setCreatedId] = useState<string>();
  // Row actions and toolbars write through one mutation: the list reloads after it, a failure
  // is shown. What else the change touches, its request function's cache effect updates.
  const { mutateAsync } = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onMutate: () => Date.now(),
    // A change whose cache effect has read the list's pages again (their invalidation awaits
    // the read of what is on screen) has nothing left to refresh.
    onSuccess: (_answer, _work, startedAt) =>
      actor.send({ type: 'REFRESH', unlessReadSince: startedAt }),
    // Errors have one place each: a list that cannot load says so in its region (with Try
    // again); an action that failed says so in a toast, like every other action's failure.
    onError: (e) => announceFailure(e, t),
  });
  // Stable while the language is (mutateAsync and the actor are), so the rows the table keeps
  // stay valid: their menus ask for their items through it when they open.
  const controls = useMemo((): ListControls => {
    const announceChange = (outcome: ChangeOutcome) =>
      // The list's mutation says why an Undo failed.
      announceOutcome(outcome, t, { run: (undo) => mutateAsync(undo), failed: () => undefined });
    return {
      refresh: () => actor.send({ type: 'REFRESH' }),
      announce: announceChange,
      run: <T,>(work: () => Promise<T>, outcome?: ChangeOutcome | ((answer: T) => ChangeOutcome)) =>
        mutateAsync(work).then(
          (answer) => {
            // The mutation runs `work`, so its answer is what `work` resolved to.
            const said = typeof outcome === 'function' ? outcome(answer as T) : outcome;
            if (said) announceChange(said);
            if (said?.created) setCreatedId(said.created.id);
            return true;
          },
          () => false,
        ),
    };
  }, [actor, mutateAsync, t]);

  const selection = useMemo(
    () =>
      config.bulkActions
        ? {
            selectedIds,
            onChange: setSelectedIds,
            selectAllLabel: t('list.selectAll'),
            selectLabel: t('list.select'),
            // The selection stays after a change (lock, then tag, without selecting again); the
            // table drops the ids of rows that leave the screen (deleted, filtered out).
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

  // A role that may do nothing to these rows gets no menu column (kept while rows load).
  const rowActions = useMemo(() => {
    const actionsOf = config.rowActions;
    return actionsOf ? (row: Row) => actionsOf(row, controls) : undefined;
  }, [config, controls]);
  const hasRowActions = useMemo(
    () =>
      rowActions !== undefined &&
      (rows.length === 0 || rows.some((row) => rowActions(row).length > 0)),
    [rowActions, rows],
  );
  const tableLabels = useMemo(() => dataTableLabels(t, config.title), [t, config.title]);
  // The table and the filter bar get props that change only with what they show, so a
  // selection, an address write or a status change does not re-render them
  // (the typing and sort timings of docs/benchmarks.md).
  const setOrder = useCallback(
    (row: Row, position: number) => actor.send({ type: 'SET_ORDER', id: row.id, position }),
    [actor],
  );
  const sortBy = useCallback((field: string) => actor.send({ type: 'SORT', field }), [actor]);
  const move = useCallback(
    (id: string, toIndex: number) => actor.send({ type: 'MOVE', id, toIndex }),
    [actor],
  );
  const clearFilters = useCallback(() => actor.send({ type: 'CLEAR_FILTERS' }), [actor]);
  const setPage = useCallback(
    (next: number) => actor.send({ type: 'SET_PAGE', page: next }),
    [actor],
  );
  const pagerLabels = useMemo(
    () => ({
      nav: t('list.pages'),
      previous: t('list.previous'),
      next: t('list.next'),
      page: (n: number) => t('list.page', { page: n }),
      number: (n: number) => t('list.pageNumber', { page: n }),
      last: t('list.last'),
      lastPage: t('list.lastPage'),
      of: (n: number, total: number, estimate: boolean) =>
        t(estimate ? 'list.pageOfAbout' : 'list.pageOf', { page: n, total }),
    }),
    [t],
  );
  const loadMore = useCallback(() => actor.send({ type: 'LOAD_MORE' }), [actor]);

  // The address flows one way. A change the user makes is written to the address (the machine
  // says what, and whether it adds a history entry: NAVIGATE); whatever the address then reads
  // (that write, back, forward, a pasted link) is the list's query (ADDRESS_CHANGED). Listening
  // starts before the first ADDRESS_CHANGED, whose answer may be the normalised address.
  useEffect(() => {
    const asked = actor.on('NAVIGATE', (next) => {
      void navigate({ to: '.', search: next.search as never, replace: next.replace });
    });
    return () => asked.unsubscribe();
  }, [actor, navigate]);
  useEffect(() => {
    if (!urlState) return;
    actor.send({ type: 'ADDRESS_CHANGED', search });
    // A record page opened from here returns to the list as it is now.
    rememberListSearch(sizeKey, search);
  }, [urlState, search, actor, sizeKey]);
  useEffect(() => {
    actor.send({ type: 'VIEWPORT_CHANGED', isMobile });
  }, [isMobile, actor]);

  useEffect(() => {
    const failed = actor.on('REORDER_FAILED', () =>
      announce({ title: t('list.reorderFailed'), tone: 'error' }),
    );
    // A stored move says where the row went, and puts it back on Undo.
    const moved = actor.on('REORDERED', ({ id, position, previousPosition }) => {
      const row = actor.getSnapshot().context.rows.find((r) => r.id === id) as Row | undefined;
      announce({
        title: t('list.moved', { name: row ? config.rowLabel(row) : id, position }),
        tone: 'success',
        action: {
          label: t('list.undo'),
          onAction: () => actor.send({ type: 'SET_ORDER', id, position: previousPosition }),
        },
      });
    });
    return () => {
      failed.unsubscribe();
      moved.unsubscribe();
    };
  }, [actor, t, config]);

  // Changes by others (the live stream): rows update in place, new ones above wait for "show".
  useEffect(
    () =>
      onListChange((shows) => {
        if (shows === 'all' || shows(config.endpoint)) actor.send({ type: 'REMOTE_CHANGED' });
      }),
    [actor, config.endpoint],
  );
  const removedIds = useSelector(actor, selectRemovedIds);
  const incoming = useSelector(actor, selectIncomingCount);

  const active = useSelector(actor, selectIsFilterActive);
  // Filters beyond the preselected values: Clear shows and All Filters counts only these.
  const setFilterCount = useSelector(actor, selectSetFilterCount);
  const canLoadMore = useSelector(actor, selectCanLoadMore);
  useDocumentTitle(...(config.documentTitle ?? [config.title]));
  const sortable = config.columns.filter((column) => column.sortable);
  const filterBar = useMemo(
    () => (
      <FilterBar
        filters={config.filters}
        values={filter}
        onChange={(field, value) => actor.send({ type: 'SET_FILTER', field, value })}
        onApply={(values) => actor.send({ type: 'SET_FILTERS', filter: values })}
        onClear={() => actor.send({ type: 'CLEAR_FILTERS' })}
        setCount={setFilterCount}
        labels={filterBarLabels(t)}
        renderAutocomplete={(def, value, onChange) => (
          <AutocompleteFilter
            key={def.field}
            // Empty, it says "Any" like the other filters.
            filter={{ placeholder: t('list.any'), ...def }}
            value={value}
            onChange={onChange}
          />
        )}
      />
    ),
    [actor, config.filters, filter, setFilterCount, t],
  );
  return (
    <section className="list-screen" aria-labelledby="list-title">
      {config.breadcrumbs && (
        <Breadcrumbs
          label={t('nav.breadcrumb')}
          trail={config.breadcrumbs}
          current={config.title}
        />
      )}
      <div className="list-header">
        <h1 id="list-title">{config.title}</h1>
        {status === 'success' && <ListTotal total={totalDocs} estimate={totalIsEstimate} />}
        {/* Announced as it appears: rows others added wait here rather than push rows down. */}
        <span role="status" className="incoming">
          {incoming > 0 && (
            <ActionButton variant="primary" onPress={() => actor.send({ type: 'SHOW_INCOMING' })}>
              {t('list.incoming', { count: incoming })}
            </ActionButton>
          )}
        </span>
        {scroll && (
          <ScrollSwitch
            list={sizeKey}
            scrolls={scroll.scrolls}
            onChange={scroll.onChange}
            label={t('list.scroll')}
          />
        )}
        {config.toolbar?.(controls)}
      </div>
      <IgnoredFilterNotice
        ignored={filterIgnored.ignored}
        message={t('list.filterIgnored')}
        dismissLabel={t('list.dismiss')}
        onDismiss={filterIgnored.dismiss}
      />
      {filterBar}
      {/* On a phone the headers are folded into cards: the sort is chosen here. */}
      {isMobile && sortable.length > 0 && (
        <SortMenu
          columns={sortable}
          order={order}
          onChange={(next) => actor.send({ type: 'SET_QUERY', order: next })}
          labels={{
            sortBy: t('list.sortBy'),
            direction: (field, direction) => t(`list.sorted.${direction}`, { field }),
          }}
        />
      )}
      {/* Where the rows are longer than the window, the way to the next page is above them too. */}
      {config.mode === 'paged' && (
        <div className="list-pager-top">
          <Pager
            compact
            page={page}
            totalPages={totalPages}
            estimate={totalIsEstimate}
            onPage={setPage}
            labels={{ ...pagerLabels, nav: t('list.pagesTop') }}
          />
        </div>
      )}
      {status === 'error' && isTooDeep ? (
        <TooDeep
          page={page}
          canReverse={sortOf(order) !== null}
          onReverse={() => {
            const sort = sortOf(order);
            if (sort) actor.send({ type: 'SORT', field: sort.field });
          }}
          onFirstPage={() => actor.send({ type: 'SET_PAGE', page: 1 })}
        />
      ) : status === 'error' ? (
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
          labels={tableLabels}
          rowLabel={config.rowLabel}
          order={order}
          onSort={sortBy}
          {...(hasRowActions ? { rowActions } : {})}
          {...(selection ? { selection } : {})}
          onSetOrder={setOrder}
          {...(config.reorder?.drag ? { onMove: move } : {})}
          removedIds={removedIds}
          {...(createdId ? { createdId } : {})}
          isLoading={status === 'loading' || status === 'uninitialized'}
          isStale={isStale}
          skeletonRows={limit}
          showProgress
          isFiltered={active}
          onClearFilters={clearFilters}
          {...(canLoadMore ? { onLoadMore: loadMore, isLoadingMore } : {})}
        />
      )}
      {/* An infinite list scrolled as deep as the server pages: its rows end here, and why. */}
      {config.mode === 'infinite' && status === 'success' && isTooDeep && (
        <Alert tone="info">{t('list.tooDeepMore')}</Alert>
      )}
      {config.mode === 'paged' && (
        <div className="list-footer">
          <Pager
            page={page}
            totalPages={totalPages}
            estimate={totalIsEstimate}
            onPage={setPage}
            labels={pagerLabels}
            span={isMobile ? 0 : 2}
          />
          {/* Only where there is more than the smallest page to show, or a larger one chosen. */}
          {(totalDocs > LIST_PAGE_SIZES[0] || limit !== LIST_PAGE_SIZES[0]) && (
            <PageSize
              list={sizeKey}
              value={limit}
              label={t('list.pageSize')}
              onChange={(size) => actor.send({ type: 'SET_LIMIT', limit: size })}
            />
          )}
        </div>
      )}
    </section>
  );
}

/**
 * Why a page of a large list is not shown (the server pages it only so deep from either end),
 * and the ways on: the same list sorted the other way starts with its end; the first page.
 */
function TooDeep({
  page,
  canReverse,
  onReverse,
  onFirstPage,
}: {
  page: number;
  canReverse: boolean;
  onReverse: () => void;
  onFirstPage: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert tone="info">
      {t('list.tooDeep', { page })}
      <div className="alert-actions">
        {canReverse && <ActionButton onPress={onReverse}>{t('list.sortOtherWay')}</ActionButton>}
        <ActionButton onPress={onFirstPage}>{t('list.firstPage')}</ActionButton>
      </div>
    </Alert>
  );
}

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

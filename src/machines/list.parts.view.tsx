/**
 * The pieces of a list screen, each reading from the list machine only the values it shows
 * (narrow selectors), so a change re-renders the piece that shows it and not the whole screen:
 * a page turn the pagers and the rows, a keystroke in a filter the filter bar.
 */
import { useSelector } from '@xstate/react';
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import type { SnapshotFrom } from 'xstate';
import { canonical, LIST_PAGE_SIZES, sortOf } from '../../contract/list-query';
import { describeError } from '../api/error-info';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { Breadcrumbs } from '../ui/dom/breadcrumbs';
import { DataTable } from '../ui/dom/list/data-table';
import { dataTableLabels } from '../ui/dom/list/data-table-labels';
import { FilterBar, filterBarLabels, type FilterDef } from '../ui/dom/list/filter-bar';
import { ListTotal } from '../ui/dom/list/list-total';
import { PageSize as PageSizeView } from '../ui/dom/list/page-size';
import { Pager as PagerView, rememberedTotal, rememberTotal } from '../ui/dom/list/pager';
import { ScrollSwitch } from '../ui/dom/list/scroll-switch';
import { SortMenu } from '../ui/dom/list/sort-menu';
import { AutocompleteFilter } from './autocomplete.view';
import type { ListActor } from './list.actor.view';
import { listKey, type ListScreenConfig, type ScrollChoice } from './list.config.view';
import {
  selectAwaitsFirstAnswer,
  selectCanLoadMore,
  selectError,
  selectFilter,
  selectIncomingCount,
  selectIsFilterActive,
  selectIsLoadingMore,
  selectIsLoadingOtherRows,
  selectIsTooDeep,
  selectLimit,
  selectOrder,
  selectPage,
  selectRemovedIds,
  selectRows,
  selectSetFilterCount,
  selectShownQuery,
  selectStatus,
  selectTotalDocs,
  selectTotalIsEstimate,
  selectTotalPages,
} from './list.machine';
import type { ListControls } from './list.outcome.view';
import { useListReorder } from './list.reorder.view';
import { useListSelection } from './list.selection.view';

/**
 * A value of the list the rows go with (the rows, the pages, the total, the load state), as a
 * background render shows it: a page, sort or page size chosen paints the press at once, and
 * the rows, pagers and total of the new page follow together in one time-sliced render (the
 * deferred values of one update render in the same pass). An answer that arrives before that
 * render is done restarts it, so its rows mount once, without skeleton rows before them.
 */
function useShown<T>(
  actor: ListActor,
  selector: (snapshot: SnapshotFrom<ListActor>) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useDeferredValue(useSelector(actor, selector, compare));
}

/**
 * The filter and the order keep their content across a page turn or a sort of the other one,
 * but the machine makes them anew: compared by content, what shows them is not drawn again.
 */
const sameContent = (a: unknown, b: unknown) => a === b || canonical(a) === canonical(b);

/**
 * The breadcrumbs, title, total, rows others added, the scroll switch and the toolbar. On a
 * phone the toolbar is one row, its primary actions and More, which shows the other controls
 * below it. They stay mounted while folded: a view opened by link applies, a dialog one opened
 * stays, and what they say (whose view this is) still shows.
 */
export const ListHeader = memo(function ListHeader({
  actor,
  title,
  breadcrumbs,
  scroll,
  scrollKey,
  more,
  toolbar,
  isMobile,
}: {
  actor: ListActor;
  title: string;
  breadcrumbs: ReactNode[] | undefined;
  scroll: ScrollChoice | undefined;
  /** The name the scroll choice is remembered by. */
  scrollKey: string;
  /** The controls a phone folds into More (views, columns, a list's own). */
  more: ReactNode;
  /** The primary actions (New, Invite...), in reach at every width. */
  toolbar: ReactNode;
  isMobile: boolean;
}) {
  const { t } = useTranslation();
  const status = useShown(actor, selectStatus);
  const totalDocs = useShown(actor, selectTotalDocs);
  const totalIsEstimate = useShown(actor, selectTotalIsEstimate);
  const incoming = useSelector(actor, selectIncomingCount);
  const [moreShown, setMoreShown] = useState(false);
  const moreId = useId();
  const scrollSwitch = scroll && (
    <ScrollSwitch
      list={scrollKey}
      scrolls={scroll.scrolls}
      onChange={scroll.onChange}
      label={t('list.scroll')}
    />
  );
  return (
    <>
      {breadcrumbs && (
        <Breadcrumbs label={t('nav.breadcrumb')} trail={breadcrumbs} current={title} />
      )}
      <div className="list-header">
        <h1 id="list-title">{title}</h1>
        {/* Its place is kept while the list loads: the toolbar beside it does not jump. */}
        {status === 'success' ? (
          <ListTotal total={totalDocs} estimate={totalIsEstimate} />
        ) : (
          <span className="count count-place" aria-hidden="true" />
        )}
        {/* Announced as it appears: rows others added wait here rather than push rows down. */}
        <span role="status" className="incoming">
          {incoming > 0 && (
            <ActionButton variant="primary" onPress={() => actor.send({ type: 'SHOW_INCOMING' })}>
              {t('list.incoming', { count: incoming })}
            </ActionButton>
          )}
        </span>
        {isMobile ? (
          <>
            <div className="list-toolbar">
              {toolbar}
              <Button
                className="button list-more-button"
                aria-expanded={moreShown}
                aria-controls={moreId}
                onPress={() => setMoreShown(!moreShown)}
              >
                {t('list.more')}
                <span aria-hidden="true">{moreShown ? ' ▴' : ' ▾'}</span>
              </Button>
            </div>
            <div
              id={moreId}
              role="group"
              aria-label={t('list.more')}
              className="list-more"
              data-shown={moreShown || undefined}
            >
              {scrollSwitch}
              {more}
            </div>
          </>
        ) : (
          <>
            {scrollSwitch}
            {more}
            {toolbar}
          </>
        )}
      </div>
    </>
  );
});

/** The filter bar, bound to the list's filter. */
export const ListFilters = memo(function ListFilters({
  actor,
  filters,
}: {
  actor: ListActor;
  filters: FilterDef[];
}) {
  const { t } = useTranslation();
  const filter = useSelector(actor, selectFilter, sameContent);
  // Filters beyond the preselected values: Clear shows and All Filters counts only these.
  const setFilterCount = useSelector(actor, selectSetFilterCount);
  return (
    <FilterBar
      filters={filters}
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
  );
});

/** On a phone the headers are folded into cards: the sort is chosen here. */
export const ListSortMenu = memo(function ListSortMenu({
  actor,
  columns,
}: {
  actor: ListActor;
  columns: readonly { field: string; headerName: string; sortable?: boolean }[];
}) {
  const { t } = useTranslation();
  const order = useSelector(actor, selectOrder, sameContent);
  const sortable = columns.filter((column) => column.sortable);
  if (sortable.length === 0) return null;
  return (
    <SortMenu
      columns={sortable}
      order={order}
      onChange={(next) => actor.send({ type: 'SET_QUERY', order: next })}
      labels={{
        sortBy: t('list.sortBy'),
        direction: (field, direction) => t(`list.sorted.${direction}`, { field }),
      }}
    />
  );
});

function usePagerLabels() {
  const { t } = useTranslation();
  return useMemo(
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
}

// Memoised, with props kept stable: a page chosen renders the pagers' owners at once (with the
// page on screen, the new one following in the background render), and nothing below them.
const Pager = memo(PagerView);
const PageSize = memo(PageSizeView);

/**
 * A paged list's pager: above the rows (compact: where the rows are longer than the window,
 * the way to the next page is above them too) or below them with the page size.
 */
export const ListPager = memo(function ListPager({
  actor,
  place,
  isMobile,
  sizeKey,
}: {
  actor: ListActor;
  place: 'top' | 'bottom';
  isMobile: boolean;
  /** The name the page size (and the whole list's total) is remembered by. */
  sizeKey: string;
}) {
  return place === 'top' ? (
    <TopPager actor={actor} sizeKey={sizeKey} />
  ) : (
    <BottomPager actor={actor} isMobile={isMobile} sizeKey={sizeKey} />
  );
});

/** What both pagers show and do: the page, the pages, the total, and a page chosen. */
function usePagerState(actor: ListActor) {
  const page = useShown(actor, selectPage);
  const totalPages = useShown(actor, selectTotalPages);
  const estimate = useShown(actor, selectTotalIsEstimate);
  const totalDocs = useShown(actor, selectTotalDocs);
  const setPage = useCallback(
    (next: number) => actor.send({ type: 'SET_PAGE', page: next }),
    [actor],
  );
  return { labels: usePagerLabels(), page, totalPages, estimate, totalDocs, setPage };
}

function TopPager({ actor, sizeKey }: { actor: ListActor; sizeKey: string }) {
  const { t } = useTranslation();
  const { labels, page, totalPages, estimate, totalDocs, setPage } = usePagerState(actor);
  const status = useShown(actor, selectStatus);
  const filtered = useShown(actor, selectIsFilterActive);
  const awaitsFirstAnswer = useShown(actor, selectAwaitsFirstAnswer);
  // The room above the rows follows the answers that replace them (a list's first, a page, a
  // filter): others' changes merged into the rows on screen neither add it nor take it away,
  // as they move no row (the pager below offers a page they add).
  const shown = useShown(actor, selectShownQuery);
  const topLabels = useMemo(() => ({ ...labels, nav: t('list.pagesTop') }), [labels, t]);
  const [taken, setTaken] = useState({ shown, pages: totalPages });
  if (taken.shown !== shown) setTaken({ shown, pages: totalPages });
  const roomFor = taken.shown === shown ? taken.pages : totalPages;
  // Read once, with the page the list opens at and its size: a filter only narrows the list.
  const [fitsOnePage] = useState(() => {
    const total = rememberedTotal(sizeKey);
    const { page: first, limit } = actor.getSnapshot().context;
    return total !== null && first === 1 && total <= limit;
  });
  useEffect(() => {
    if (status === 'success' && !filtered) rememberTotal(sizeKey, totalDocs);
  }, [status, filtered, sizeKey, totalDocs]);
  if (totalPages > 1 && roomFor > 1) {
    return (
      <div className="list-pager-top">
        <Pager
          compact
          page={page}
          totalPages={totalPages}
          estimate={estimate}
          onPage={setPage}
          labels={topLabels}
        />
      </div>
    );
  }
  // While the first answer is awaited the pager's place is kept, so that the rows do not move
  // down when it brings a pager (Lighthouse's layout shift on a list's load); a list that
  // fitted one page when last shown keeps none. The answer that says there is one page takes
  // the place away in the render that paints its rows.
  if (roomFor <= 1 && (!awaitsFirstAnswer || fitsOnePage)) return null;
  return (
    <div className="list-pager-top">
      <div className="pager compact pager-place" aria-hidden="true">
        <span className="button">&nbsp;</span>
      </div>
    </div>
  );
}

function BottomPager({
  actor,
  isMobile,
  sizeKey,
}: {
  actor: ListActor;
  isMobile: boolean;
  sizeKey: string;
}) {
  const { t } = useTranslation();
  const { labels, page, totalPages, estimate, totalDocs, setPage } = usePagerState(actor);
  const limit = useShown(actor, selectLimit);
  const setLimit = useCallback(
    (size: number) => actor.send({ type: 'SET_LIMIT', limit: size }),
    [actor],
  );
  return (
    <div className="list-footer">
      <Pager
        page={page}
        totalPages={totalPages}
        estimate={estimate}
        onPage={setPage}
        labels={labels}
        span={isMobile ? 0 : 2}
      />
      {/* Only where there is more than the smallest page to show, or a larger one chosen. */}
      {(totalDocs > LIST_PAGE_SIZES[0] || limit !== LIST_PAGE_SIZES[0]) && (
        <PageSize list={sizeKey} value={limit} label={t('list.pageSize')} onChange={setLimit} />
      )}
    </div>
  );
}

/**
 * The rows, or why there are none: the table (with its selection, bulk bar, menus and moves),
 * the list's failure with Try again, or a page too deep for the server.
 */
function ListRowsView<Row extends { id: string }>({
  actor,
  config,
  controls,
  createdId,
}: {
  actor: ListActor;
  config: ListScreenConfig<Row>;
  controls: ListControls;
  createdId: string | undefined;
}) {
  const { t } = useTranslation();
  const status = useShown(actor, selectStatus);
  const rows = useShown(actor, selectRows) as Row[];
  const page = useShown(actor, selectPage);
  const limit = useShown(actor, selectLimit);
  const totalDocs = useShown(actor, selectTotalDocs);
  const totalIsEstimate = useShown(actor, selectTotalIsEstimate);
  const order = useShown(actor, selectOrder, sameContent);
  const filter = useShown(actor, selectFilter, sameContent);
  const error = useShown(actor, selectError);
  const isTooDeep = useShown(actor, selectIsTooDeep);
  const isLoadingMore = useShown(actor, selectIsLoadingMore);
  const isStale = useShown(actor, selectIsLoadingOtherRows);
  const removedIds = useShown(actor, selectRemovedIds);
  const active = useShown(actor, selectIsFilterActive);
  const canLoadMore = useShown(actor, selectCanLoadMore);
  const selection = useListSelection(config, controls, {
    rows,
    filter,
    totalDocs,
    totalIsEstimate,
  });
  const { setOrder, move } = useListReorder(actor, config.rowLabel);
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
  // The table gets props that change only with what it shows, so a status change alone does
  // not re-render it (the typing and sort timings of docs/benchmarks.md).
  const sortBy = useCallback((field: string) => actor.send({ type: 'SORT', field }), [actor]);
  const clearFilters = useCallback(() => actor.send({ type: 'CLEAR_FILTERS' }), [actor]);
  const loadMore = useCallback(() => actor.send({ type: 'LOAD_MORE' }), [actor]);

  if (status === 'error' && isTooDeep) {
    const sort = sortOf(order);
    return (
      <TooDeep
        page={page}
        canReverse={sort !== null}
        onReverse={() => {
          if (sort) actor.send({ type: 'SORT', field: sort.field });
        }}
        onFirstPage={() => actor.send({ type: 'SET_PAGE', page: 1 })}
      />
    );
  }
  if (status === 'error') {
    return (
      <Alert tone="error">
        {t('list.failed', { message: describeError(error, t) })}
        <ActionButton onPress={() => actor.send({ type: 'RETRY' })}>{t('list.retry')}</ActionButton>
      </Alert>
    );
  }
  return (
    <>
      <DataTable
        columns={config.columns}
        layoutKey={listKey(config)}
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
      {/* An infinite list scrolled as deep as the server pages: its rows end here, and why. */}
      {config.mode === 'infinite' && status === 'success' && isTooDeep && (
        <Alert tone="info">{t('list.tooDeepMore')}</Alert>
      )}
    </>
  );
}

/** See ListRowsView; memoised, so the screen's own changes (the address) pass it by. */
export const ListRows = memo(ListRowsView) as typeof ListRowsView;

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

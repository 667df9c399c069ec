/**
 * The pieces of a list screen, each reading from the list machine only the values it shows
 * (narrow selectors), so a change re-renders the piece that shows it and not the whole screen:
 * a page turn the pagers and the rows, a keystroke in a filter the filter bar.
 */
import { useSelector } from '@xstate/react';
import { memo, useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { canonical, sortOf } from '../../contract/list-query';
import { describeError } from '../api/error-info';
import { ActionButton } from '../ui/dom/action-button';
import { Alert } from '../ui/dom/alert';
import { Breadcrumbs } from '../ui/dom/breadcrumbs';
import { DataTable } from '../ui/dom/list/data-table';
import { dataTableLabels } from '../ui/dom/list/data-table-labels';
import { FilterBar, filterBarLabels, type FilterDef } from '../ui/dom/list/filter-bar';
import { ListTotal } from '../ui/dom/list/list-total';
import { ScrollSwitch } from '../ui/dom/list/scroll-switch';
import { SortMenu } from '../ui/dom/list/sort-menu';
import { AutocompleteFilter } from './autocomplete.view';
import type { ListActor } from './list.actor.view';
import { listKey, type ListScreenConfig, type ScrollChoice } from './list.config.view';
import {
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
  selectStatus,
  selectTotalDocs,
  selectTotalIsEstimate,
} from './list.machine';
import type { ListControls } from './list.outcome.view';
import { useListReorder } from './list.reorder.view';
import { useShown } from './list.shown.view';
import { useListSelection } from './list.selection.view';

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

/**
 * What the list screen reads from the list machine: narrow selectors for `useSelector`, one
 * value each with a stable reference, so a component re-renders only when its value changes.
 */
import type { ApiErrorInfo } from '../api/error-info';
import { isFilterActive } from '../../contract/list-query';
import { canLoadMore, incomingCount, sameQuery } from './list.rules';
import type { ListContext } from './list.types';

/** The states a selector tells apart (the list machine's snapshot is one). */
export interface ListSnapshotView {
  context: ListContext;
  matches(
    state: 'uninitialized' | 'debouncing' | { observing: 'loading' } | { observing: 'error' },
  ): boolean;
}

/** The server's refusal of a page too far from both ends of a large list (docs/api.md "Lists"). */
export const isTooDeep = (error: ApiErrorInfo) =>
  error.status === 400 && error.code === 'PAGE_TOO_DEEP';

/** The spec §4 load state; `success` covers a reorder in flight. */
export type ListStatus = 'uninitialized' | 'loading' | 'success' | 'error';

// Narrow selectors for `useSelector` (one value each, stable references).
export const selectStatus = (snapshot: ListSnapshotView): ListStatus => {
  if (snapshot.matches('uninitialized')) return 'uninitialized';
  if (snapshot.matches('debouncing') || snapshot.matches({ observing: 'loading' })) {
    return 'loading';
  }
  return snapshot.matches({ observing: 'error' }) ? 'error' : 'success';
};
export const selectRows = (snapshot: ListSnapshotView) => snapshot.context.rows;
export const selectPage = (snapshot: ListSnapshotView) => snapshot.context.page;
export const selectLimit = (snapshot: ListSnapshotView) => snapshot.context.limit;
export const selectOrder = (snapshot: ListSnapshotView) => snapshot.context.order;
export const selectFilter = (snapshot: ListSnapshotView) => snapshot.context.filter;
/**
 * The totals of the answer on screen. The machine keeps the last totals above 0 (spec §5) to
 * clamp pages, but an answer without rows shows 0 items and no pages, not the old count.
 */
export const selectTotalDocs = (snapshot: ListSnapshotView) =>
  snapshot.context.rows.length === 0 ? 0 : snapshot.context.totalDocs;
/** Whether the total on screen is the server's estimate of a large list. */
export const selectTotalIsEstimate = (snapshot: ListSnapshotView) =>
  snapshot.context.totalIsEstimate;
export const selectTotalPages = (snapshot: ListSnapshotView) =>
  snapshot.context.rows.length === 0 ? 0 : snapshot.context.totalPages;
/**
 * The first answer is on its way: how many pages the list has is not known yet (a failed read
 * says nothing of it either, but is no longer awaited).
 */
export const selectAwaitsFirstAnswer = (snapshot: ListSnapshotView) =>
  snapshot.context.shown === null && selectStatus(snapshot) !== 'error';
/** The query whose answer replaced the rows last: a new object with each such answer. */
export const selectShownQuery = (snapshot: ListSnapshotView) => snapshot.context.shown;
export const selectError = (snapshot: ListSnapshotView) => snapshot.context.error;
/**
 * The page asked for lies deeper than the server serves from either end of a large list: a
 * paged list shows why instead of rows, an infinite one ends its rows there.
 */
export const selectIsTooDeep = (snapshot: ListSnapshotView) =>
  snapshot.context.error !== null && isTooDeep(snapshot.context.error);
export const selectIsFilterActive = (snapshot: ListSnapshotView) =>
  isFilterActive(snapshot.context.filter);
/**
 * How many filters hold a value beyond the preselected ones (spec §4): what Clear would change
 * and what "All Filters" counts; a list holding only its preselected values has none.
 */
export const selectSetFilterCount = ({ context }: ListSnapshotView) =>
  Object.entries(context.filter).filter(
    ([field, value]) =>
      isFilterActive({ [field]: value }) &&
      !context.preselect.some((p) => p.field === field && p.value === value),
  ).length;
export const selectCanLoadMore = (snapshot: ListSnapshotView) => canLoadMore(snapshot.context);
export const selectRemovedIds = (snapshot: ListSnapshotView) => snapshot.context.removedIds;
export const selectIncomingCount = (snapshot: ListSnapshotView) => incomingCount(snapshot.context);
/**
 * A new page, filter, sort or page size is on its way: the rows in context answer another
 * query, so the screen shows skeleton rows instead (spec §2), while totals and pager stay.
 * A refresh of the same query, or a next page in infinite mode, keeps the rows on screen.
 */
export const selectIsLoadingOtherRows = (snapshot: ListSnapshotView) => {
  const { context } = snapshot;
  const status = selectStatus(snapshot);
  return (
    (status === 'uninitialized' || status === 'loading') &&
    !context.load.append &&
    (context.shown === null || !sameQuery(context.shown, context))
  );
};
/** Infinite mode: a next page is on its way while the earlier rows stay on screen. */
export const selectIsLoadingMore = (snapshot: ListSnapshotView) =>
  selectStatus(snapshot) === 'loading' && snapshot.context.load.append;

// The list machine's rules as plain functions of its context (list.machine.ts): the query and
// the address after a change (spec §4, §5), what an answer does, optimistic moves, the start
// context, and live changes merged into the rows on screen.
import { assertEvent } from 'xstate';
import { fromListSearch, sameSearch, toListSearch } from '../api/list-url';
import {
  canonical,
  clampPage,
  cleanFilter,
  isFilterActive,
  moveRow,
  sortOf,
  targetPosition,
  toggleSort,
  type ListFilter,
  type ListRow,
} from '../../contract/list-query';
import { anyRowSchema } from '../api/lists';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../contract/schemas';
import type {
  ListAddress,
  ListContext,
  ListEvent,
  ListInput,
  PagesAnswer,
  PendingLoad,
  PendingMove,
  Preselect,
  QueryEvent,
  QueryState,
} from './list.types';

/** What the user asks of the query; a list kept in the address asks the address for it. */
export const INTENTS = [
  'SET_FILTER',
  'SET_FILTERS',
  'CLEAR_FILTERS',
  'SORT',
  'SET_PAGE',
  'SET_LIMIT',
  'SET_QUERY',
] as const;

export const QUERY_EVENTS = [...INTENTS, 'ADDRESS_CHANGED', 'VIEWPORT_CHANGED'] as const;

const clampLimit = (limit: number) =>
  Number.isFinite(limit)
    ? Math.min(Math.max(Math.floor(limit), 1), LIST_MAX_LIMIT)
    : LIST_DEFAULT_LIMIT;

export const sameQuery = (a: QueryState, b: QueryState) =>
  a.page === b.page &&
  a.limit === b.limit &&
  canonical(a.order) === canonical(b.order) &&
  canonical(a.filter) === canonical(b.filter);

/** Spec §4: empty preselect filters take their value (hidden ones only on mobile). */
function withPreselect(
  filter: ListFilter,
  preselect: readonly Preselect[],
  isMobile: boolean,
): ListFilter {
  const filled = preselect.filter(
    (p) => (isMobile || !p.hiddenOnDesktop) && !isFilterActive({ [p.field]: filter[p.field] }),
  );
  return filled.length === 0
    ? filter
    : { ...filter, ...Object.fromEntries(filled.map((p) => [p.field, p.value])) };
}

/** The query after a change; spec §4: a new filter, sort or page size starts again at page 1. */
export function nextQuery(context: ListContext, event: QueryEvent): QueryState {
  const query = changedQuery(context, event);
  const isMobile = event.type === 'VIEWPORT_CHANGED' ? event.isMobile : context.isMobile;
  const filter = withPreselect(query.filter, context.preselect, isMobile);
  return filter === query.filter || canonical(filter) === canonical(query.filter)
    ? query
    : { ...query, filter, page: 1 };
}

/** The query on screen (or on its way there after a change). */
const queryOf = ({ page, limit, order, filter }: ListContext): QueryState => ({
  page,
  limit,
  order,
  filter,
});

/**
 * The query a change starts from in a list kept in the address: the one the address was last
 * asked for, not the one on screen. The write may still be on its way, and two quick changes
 * (a sort pressed twice) must both arrive.
 */
function askedQuery(context: ListContext, address: ListAddress): QueryState {
  const asked = fromListSearch(address.search);
  return {
    filter: asked.filter,
    order: asked.order,
    // Infinite lists keep neither in the address.
    page: context.mode === 'paged' ? asked.page : context.page,
    limit: asked.limit ?? context.limit,
  };
}

/**
 * What a change asks of the address of a list kept there (null when nothing new, or when the
 * list keeps no address): the list takes the new query once the address reads it.
 */
export function askedAddress(context: ListContext, event: QueryEvent): ListAddress | null {
  if (context.address === null) return null;
  const from = { ...context, ...askedQuery(context, context.address) };
  const next = nextAddress(from, nextQuery(from, event), event);
  return next && !sameSearch(next.search, context.address.search) ? next : null;
}

/**
 * The address after a query change. Paging, sorting and choosing filters add history entries
 * (Back undoes them); typing in the search box replaces the entry, so history is not flooded.
 */
export function nextAddress(
  context: ListContext,
  query: QueryState,
  event: QueryEvent,
): ListAddress | null {
  if (context.address === null) return null;
  // An adopted address is only normalised: that must not add an entry either.
  if (event.type === 'ADDRESS_CHANGED') {
    return { search: toListSearch(query, { mode: context.mode }), replace: true };
  }
  const search = toListSearch(query, { mode: context.mode });
  const previous = context.address.search;
  const typing =
    previous.filter?.search !== search.filter?.search &&
    canonical({ ...previous.filter, search: undefined }) ===
      canonical({ ...search.filter, search: undefined }) &&
    previous.order === search.order;
  return { search, replace: typing };
}

function changedQuery(context: ListContext, event: QueryEvent): QueryState {
  const current = queryOf(context);
  const restart = (changes: Partial<QueryState>): QueryState => {
    const next = { ...current, ...changes };
    const changed =
      canonical(next.filter) !== canonical(current.filter) ||
      canonical(next.order) !== canonical(current.order) ||
      next.limit !== current.limit;
    return changed ? { ...next, page: 1 } : current;
  };
  switch (event.type) {
    case 'SET_FILTER':
      return restart({ filter: cleanFilter({ ...context.filter, [event.field]: event.value }) });
    case 'SET_FILTERS':
      return restart({ filter: cleanFilter(event.filter) });
    case 'CLEAR_FILTERS':
      return restart({ filter: {} });
    case 'SORT':
      return restart({ order: toggleSort(context.order, event.field) });
    case 'SET_LIMIT':
      return restart({ limit: clampLimit(event.limit) });
    case 'SET_PAGE':
      return { ...current, page: clampPage(event.page, context.totalPages) };
    case 'SET_QUERY': {
      const next = restart({
        ...(event.filter === undefined ? {} : { filter: cleanFilter(event.filter) }),
        ...(event.order === undefined ? {} : { order: event.order }),
      });
      return event.page === undefined
        ? next
        : { ...next, page: clampPage(event.page, context.totalPages) };
    }
    case 'ADDRESS_CHANGED': {
      if (context.address === null) return current;
      const state = fromListSearch(event.search);
      // An address without a page size keeps the list's (remembered, or its default).
      const next = restart({
        filter: state.filter,
        order: state.order,
        ...(state.limit === undefined ? {} : { limit: clampLimit(state.limit) }),
      });
      return { ...next, page: clampPage(state.page, context.totalPages) };
    }
    case 'VIEWPORT_CHANGED':
      return current;
  }
}

/**
 * The pages of the query read anew: from the cache when it holds them fresh, else from the
 * server; `fresh` (REFRESH) reads the server either way.
 */
export const readAgain = (fresh = false): PendingLoad => ({ fresh, append: false });

/**
 * What the answer for the observed pages does: totals only when > 0 (spec §5), then either the
 * rows are shown or, when a paged list asked for a page beyond the end (a stale address,
 * deleted rows), the last page is observed instead. An infinite list shows the pages read.
 */
export function afterPage(context: ListContext, answer: PagesAnswer) {
  const totalPages = answer.totalPages > 0 ? answer.totalPages : context.totalPages;
  const totalDocs = answer.totalDocs > 0 ? answer.totalDocs : context.totalDocs;
  const totals = {
    totalPages,
    totalDocs,
    totalIsEstimate: answer.totalDocs > 0 ? answer.totalIsEstimate : context.totalIsEstimate,
    hasNextPage: answer.hasNextPage,
  };
  if (context.mode === 'infinite') {
    return { done: true, ...totals, page: Math.max(answer.pages, 1), rows: answer.rows };
  }
  const page = clampPage(context.page, totalPages);
  if (context.page > page) return { done: false, ...totals, page };
  return { done: true, ...totals, page, rows: answer.rows };
}

/** Infinite lists read the next page while the server says there is one. */
export const canLoadMore = (context: ListContext) =>
  context.mode === 'infinite' && context.hasNextPage;

/** The visible index of a 1-based position in the whole list. */
const indexOfPosition = (context: ListContext, position: number) =>
  position - 1 - (context.mode === 'paged' ? (context.page - 1) * context.limit : 0);

/** The optimistic move for a MOVE or SET_ORDER, or null when it changes nothing. */
export function plannedMove(context: ListContext, event: ListEvent): PendingMove | null {
  assertEvent(event, ['MOVE', 'SET_ORDER']);
  const from = context.rows.findIndex((row) => row.id === event.id);
  if (from < 0) return null;
  const offset = indexOfPosition(context, 1) * -1;
  const position =
    'toIndex' in event
      ? offset + Math.min(Math.max(event.toIndex, 0), context.rows.length - 1) + 1
      : targetPosition(event.position, context.totalDocs);
  if (position === offset + from + 1) return null;
  const to = indexOfPosition(context, position);
  return {
    id: event.id,
    position,
    previousPosition: offset + from + 1,
    previousRows: context.rows,
    staysInView: to >= 0 && to < context.rows.length,
  };
}

export function movedRows(context: ListContext, move: PendingMove): ListRow[] {
  const from = context.rows.findIndex((row) => row.id === move.id);
  if (!move.staysInView) return context.rows.filter((row) => row.id !== move.id);
  const to = indexOfPosition(context, move.position);
  return renumbered(
    context,
    moveRow(context.rows, from, to),
    Math.min(from, to),
    Math.max(from, to),
  );
}

/**
 * In a list sorted by `position`, the rows between the two ends of a move keep the positions
 * their places had, so the Position column reads right at once (the server agrees when it answers).
 */
function renumbered(context: ListContext, rows: ListRow[], first: number, last: number): ListRow[] {
  const sort = sortOf(context.order);
  if (sort?.field !== 'position') return rows;
  const positions = context.rows
    .slice(first, last + 1)
    .map((row) => (row as ListRow & { position?: unknown }).position);
  if (!positions.every((value): value is number => typeof value === 'number')) return rows;
  return rows.map((row, index) =>
    index < first || index > last ? row : { ...row, position: positions[index - first] },
  );
}

/** The context a list starts with. */
export function initialListContext(input: ListInput): ListContext {
  const mode = input.mode ?? 'paged';
  const fromAddress = input.search ? fromListSearch(input.search) : undefined;
  const page = clampPage(fromAddress?.page ?? input.initialPage ?? 1, 0);
  const preselect = input.preselect ?? [];
  const isMobile = input.isMobile ?? false;
  const filter = withPreselect(
    cleanFilter(fromAddress?.filter ?? input.initialFilter ?? {}),
    preselect,
    isMobile,
  );
  const order = fromAddress?.order ?? input.initialOrder ?? {};
  const limit = clampLimit(fromAddress?.limit ?? input.limit ?? LIST_DEFAULT_LIMIT);
  return {
    endpoint: input.endpoint,
    rowSchema: input.rowSchema ?? anyRowSchema,
    mode,
    reorderEndpoint: input.reorder?.endpoint ?? null,
    page,
    limit,
    order,
    filter,
    rows: [],
    shown: null,
    totalDocs: 0,
    totalIsEstimate: false,
    totalPages: 0,
    hasNextPage: false,
    error: null,
    load: readAgain(),
    move: null,
    // The first address replaces the entry: it only normalises what the route validated.
    address: input.search
      ? { search: toListSearch({ filter, order, page, limit }, { mode }), replace: true }
      : null,
    preselect,
    isMobile,
    removedIds: [],
    incoming: null,
    syncing: false,
    readAt: 0,
    newRowsOnTop: input.newRowsOnTop ?? false,
  };
}

/**
 * The rows on screen brought up to date with a fresh read, without moving them under the
 * user's hands: changed rows are replaced where they stand, rows gone are kept and marked
 * (removed after REMOVED_MS), new rows below the last row still there are added at the bottom,
 * and new rows above it wait as `incoming` until the user asks to see them (meanwhile nothing
 * is added or marked: a row missing below may only have been pushed down). In a feed
 * (`newRowsOnTop`) on its first page, new rows above are put on top at once, every row on
 * screen staying (the browser's scroll anchoring keeps the one the reader looks at in place).
 */
export function mergeRemote(context: ListContext, answer: PagesAnswer): Partial<ListContext> {
  const fresh = new Map(answer.rows.map((row) => [row.id, row]));
  const shown = new Set(context.rows.map((row) => row.id));
  const rows = context.rows.map((row) => fresh.get(row.id) ?? row);
  const gone = context.rows.filter((row) => !fresh.has(row.id)).map((row) => row.id);
  const lastKept = answer.rows.findLastIndex((row) => shown.has(row.id));
  const added = answer.rows.filter((row) => !shown.has(row.id));
  const above = added.some((row) => answer.rows.indexOf(row) < lastKept);
  // With rows waiting above, a row missing below may only have been pushed down a page.
  if (above && context.newRowsOnTop && (context.page === 1 || context.mode === 'infinite')) {
    const top = added.filter((row) => answer.rows.indexOf(row) < lastKept);
    return {
      rows: [...top, ...rows],
      incoming: null,
      totalDocs: answer.totalDocs,
      totalIsEstimate: answer.totalIsEstimate,
      totalPages: answer.totalPages,
      hasNextPage: answer.hasNextPage,
    };
  }
  if (above) return { rows, incoming: answer };
  const removedIds = [...new Set([...context.removedIds, ...gone])];
  return {
    rows: [...rows, ...added],
    removedIds,
    incoming: null,
    totalDocs: answer.totalDocs,
    totalIsEstimate: answer.totalIsEstimate,
    totalPages: answer.totalPages,
    hasNextPage: answer.hasNextPage,
  };
}

/** How many rows are waiting above (the "3 new, show" pill). */
export function incomingCount(context: ListContext): number {
  if (!context.incoming) return 0;
  const shown = new Set(context.rows.map((row) => row.id));
  return context.incoming.rows.filter((row) => !shown.has(row.id)).length;
}

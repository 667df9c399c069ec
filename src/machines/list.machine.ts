/**
 * The shared list screen's state (spec §2 list screen, §4 list load states, paging, sort,
 * reorder; §5 filter rules; §7 "Lists"; §9 list constants). One actor per list screen: the
 * route binds the table, filter bar and pager to it; every request and order update is a named
 * actor so tests swap them with `.provide`.
 */
import {
  assertEvent,
  assign,
  cancel,
  emit,
  enqueueActions,
  fromPromise,
  raise,
  setup,
  spawnChild,
  stopChild,
  type DoneActorEvent,
  type SnapshotFrom,
} from 'xstate';
import { fromListSearch, sameSearch, toListSearch, type ListSearch } from '../api/list-url';
import { errorInfo, type ApiErrorInfo } from '../api/error-info';
import {
  canonical,
  clampPage,
  cleanFilter,
  isFilterActive,
  moveRow,
  sortOf,
  targetPosition,
  toggleSort,
  type FilterValue,
  type ListFilter,
  type ListOrder,
  type ListRow,
} from '../../contract/list-query';
import {
  anyRowSchema,
  invalidateList,
  readList,
  updatePosition,
  type ListResponse,
  type RowSchema,
} from '../api/lists';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../../contract/schemas';

export {
  clampPage,
  cleanFilter,
  isFilterActive,
  moveRow,
  targetPosition,
  toggleSort,
} from '../../contract/list-query';

/** Spec §9: list requests wait this long for the input to settle. */
export const LIST_DEBOUNCE_MS = 250;
/** A burst of live changes is looked at once, this long after the first. */
export const REMOTE_SYNC_MS = 300;
/** How long a row someone else deleted stays on screen, marked, before it goes. */
export const REMOVED_MS = 3000;

export type ListMode = 'paged' | 'infinite';

export interface ListInput {
  /** The list endpoint, e.g. `v1/assets`. */
  endpoint: string;
  /** Validates each row; defaults to "has a string id". */
  rowSchema?: RowSchema;
  limit?: number;
  initialPage?: number;
  initialOrder?: ListOrder;
  initialFilter?: ListFilter;
  mode?: ListMode;
  /** Turns drag and menu reordering on; `{id}` in the endpoint is the row id (else appended). */
  reorder?: { endpoint: string };
  /**
   * Keep filter, order and page in the address: the list starts from this (validated) search,
   * `address` says what to write after each change and ADDRESS_CHANGED adopts the address.
   */
  search?: ListSearch;
  /** Single-select filters with a preselectValue (spec §4). */
  preselect?: readonly Preselect[];
  /** Below the mobile breakpoint (preselect fills hidden filters too). */
  isMobile?: boolean;
  /**
   * A feed, newest first (the activity log): rows others add above arrive at the top of the
   * first page at once, rather than waiting for "show" (see `mergeRemote`).
   */
  newRowsOnTop?: boolean;
}

/** Spec §4: a single-select filter that, while empty, takes this value. */
export interface Preselect {
  field: string;
  value: string;
  /** Hidden on wide screens (hiddenWithOneOption with one option): preselected on mobile only. */
  hiddenOnDesktop: boolean;
}

/** What the address should read; `replace` when the change should not add a history entry. */
export interface ListAddress {
  search: ListSearch;
  replace: boolean;
}

/** The read in progress: pages `next`..page (infinite mode collects them into `rows`). */
interface PendingLoad {
  next: number;
  rows: ListRow[];
  /** Skips the cache (REFRESH). */
  fresh: boolean;
  /** LOAD_MORE: the rows on screen stay and the new page is added below them. */
  append: boolean;
}

/** An optimistic move waiting for the server. */
interface PendingMove {
  id: string;
  /** The new 1-based position in the whole filtered list. */
  position: number;
  /** Where the row was before, for an undo. */
  previousPosition: number;
  /** The rows before the move, restored when the server rejects it. */
  previousRows: ListRow[];
  /** False when the row moved to another page: the page is read again once the move is stored. */
  staysInView: boolean;
}

export interface ListContext {
  endpoint: string;
  rowSchema: RowSchema;
  mode: ListMode;
  reorderEndpoint: string | null;
  page: number;
  limit: number;
  order: ListOrder;
  /** Never holds empty values (spec §5). */
  filter: ListFilter;
  /** Paged: the current page. Infinite: pages 1..page concatenated. */
  rows: ListRow[];
  /** The query `rows` answer; null before the first answer. */
  shown: QueryState | null;
  totalDocs: number;
  totalPages: number;
  hasNextPage: boolean;
  error: ApiErrorInfo | null;
  load: PendingLoad;
  move: PendingMove | null;
  /** Null when the list keeps no state in the address. */
  address: ListAddress | null;
  preselect: readonly Preselect[];
  isMobile: boolean;
  /** Rows someone else deleted: marked on screen, then removed (REMOVED_MS). */
  removedIds: readonly string[];
  /** A fresh read with rows that would appear above the ones on screen: shown on SHOW_INCOMING. */
  incoming: RemoteAnswer | null;
  newRowsOnTop: boolean;
}

/** The pages on screen as the server has them now (REMOTE_CHANGED). */
export interface RemoteAnswer {
  rows: ListRow[];
  totalDocs: number;
  totalPages: number;
  hasNextPage: boolean;
}

/** Changes of what the list shows; each restarts the debounce of the next request. */
type QueryEvent =
  | { type: 'SET_FILTER'; field: string; value: FilterValue }
  | { type: 'SET_FILTERS'; filter: ListFilter }
  | { type: 'CLEAR_FILTERS' }
  | { type: 'SORT'; field: string }
  | { type: 'SET_PAGE'; page: number }
  | { type: 'SET_LIMIT'; limit: number }
  /** Adopts state from elsewhere; omitted parts stay. */
  | { type: 'SET_QUERY'; filter?: ListFilter; order?: ListOrder; page?: number }
  /** The address changed (back, forward, a pasted link): adopted unless it is what we wrote. */
  | { type: 'ADDRESS_CHANGED'; search: ListSearch }
  | { type: 'VIEWPORT_CHANGED'; isMobile: boolean };

export type ListEvent =
  | QueryEvent
  | { type: 'REFRESH' }
  | { type: 'RETRY' }
  | { type: 'LOAD_MORE' }
  /** Drag reorder: to an index of the visible rows, or to a 1-based position in the whole list. */
  | { type: 'MOVE'; id: string; toIndex: number }
  | { type: 'MOVE'; id: string; position: number }
  /** Menu reorder: above the total or below 0 means last place. */
  | { type: 'SET_ORDER'; id: string; position: number }
  /** Someone else changed what the list may show (live events): look again, in place. */
  | { type: 'REMOTE_CHANGED' }
  /** Show the rows that arrived above (the "3 new" pill). */
  | { type: 'SHOW_INCOMING' }
  /** Internal: the burst of live changes is over; look at the pages again. */
  | { type: 'SYNC' }
  /** Internal: the rows marked as deleted by someone else go. */
  | { type: 'DROP_REMOVED' };

/** Notifications for `actor.on(...)`: spec §8 makes a failed reorder a silent revert, so showing it is optional. */
export type ListEmitted =
  | { type: 'REORDERED'; id: string; position: number; previousPosition: number }
  | { type: 'REORDER_FAILED'; id: string; position: number; error: ApiErrorInfo };

export interface FetchPageInput {
  endpoint: string;
  rowSchema: RowSchema;
  query: { page: number; limit: number; order: ListOrder; filter: ListFilter };
  fresh: boolean;
}

export interface ReorderInput {
  endpoint: string;
  id: string;
  position: number;
  filter: ListFilter;
}

const QUERY_EVENTS = [
  'SET_FILTER',
  'SET_FILTERS',
  'CLEAR_FILTERS',
  'SORT',
  'SET_PAGE',
  'SET_LIMIT',
  'SET_QUERY',
  'ADDRESS_CHANGED',
  'VIEWPORT_CHANGED',
] as const;

type QueryState = Pick<ListContext, 'page' | 'limit' | 'order' | 'filter'>;

const clampLimit = (limit: number) =>
  Number.isFinite(limit)
    ? Math.min(Math.max(Math.floor(limit), 1), LIST_MAX_LIMIT)
    : LIST_DEFAULT_LIMIT;

const sameQuery = (a: QueryState, b: QueryState) =>
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
function nextQuery(context: ListContext, event: QueryEvent): QueryState {
  const query = changedQuery(context, event);
  const isMobile = event.type === 'VIEWPORT_CHANGED' ? event.isMobile : context.isMobile;
  const filter = withPreselect(query.filter, context.preselect, isMobile);
  return filter === query.filter || canonical(filter) === canonical(query.filter)
    ? query
    : { ...query, filter, page: 1 };
}

/** Whether the address already shows this search (what was written or adopted). */
const showsSearch = (address: ListAddress | null, search: ListSearch) =>
  address !== null && sameSearch(address.search, search);

/**
 * The address after a query change. Paging, sorting and choosing filters add history entries
 * (Back undoes them); typing in the search box replaces the entry, so history is not flooded.
 */
function nextAddress(
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
  const current: QueryState = {
    page: context.page,
    limit: context.limit,
    order: context.order,
    filter: context.filter,
  };
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
      if (context.address === null || showsSearch(context.address, event.search)) return current;
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

/** A read of `page` from scratch; infinite lists show pages 1..page, so they read from page 1. */
const readFrom = (mode: ListMode, page: number, fresh = false): PendingLoad => ({
  next: mode === 'infinite' ? 1 : page,
  rows: [],
  fresh,
  append: false,
});

/** What an answer does: totals only when > 0 (spec §5), then either read on or show the rows. */
function afterPage(context: ListContext, answer: ListResponse) {
  const { pagination } = answer;
  const totalPages = pagination.totalPages > 0 ? pagination.totalPages : context.totalPages;
  const totalDocs = pagination.totalDocs > 0 ? pagination.totalDocs : context.totalDocs;
  const page = clampPage(context.page, totalPages);
  const read = context.load.next;
  const totals = { totalPages, totalDocs, hasNextPage: pagination.hasNextPage };
  if (context.mode === 'paged') {
    // The page asked for lies beyond the end (a stale address, deleted rows): read the last one.
    if (read > page) return { done: false, ...totals, page, load: { ...context.load, next: page } };
    return { done: true, ...totals, page, rows: answer.data };
  }
  const rows = [...context.load.rows, ...answer.data];
  if (read < page && pagination.hasNextPage) {
    return { done: false, ...totals, page, load: { ...context.load, next: read + 1, rows } };
  }
  return { done: true, ...totals, page: Math.min(page, read), rows };
}

/** Infinite lists read the next page while the server says there is one. */
const canLoadMore = (context: ListContext) => context.mode === 'infinite' && context.hasNextPage;

/** The visible index of a 1-based position in the whole list. */
const indexOfPosition = (context: ListContext, position: number) =>
  position - 1 - (context.mode === 'paged' ? (context.page - 1) * context.limit : 0);

/** The optimistic move for a MOVE or SET_ORDER, or null when it changes nothing. */
function plannedMove(context: ListContext, event: ListEvent): PendingMove | null {
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

function movedRows(context: ListContext, move: PendingMove): ListRow[] {
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

/** The query-change transitions, aimed at `target` (the debounce state to (re)enter). */
const queryChanges = (target: string, reenter: boolean) =>
  Object.fromEntries(
    QUERY_EVENTS.map((type) => [
      type,
      { guard: 'changesQuery', target, reenter, actions: 'applyQueryChange' } as const,
    ]),
  ) as Record<
    (typeof QUERY_EVENTS)[number],
    { guard: 'changesQuery'; target: string; reenter: boolean; actions: 'applyQueryChange' }
  >;

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
    totalPages: 0,
    hasNextPage: false,
    error: null,
    load: readFrom(mode, page),
    move: null,
    // The first address replaces the entry: it only normalises what the route validated.
    address: input.search
      ? { search: toListSearch({ filter, order, page, limit }, { mode }), replace: true }
      : null,
    preselect,
    isMobile,
    removedIds: [],
    incoming: null,
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
export function mergeRemote(context: ListContext, answer: RemoteAnswer): Partial<ListContext> {
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

/** The pages on screen read again, skipping the cache: page `page`, or 1..page when infinite. */
async function readCurrent(
  context: Pick<
    ListContext,
    'endpoint' | 'rowSchema' | 'mode' | 'page' | 'limit' | 'order' | 'filter'
  >,
  signal: AbortSignal,
): Promise<RemoteAnswer> {
  const first = context.mode === 'paged' ? context.page : 1;
  const rows: ListRow[] = [];
  let answer: ListResponse | undefined;
  for (let page = first; page <= context.page; page++) {
    const query = { page, limit: context.limit, order: context.order, filter: context.filter };
    answer = await readList(context.endpoint, query, context.rowSchema, { signal, fresh: true });
    rows.push(...answer.data);
    if (!answer.pagination.hasNextPage) break;
  }
  const pagination = answer?.pagination;
  return {
    rows,
    totalDocs: pagination?.totalDocs ?? 0,
    totalPages: pagination?.totalPages ?? 0,
    hasNextPage: pagination?.hasNextPage ?? false,
  };
}

/** What the user may do with the rows while they are on screen. */
const INTERACTIONS = {
  LOAD_MORE: { guard: 'canLoadMore', target: '#list.loading', actions: 'startLoadMore' },
  MOVE: { guard: 'canMove', target: 'reordering', actions: 'moveOptimistically' },
  SET_ORDER: { guard: 'canMove', target: 'reordering', actions: 'moveOptimistically' },
} as const;

export const listMachine = setup({
  types: {
    context: {} as ListContext,
    events: {} as ListEvent,
    input: {} as ListInput,
    emitted: {} as ListEmitted,
  },
  delays: { DEBOUNCE: LIST_DEBOUNCE_MS, REMOTE_SYNC: REMOTE_SYNC_MS, REMOVED: REMOVED_MS },
  actors: {
    readCurrent: fromPromise<RemoteAnswer, ListContext>(({ input, signal }) =>
      readCurrent(input, signal),
    ),
    fetchPage: fromPromise<ListResponse, FetchPageInput>(({ input, signal }) =>
      readList(input.endpoint, input.query, input.rowSchema, { signal, fresh: input.fresh }),
    ),
    // No abort signal: once sent, an order update is left to finish even if the screen moves on.
    reorder: fromPromise<unknown, ReorderInput>(({ input }) =>
      updatePosition(input.endpoint, {
        id: input.id,
        position: input.position,
        filter: input.filter,
      }),
    ),
  },
  actions: {
    applyQueryChange: assign(({ context, event }) => {
      assertEvent(event, QUERY_EVENTS);
      const query = nextQuery(context, event);
      return {
        ...query,
        load: readFrom(context.mode, query.page),
        address: nextAddress(context, query, event),
        isMobile: event.type === 'VIEWPORT_CHANGED' ? event.isMobile : context.isMobile,
      };
    }),
    setViewport: assign(({ event }) => {
      assertEvent(event, 'VIEWPORT_CHANGED');
      return { isMobile: event.isMobile };
    }),
    startRefresh: assign(({ context }) => ({ load: readFrom(context.mode, context.page, true) })),
    startLoadMore: assign(({ context }) => ({
      page: context.page + 1,
      load: { next: context.page + 1, rows: context.rows, fresh: false, append: true },
    })),
    takePage: assign(({ context }, answer: ListResponse) => {
      const { done, ...changes } = afterPage(context, answer);
      if (!done) return { ...changes, error: null };
      const { limit, order, filter } = context;
      return { ...changes, shown: { page: changes.page, limit, order, filter }, error: null };
    }),
    setError: assign((_, params: { error: unknown }) => ({ error: errorInfo(params.error) })),
    clearError: assign({ error: null }),
    moveOptimistically: assign(({ context, event }) => {
      const move = plannedMove(context, event);
      return move ? { move, rows: movedRows(context, move) } : {};
    }),
    revertMove: assign(({ context }) => ({
      rows: context.move?.previousRows ?? context.rows,
      move: null,
    })),
    forgetMove: assign({ move: null }),
    emitReordered: emit(({ context }) => ({
      type: 'REORDERED' as const,
      id: context.move?.id ?? '',
      position: context.move?.position ?? 0,
      previousPosition: context.move?.previousPosition ?? 0,
    })),
    emitReorderFailed: emit(({ context }, params: { error: unknown }) => ({
      type: 'REORDER_FAILED' as const,
      id: context.move?.id ?? '',
      position: context.move?.position ?? 0,
      error: errorInfo(params.error),
    })),
    /** Cached pages hold the old order once a move is stored. */
    invalidateCache: ({ context }) => {
      void invalidateList(context.endpoint);
    },
    rereadPages: assign(({ context }) => ({ load: readFrom(context.mode, context.page) })),
    mergeRemote: assign(({ context }, answer: RemoteAnswer) => mergeRemote(context, answer)),
    showIncoming: assign(({ context }) =>
      context.incoming
        ? {
            rows: context.incoming.rows,
            totalDocs: context.incoming.totalDocs,
            totalPages: context.incoming.totalPages,
            hasNextPage: context.incoming.hasNextPage,
            incoming: null,
            removedIds: [],
          }
        : {},
    ),
    dropRemoved: assign(({ context }) => ({
      rows: context.rows.filter((row) => !context.removedIds.includes(row.id)),
      removedIds: [],
    })),
    forgetRemote: assign({ incoming: null, removedIds: [] }),
    // A burst of changes is looked at once, REMOTE_SYNC after the last of them.
    scheduleSync: enqueueActions(({ enqueue }) => {
      enqueue.cancel('remoteSync');
      enqueue.raise({ type: 'SYNC' }, { delay: 'REMOTE_SYNC', id: 'remoteSync' });
    }),
    cancelSync: cancel('remoteSync'),
    startSync: spawnChild('readCurrent', { id: 'sync', input: ({ context }) => context }),
    scheduleDrop: raise({ type: 'DROP_REMOVED' }, { delay: 'REMOVED' }),
  },
  guards: {
    changesQuery: ({ context, event }) => {
      assertEvent(event, QUERY_EVENTS);
      return !sameQuery(nextQuery(context, event), context);
    },
    readsOn: ({ context }, answer: ListResponse) => !afterPage(context, answer).done,
    canLoadMore: ({ context }) => canLoadMore(context),
    canMove: ({ context, event }) =>
      context.reorderEndpoint !== null && plannedMove(context, event) !== null,
    moveLeftView: ({ context }) => context.move?.staysInView === false,
    hasIncoming: ({ context }) => context.incoming !== null,
  },
}).createMachine({
  id: 'list',
  context: ({ input }) => initialListContext(input),
  initial: 'uninitialized',
  on: {
    ...queryChanges('.loading', false),
    REFRESH: { target: '.loading', actions: 'startRefresh' },
    // A viewport change that fills no preselect only remembers the width.
    VIEWPORT_CHANGED: [
      { guard: 'changesQuery', target: '.loading', actions: 'applyQueryChange' },
      { actions: 'setViewport' },
    ],
  },
  states: {
    /** Nothing read yet: the first request waits for the debounce like every other. */
    uninitialized: {
      on: queryChanges('uninitialized', true),
      after: { DEBOUNCE: 'loading.fetching' },
    },
    loading: {
      // What is read next replaces the rows: no marks, nothing waiting.
      entry: 'forgetRemote',
      initial: 'debouncing',
      states: {
        debouncing: { after: { DEBOUNCE: 'fetching' } },
        fetching: {
          // Leaving this state stops the read: its signal aborts the request and a late answer
          // is dropped with the stopped actor, so only the newest request is ever applied.
          invoke: {
            src: 'fetchPage',
            input: ({ context }): FetchPageInput => ({
              endpoint: context.endpoint,
              rowSchema: context.rowSchema,
              query: {
                page: context.load.next,
                limit: context.limit,
                order: context.order,
                filter: context.filter,
              },
              fresh: context.load.fresh,
            }),
            onDone: [
              {
                guard: { type: 'readsOn', params: ({ event }) => event.output },
                target: 'fetching',
                reenter: true,
                actions: { type: 'takePage', params: ({ event }) => event.output },
              },
              {
                target: '#list.success',
                actions: { type: 'takePage', params: ({ event }) => event.output },
              },
            ],
            onError: {
              target: '#list.error',
              actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    success: {
      initial: 'idle',
      on: {
        SHOW_INCOMING: { guard: 'hasIncoming', actions: 'showIncoming' },
        DROP_REMOVED: { actions: 'dropRemoved' },
      },
      states: {
        idle: {
          // Leaving (a move, a new query) drops a look that is waiting or under way: what
          // comes next reads or changes the rows anyway.
          exit: ['cancelSync', stopChild('sync')],
          on: {
            ...INTERACTIONS,
            REMOTE_CHANGED: { actions: 'scheduleSync' },
            SYNC: { actions: [stopChild('sync'), 'startSync'] },
            'xstate.done.actor.sync': {
              actions: [
                {
                  type: 'mergeRemote',
                  params: ({ event }: { event: DoneActorEvent<RemoteAnswer> }) => event.output,
                },
                'scheduleDrop',
              ],
            },
            // The rows on screen stay as they are; the next change or refresh looks again.
            'xstate.error.actor.sync': {},
          },
        },
        reordering: {
          invoke: {
            src: 'reorder',
            input: ({ context }): ReorderInput => ({
              endpoint: context.reorderEndpoint ?? '',
              id: context.move?.id ?? '',
              position: context.move?.position ?? 1,
              filter: context.filter,
            }),
            onDone: [
              {
                guard: 'moveLeftView',
                target: '#list.loading.fetching',
                actions: ['invalidateCache', 'emitReordered', 'forgetMove', 'rereadPages'],
              },
              { target: 'idle', actions: ['invalidateCache', 'emitReordered', 'forgetMove'] },
            ],
            onError: {
              target: 'idle',
              actions: [
                { type: 'emitReorderFailed', params: ({ event }) => ({ error: event.error }) },
                'revertMove',
              ],
            },
          },
        },
      },
    },
    error: {
      on: { RETRY: { target: 'loading.fetching', actions: 'clearError' } },
    },
  },
});

export type ListMachine = typeof listMachine;
export type ListSnapshot = SnapshotFrom<ListMachine>;

/** The spec §4 load state; `success` covers a reorder in flight. */
export type ListStatus = 'uninitialized' | 'loading' | 'success' | 'error';

// Narrow selectors for `useSelector` (one value each, stable references).
export const selectStatus = (snapshot: ListSnapshot): ListStatus =>
  typeof snapshot.value === 'string'
    ? snapshot.value
    : (Object.keys(snapshot.value)[0] as ListStatus);
export const selectRows = (snapshot: ListSnapshot) => snapshot.context.rows;
export const selectPage = (snapshot: ListSnapshot) => snapshot.context.page;
export const selectLimit = (snapshot: ListSnapshot) => snapshot.context.limit;
export const selectOrder = (snapshot: ListSnapshot) => snapshot.context.order;
export const selectFilter = (snapshot: ListSnapshot) => snapshot.context.filter;
/**
 * The totals of the answer on screen. The machine keeps the last totals above 0 (spec §5) to
 * clamp pages, but an answer without rows shows 0 items and no pages, not the old count.
 */
export const selectTotalDocs = (snapshot: ListSnapshot) =>
  snapshot.context.rows.length === 0 ? 0 : snapshot.context.totalDocs;
export const selectTotalPages = (snapshot: ListSnapshot) =>
  snapshot.context.rows.length === 0 ? 0 : snapshot.context.totalPages;
export const selectError = (snapshot: ListSnapshot) => snapshot.context.error;
export const selectIsFilterActive = (snapshot: ListSnapshot) =>
  isFilterActive(snapshot.context.filter);
/**
 * How many filters hold a value beyond the preselected ones (spec §4): what Clear would change
 * and what "All Filters" counts; a list holding only its preselected values has none.
 */
export const selectSetFilterCount = ({ context }: ListSnapshot) =>
  Object.entries(context.filter).filter(
    ([field, value]) =>
      isFilterActive({ [field]: value }) &&
      !context.preselect.some((p) => p.field === field && p.value === value),
  ).length;
export const selectCanLoadMore = (snapshot: ListSnapshot) => canLoadMore(snapshot.context);
export const selectAddress = (snapshot: ListSnapshot) => snapshot.context.address;
export const selectRemovedIds = (snapshot: ListSnapshot) => snapshot.context.removedIds;
export const selectIncomingCount = (snapshot: ListSnapshot) => incomingCount(snapshot.context);
/**
 * A new page, filter, sort or page size is on its way: the rows in context answer another
 * query, so the screen shows skeleton rows instead (spec §2), while totals and pager stay.
 * A refresh of the same query, or a next page in infinite mode, keeps the rows on screen.
 */
export const selectIsLoadingOtherRows = ({ context, value }: ListSnapshot) =>
  (value === 'uninitialized' || (typeof value === 'object' && 'loading' in value)) &&
  !context.load.append &&
  (context.shown === null || !sameQuery(context.shown, context));
/** Infinite mode: a next page is on its way while the earlier rows stay on screen. */
export const selectIsLoadingMore = (snapshot: ListSnapshot) =>
  snapshot.matches('loading') && snapshot.context.load.append;

/**
 * The shared list screen's state (spec §2 list screen, §4 list load states, paging, sort,
 * reorder; §5 filter rules; §7 "Lists"; §9 list constants). One actor per list screen: the
 * route binds the table, filter bar and pager to it; every request and order update is a named
 * actor so tests swap them with `.provide`. Its context, events and inputs are list.types.ts;
 * what each change does to the context, as plain functions, list.rules.ts.
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
import { errorInfo } from '../api/error-info';
import { isFilterActive, type ListRow } from '../../contract/list-query';
import { invalidateList, readList, updatePosition, type ListResponse } from '../api/lists';

export {
  clampPage,
  cleanFilter,
  isFilterActive,
  moveRow,
  targetPosition,
  toggleSort,
} from '../../contract/list-query';

export * from './list.types';
export { incomingCount, initialListContext, mergeRemote } from './list.rules';
import {
  afterPage,
  canLoadMore,
  incomingCount,
  initialListContext,
  mergeRemote,
  movedRows,
  nextAddress,
  nextQuery,
  plannedMove,
  QUERY_EVENTS,
  readFrom,
  sameQuery,
} from './list.rules';
import type {
  FetchPageInput,
  ListContext,
  ListEmitted,
  ListEvent,
  ListInput,
  RemoteAnswer,
  ReorderInput,
} from './list.types';
import { LIST_DEBOUNCE_MS, REMOTE_SYNC_MS, REMOVED_MS } from './list.types';

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

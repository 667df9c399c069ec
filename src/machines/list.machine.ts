/**
 * The shared list screen's state (spec §2 list screen, §4 list load states, paging, sort,
 * reorder; §5 filter rules; §7 "Lists"; §9 list constants). One actor per list
 * screen: the route binds the table, filter bar and pager to it. The pages it shows live in the
 * query cache and are observed by an invoked actor (list.pages.ts); the order update is another
 * named actor; tests swap both with `.provide`. Its context, events and inputs are
 * list.types.ts; what each change does to the context, as plain functions, list.rules.ts.
 */
import {
  assertEvent,
  assign,
  cancel,
  emit,
  enqueueActions,
  fromPromise,
  not,
  raise,
  sendTo,
  setup,
} from 'xstate';
import { errorInfo } from '../api/error-info';
import { sameSearch, toListSearch } from '../api/list-url';
import { invalidateList, updatePosition } from '../api/lists';
import { observePages } from './list.pages';
import { isTooDeep } from './list.selectors';

export {
  clampPage,
  cleanFilter,
  isFilterActive,
  moveRow,
  targetPosition,
  toggleSort,
} from '../../contract/list-query';

export * from './list.types';
export * from './list.selectors';
export { incomingCount, initialListContext, mergeRemote } from './list.rules';
import {
  afterPage,
  askedAddress,
  canLoadMore,
  initialListContext,
  INTENTS,
  mergeRemote,
  movedRows,
  nextAddress,
  nextQuery,
  plannedMove,
  QUERY_EVENTS,
  readAgain,
  sameQuery,
} from './list.rules';
import type {
  ListContext,
  ListEmitted,
  ListEvent,
  ListInput,
  PagesInput,
  ReorderInput,
} from './list.types';
import { LIST_DEBOUNCE_MS, REMOTE_SYNC_MS, REMOVED_MS } from './list.types';

/**
 * The query-change transitions once a list has read, aimed at the debounce state. A list kept
 * in the address asks the address for what the user changes (askAddress: NAVIGATE) and takes
 * its query from the address alone (ADDRESS_CHANGED), so the address flows one way; other
 * lists change at once. A viewport change that fills no preselect only remembers the width.
 */
const QUERY_CHANGES = {
  ...(Object.fromEntries(
    INTENTS.map((type) => [
      type,
      [
        { guard: 'keepsAddress', actions: 'askAddress' },
        { guard: 'changesQuery', target: '.debouncing', actions: 'applyQueryChange' },
      ],
    ]),
  ) as Record<
    (typeof INTENTS)[number],
    [
      { guard: 'keepsAddress'; actions: 'askAddress' },
      { guard: 'changesQuery'; target: '.debouncing'; actions: 'applyQueryChange' },
    ]
  >),
  ADDRESS_CHANGED: [
    {
      guard: 'changesQuery',
      target: '.debouncing',
      actions: ['applyQueryChange', 'normaliseAddress'],
    },
    { actions: 'normaliseAddress' },
  ],
  VIEWPORT_CHANGED: [
    { guard: 'keepsAddress', actions: ['setViewport', 'askAddress'] },
    { guard: 'changesQuery', target: '.debouncing', actions: 'applyQueryChange' },
    { actions: 'setViewport' },
  ],
} as const;

/**
 * Before the first read a change only restarts its debounce. A list kept in the address asks
 * the address as above (the machine's own transitions), then takes the address from here.
 */
const FIRST_QUERY_CHANGES = {
  ...(Object.fromEntries(
    [...INTENTS, 'VIEWPORT_CHANGED' as const].map((type) => [
      type,
      {
        guard: 'changesOwnQuery',
        target: 'uninitialized',
        reenter: true,
        actions: 'applyQueryChange',
      },
    ]),
  ) as Record<
    (typeof INTENTS)[number] | 'VIEWPORT_CHANGED',
    {
      guard: 'changesOwnQuery';
      target: 'uninitialized';
      reenter: true;
      actions: 'applyQueryChange';
    }
  >),
  ADDRESS_CHANGED: {
    guard: 'changesQuery',
    target: 'uninitialized',
    reenter: true,
    actions: ['applyQueryChange', 'normaliseAddress'],
  },
} as const;

/** The pages the list shows: the page on screen, or pages 1..page of an infinite list. */
const pagesInput = ({ context }: { context: ListContext }): PagesInput => ({
  endpoint: context.endpoint,
  rowSchema: context.rowSchema,
  limit: context.limit,
  order: context.order,
  filter: context.filter,
  first: context.mode === 'paged' ? context.page : 1,
  last: context.page,
  fresh: context.load.fresh,
});

/** What the user may do with the rows while they are on screen. */
const INTERACTIONS = {
  LOAD_MORE: {
    guard: 'canLoadMore',
    target: '#list.observing.loading',
    actions: ['startLoadMore', 'observeMore'],
  },
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
  delays: {
    FIRST_READ: 0,
    DEBOUNCE: LIST_DEBOUNCE_MS,
    REMOTE_SYNC: REMOTE_SYNC_MS,
    REMOVED: REMOVED_MS,
  },
  actors: {
    observePages: observePages(),
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
        load: readAgain(),
        address: nextAddress(context, query, event),
        isMobile: event.type === 'VIEWPORT_CHANGED' ? event.isMobile : context.isMobile,
      };
    }),
    // A list kept in the address asks it for the change; the change comes back as ADDRESS_CHANGED.
    askAddress: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, [...INTENTS, 'VIEWPORT_CHANGED']);
      const address = askedAddress(context, event);
      if (!address) return;
      enqueue.assign({ address });
      enqueue.emit({ type: 'NAVIGATE', search: address.search, replace: address.replace });
    }),
    // The address reads what the list shows, normalised (a page size it lacked, a preselected
    // filter): when it reads otherwise, the normal form replaces its entry.
    normaliseAddress: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'ADDRESS_CHANGED');
      if (context.address === null) return;
      const search = toListSearch(context, { mode: context.mode });
      enqueue.assign({ address: { search, replace: true } });
      if (!sameSearch(search, event.search)) {
        enqueue.emit({ type: 'NAVIGATE', search, replace: true });
      }
    }),
    setViewport: assign(({ event }) => {
      assertEvent(event, 'VIEWPORT_CHANGED');
      return { isMobile: event.isMobile };
    }),
    startRefresh: assign({ load: readAgain(true) }),
    startLoadMore: assign(({ context }) => ({
      page: context.page + 1,
      load: { fresh: false, append: true },
    })),
    observeMore: sendTo('pages', { type: 'MORE' }),
    retryPages: sendTo('pages', { type: 'RETRY' }),
    startSync: enqueueActions(({ enqueue }) => {
      enqueue.assign({ syncing: true });
      enqueue.sendTo('pages', { type: 'REFETCH' });
    }),
    stopSync: assign({ syncing: false }),
    // The answer's rows replace the rows on screen: no marks, nothing waiting above.
    takePage: assign(({ context, event }) => {
      assertEvent(event, 'PAGES_READ');
      const { done, ...changes } = afterPage(context, event.answer);
      if (!done) return { ...changes, error: null };
      const { limit, order, filter } = context;
      return {
        ...changes,
        shown: { page: changes.page, limit, order, filter },
        error: null,
        removedIds: [],
        incoming: null,
        readAt: event.startedAt,
      };
    }),
    setError: assign(({ event }) => {
      assertEvent(event, 'PAGES_FAILED');
      return { error: errorInfo(event.error) };
    }),
    clearError: assign({ error: null }),
    // The rows read so far stay, and no more are asked for: the next page would be refused
    // again. The error stays in context for the screen to say why the list ends there.
    stopAtDepth: assign(({ context, event }) => {
      assertEvent(event, 'PAGES_FAILED');
      return { page: context.page - 1, hasNextPage: false, error: errorInfo(event.error) };
    }),
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
    /**
     * Cached pages hold the old order once a move is stored: they are marked stale, and the
     * pages this list observes are read again at once (what a moved-away row leaves is filled).
     */
    invalidateCache: ({ context }) => {
      void invalidateList(context.endpoint);
    },
    rereadPages: assign({ load: readAgain() }),
    mergeRemote: assign(({ context, event }) => {
      assertEvent(event, 'PAGES_READ');
      return mergeRemote(context, event.answer);
    }),
    showIncoming: assign(({ context }) =>
      context.incoming
        ? {
            rows: context.incoming.rows,
            totalDocs: context.incoming.totalDocs,
            totalIsEstimate: context.incoming.totalIsEstimate,
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
    scheduleDrop: raise({ type: 'DROP_REMOVED' }, { delay: 'REMOVED' }),
  },
  guards: {
    keepsAddress: ({ context }) => context.address !== null,
    changesQuery: ({ context, event }) => {
      assertEvent(event, QUERY_EVENTS);
      return !sameQuery(nextQuery(context, event), context);
    },
    /** A list that keeps no address changes its query itself. */
    changesOwnQuery: ({ context, event }) => {
      assertEvent(event, QUERY_EVENTS);
      return context.address === null && !sameQuery(nextQuery(context, event), context);
    },
    readsOn: ({ context, event }) => {
      assertEvent(event, 'PAGES_READ');
      return !afterPage(context, event.answer).done;
    },
    canLoadMore: ({ context }) => canLoadMore(context),
    /** An infinite list scrolled deeper than the server serves pages (PAGE_TOO_DEEP). */
    tooDeepBelow: ({ context, event }) => {
      assertEvent(event, 'PAGES_FAILED');
      return context.load.append && isTooDeep(errorInfo(event.error));
    },
    canMove: ({ context, event }) =>
      context.reorderEndpoint !== null && plannedMove(context, event) !== null,
    moveLeftView: ({ context }) => context.move?.staysInView === false,
    hasIncoming: ({ context }) => context.incoming !== null,
    isSyncing: ({ context }) => context.syncing,
    readSinceAsked: ({ context, event }) => {
      assertEvent(event, 'REFRESH');
      return event.unlessReadSince !== undefined && context.readAt >= event.unlessReadSince;
    },
  },
}).createMachine({
  id: 'list',
  context: ({ input }) => initialListContext(input),
  initial: 'uninitialized',
  on: {
    ...QUERY_CHANGES,
    REFRESH: [{ guard: 'readSinceAsked' }, { target: '.debouncing', actions: 'startRefresh' }],
  },
  states: {
    /**
     * Nothing read yet: the first request goes once the screen's mount has sent what it
     * changes (a task later), not after the debounce, which is for changes a person makes.
     */
    uninitialized: {
      on: FIRST_QUERY_CHANGES,
      after: { FIRST_READ: 'observing' },
    },
    /**
     * Another query (or a refresh) waits for the input to settle; what is read next replaces
     * the rows, so nothing stays marked or waiting meanwhile.
     */
    debouncing: {
      entry: 'forgetRemote',
      after: { DEBOUNCE: 'observing' },
    },
    /**
     * The query's pages are observed in the query cache (list.pages.ts) for as long as the list
     * shows them: leaving this state stops the observers (a read still under way is cancelled
     * with the last of them), so only the newest query is ever applied. While the rows are on
     * screen every later read of them (an invalidation, SYNC) arrives as PAGES_READ too.
     */
    observing: {
      invoke: { id: 'pages', src: 'observePages', input: pagesInput },
      initial: 'loading',
      on: {
        // Whenever it comes, an answer that puts the page shown past the end (a stale address,
        // rows deleted meanwhile) has the last page observed instead.
        PAGES_READ: { guard: 'readsOn', target: 'observing', reenter: true, actions: 'takePage' },
      },
      states: {
        loading: {
          on: {
            PAGES_READ: { guard: not('readsOn'), target: 'success', actions: 'takePage' },
            PAGES_FAILED: [
              { guard: 'tooDeepBelow', target: 'success', actions: 'stopAtDepth' },
              { target: 'error', actions: 'setError' },
            ],
          },
        },
        success: {
          initial: 'idle',
          // Leaving drops the look that waits for a burst of live changes to end: what comes
          // next reads or changes the rows anyway.
          exit: 'cancelSync',
          on: {
            SHOW_INCOMING: { guard: 'hasIncoming', actions: 'showIncoming' },
            DROP_REMOVED: { actions: 'dropRemoved' },
          },
          states: {
            /**
             * The rows are on screen and their pages observed: every read of them arrives here
             * without a loading state. A read the list asked for after changes by others (SYNC)
             * is merged in place (mergeRemote: changed rows where they stand, rows gone marked,
             * rows above waiting behind "N new"). Any other read (a change made here invalidates
             * its lists; another list on the same page refreshed it) replaces the rows.
             */
            idle: {
              // A move drops the look it waited for (its answer would come in the middle).
              exit: 'stopSync',
              on: {
                ...INTERACTIONS,
                REMOTE_CHANGED: { actions: 'scheduleSync' },
                SYNC: { actions: 'startSync' },
                PAGES_READ: [
                  { guard: 'isSyncing', actions: ['mergeRemote', 'stopSync', 'scheduleDrop'] },
                  { guard: not('readsOn'), actions: 'takePage' },
                ],
                // A read in the background that failed leaves the rows on screen as they are,
                // without an error (the cache keeps them too); the next change, refresh or
                // invalidation reads again.
                PAGES_FAILED: { actions: 'stopSync' },
              },
            },
            // Reads in the background are dropped meanwhile (the stored move reads again),
            // unless they put the page shown past the end.
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
                    target: '#list.observing.loading',
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
          on: {
            RETRY: { target: 'loading', actions: ['clearError', 'retryPages'] },
            // Read again meanwhile (an invalidation, another list on the same page): shown.
            PAGES_READ: { guard: not('readsOn'), target: 'success', actions: 'takePage' },
          },
        },
      },
    },
  },
});

/** @internal The machine's type, for tests that drive it. */
export type ListMachine = typeof listMachine;

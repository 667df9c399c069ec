/**
 * Model-based tests: small abstract models of the spec §4/§5 list rules (no invokes or delays,
 * so xstate/graph accepts them) generate paths; each path drives the real list machine on a
 * simulated clock. Its pages are observed on a cache of its own whose page requests the path's
 * events answer (nothing stays fresh there, so every query read is a request), and a fake
 * reorder actor; a list kept in the address gets an address bar that reads its writes back.
 */
import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup, SimulatedClock } from 'xstate';
import { ApiError } from '../api/errors';
import type { ListRow } from '../../contract/list-query';
import type { ListResponse } from '../api/lists';
import {
  listMachine,
  moveRow,
  selectCanLoadMore,
  selectIsLoadingMore,
  selectIsLoadingOtherRows,
  selectIsTooDeep,
  selectStatus,
  REMOTE_SYNC_MS,
  REMOVED_MS,
  selectIncomingCount,
  selectRemovedIds,
  type ListEmitted,
  type ListInput,
  type ReorderInput,
} from './list.machine';
import { describeMachinePaths, pathSuite, type PathTools } from './testing/path-tests';
import { deferredActor, type Deferred } from './testing/deferred';
import { addressBar, deferredPages, type PageCall, type PageRead } from './testing/list-pages';

// ---------------------------------------------------------------- the fake server

interface Row extends ListRow {
  name: string;
  type: string;
}

/** 23 rows (3 pages of 10); the first 5 are tops (1 page); no row is hair. */
const ROWS: Row[] = Array.from({ length: 23 }, (_, index) => ({
  id: `r${String(index + 1).padStart(2, '0')}`,
  name: `Row ${String(index + 1).padStart(2, '0')}`,
  type: index < 5 ? 'top' : 'bottom',
}));

function serverAnswer({ query }: Pick<PageRead, 'query'>): ListResponse {
  const { page, limit, order, filter } = query;
  const matching = ROWS.filter((row) => !filter.type || row.type === filter.type);
  if (order.name === 'desc') matching.reverse();
  const totalDocs = matching.length;
  const totalPages = Math.ceil(totalDocs / limit);
  return {
    data: matching.slice((page - 1) * limit, page * limit),
    pagination: { page, limit, totalDocs, totalPages, hasNextPage: page < totalPages },
  };
}

const FAILURE = new ApiError({ status: 500, code: 'HTTP_500', message: 'Server error' });
const TOO_DEEP = new ApiError({
  status: 400,
  code: 'PAGE_TOO_DEEP',
  message: 'page: Pages more than 10,000 rows from both ends of a list are not served',
});

function harness(
  input: Partial<ListInput> = {},
  { inspect, clock = new SimulatedClock() }: Partial<PathTools> = {},
) {
  const fetches: PageCall[] = [];
  const reorders: Deferred<ReorderInput, unknown>[] = [];
  const pages = deferredPages(fetches);
  // As in the app: the list's cached pages go stale, and the ones it observes are read again.
  const invalidateCache = vi.fn(() => {
    void pages.client.invalidateQueries({ queryKey: ['list'] });
  });
  const actor = createActor(
    listMachine.provide({
      actors: {
        observePages: pages.observePages,
        reorder: deferredActor<ReorderInput, unknown>(reorders),
      },
      actions: { invalidateCache },
    }),
    {
      input: { endpoint: 'v1/rows', reorder: { endpoint: 'v1/rows/{id}/position' }, ...input },
      clock,
      inspect,
    },
  );
  const emitted: ListEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  addressBar(actor);
  actor.start();
  /** Reads that are neither answered nor superseded. */
  const live = () => fetches.filter((call) => !call.settled && !call.signal.aborted);
  return {
    actor,
    clock,
    client: pages.client,
    fetches,
    reorders,
    emitted,
    invalidateCache,
    live,
    context: () => actor.getSnapshot().context,
    /** The one read in flight; fails the test when there are none or several. */
    current: () => {
      const calls = live();
      expect(calls).toHaveLength(1);
      return calls[0] as PageCall;
    },
    lastReorder: () => {
      const call = reorders.at(-1);
      if (!call) throw new Error('no reorder was invoked');
      return call;
    },
  };
}

type Harness = ReturnType<typeof harness>;

// ---------------------------------------------------------------- paged mode: the model

type FilterKind = 'none' | 'top' | 'hair';
type SortKind = 'none' | 'desc' | 'asc';

interface ModelContext {
  page: number;
  filter: FilterKind;
  sort: SortKind;
  totalPages: number;
  totalDocs: number;
  /** Simulated ms since the last change while a request waits for its debounce. */
  elapsed: number;
  /** The page the read in flight asks for (a clamp can re-read another one). */
  reading: number;
  /** Whether a read is in flight (a change supersedes it). */
  inFlight: boolean;
  /** Whether a superseded read is still unanswered; it answers late, just before the newest. */
  superseded: boolean;
  /** The optimistic change shown on top of the server's rows. */
  moved: 'none' | 'drag' | 'last';
}

type ModelEvent = {
  type:
    | 'HALF_TICK'
    | 'ANSWER'
    | 'FAIL'
    | 'RETRY'
    | 'FILTER_TOP'
    | 'FILTER_HAIR'
    | 'CLEAR_FILTERS'
    | 'SORT_NAME'
    | 'NEXT_PAGE'
    | 'PAGE_99'
    | 'DRAG'
    | 'MENU_LAST'
    | 'MENU_BELOW'
    | 'REORDER_OK'
    | 'REORDER_FAIL'
    | 'INVALIDATE';
};

/** Spec §9: list requests wait 250 ms; HALF_TICK first stops 1 ms short of it, then passes it. */
const JUST_BEFORE_MS = 249;
const LIMIT = 10;

const modelQuery = (m: { filter: FilterKind; sort?: SortKind }, page: number): PageRead => ({
  endpoint: 'v1/rows',
  query: {
    page,
    limit: LIMIT,
    order: m.sort === undefined || m.sort === 'none' ? {} : { name: m.sort },
    filter: m.filter === 'none' ? {} : { type: m.filter },
  },
});

const clamp = (page: number, totalPages: number) =>
  Math.max(1, totalPages > 0 ? Math.min(page, totalPages) : page);

/** The spec §4 answer rule: totals only when > 0, a page beyond the end is read again. */
const answered = (m: ModelContext) => {
  const { pagination } = serverAnswer(modelQuery(m, m.reading));
  const totalPages = pagination.totalPages > 0 ? pagination.totalPages : m.totalPages;
  const totalDocs = pagination.totalDocs > 0 ? pagination.totalDocs : m.totalDocs;
  const page = clamp(m.page, totalPages);
  return { totalPages, totalDocs, page, rereads: m.reading > page };
};

const rowsOnPage = (m: ModelContext) => serverAnswer(modelQuery(m, m.page)).data;

const nextSort = (sort: SortKind): SortKind => (sort === 'desc' ? 'asc' : 'desc');

/** A query change: page 1 for a new filter or sort, and the debounce starts over. */
const change = (update: (m: ModelContext) => Partial<ModelContext>) =>
  assign<ModelContext, ModelEvent, undefined, ModelEvent, never>(({ context }) => ({
    ...update(context),
    elapsed: 0,
    superseded: context.superseded || context.inFlight,
    inFlight: false,
    moved: 'none' as const,
  }));

/** The query-change transitions of the model, aimed at the state that waits for the debounce. */
const queryChanges = (target: string) =>
  ({
    FILTER_TOP: {
      guard: { type: 'filterChanges', params: 'top' },
      target,
      actions: change(() => ({ filter: 'top', page: 1 })),
    },
    FILTER_HAIR: {
      guard: { type: 'filterChanges', params: 'hair' },
      target,
      actions: change(() => ({ filter: 'hair', page: 1 })),
    },
    CLEAR_FILTERS: {
      guard: { type: 'filterChanges', params: 'none' },
      target,
      actions: change(() => ({ filter: 'none', page: 1 })),
    },
    SORT_NAME: {
      target,
      actions: change((m) => ({ sort: nextSort(m.sort), page: 1 })),
    },
    NEXT_PAGE: {
      guard: { type: 'pageChanges', params: 0 },
      target,
      actions: change((m) => ({ page: clamp(m.page + 1, m.totalPages) })),
    },
    PAGE_99: {
      guard: { type: 'pageChanges', params: 99 },
      target,
      actions: change((m) => ({ page: clamp(99, m.totalPages) })),
    },
  }) as const;

/** The answer to the read in flight: shown, or the last page read instead (spec §4). */
const READ = {
  ANSWER: [
    {
      guard: 'rereads',
      target: 'fetching',
      reenter: true,
      actions: assign<ModelContext, ModelEvent, undefined, ModelEvent, never>(({ context }) => {
        const { totalPages, totalDocs, page } = answered(context);
        return { totalPages, totalDocs, page, reading: page, superseded: false };
      }),
    },
    {
      target: 'success',
      actions: assign<ModelContext, ModelEvent, undefined, ModelEvent, never>(({ context }) => {
        const { totalPages, totalDocs, page } = answered(context);
        return {
          totalPages,
          totalDocs,
          page,
          moved: 'none' as const,
          inFlight: false,
          superseded: false,
        };
      }),
    },
  ],
  FAIL: {
    target: 'error',
    actions: assign<ModelContext, ModelEvent, undefined, ModelEvent, never>({
      inFlight: false,
      superseded: false,
    }),
  },
} as const;

const paged = setup({
  types: { context: {} as ModelContext, events: {} as ModelEvent },
  guards: {
    filterChanges: ({ context }, kind: FilterKind) => context.filter !== kind,
    // "Next" needs a known end, or the model would page on forever before the first answer.
    pageChanges: ({ context }, page: number) =>
      page === 0
        ? context.totalPages > 0 && clamp(context.page + 1, context.totalPages) !== context.page
        : clamp(page, context.totalPages) !== context.page,
    halfway: ({ context }) => context.elapsed === 0,
    rereads: ({ context }) => answered(context).rereads,
    hasRows: ({ context }) => rowsOnPage(context).length > 0,
    canDrag: ({ context }) => rowsOnPage(context).length >= 3,
    leavesPage: ({ context }) => context.moved === 'last' && context.page < context.totalPages,
  },
}).createMachine({
  id: 'pagedModel',
  context: {
    page: 1,
    filter: 'none',
    sort: 'none',
    totalPages: 0,
    totalDocs: 0,
    elapsed: 0,
    reading: 1,
    inFlight: false,
    superseded: false,
    moved: 'none',
  },
  initial: 'uninitialized',
  on: {
    ...queryChanges('.debouncing'),
  },
  states: {
    uninitialized: {
      on: {
        // The first read does not wait for the debounce: it goes a task after the start.
        HALF_TICK: {
          target: 'fetching',
          actions: assign(({ context }) => ({ reading: context.page })),
        },
        // A change before the first read is read in its place.
        ...queryChanges('uninitialized'),
      },
    },
    debouncing: {
      on: {
        HALF_TICK: [
          { guard: 'halfway', target: 'debouncing', actions: assign({ elapsed: JUST_BEFORE_MS }) },
          { target: 'fetching', actions: assign(({ context }) => ({ reading: context.page })) },
        ],
      },
    },
    fetching: {
      // Cleared by the answer, not on exit: a change must still see the read it supersedes.
      entry: assign({ inFlight: true }),
      on: READ,
    },
    success: {
      on: {
        DRAG: { guard: 'canDrag', target: 'reordering', actions: assign({ moved: 'drag' }) },
        MENU_LAST: { guard: 'hasRows', target: 'reordering', actions: assign({ moved: 'last' }) },
        MENU_BELOW: { guard: 'hasRows', target: 'reordering', actions: assign({ moved: 'last' }) },
      },
    },
    reordering: {
      on: {
        REORDER_OK: [
          {
            guard: 'leavesPage',
            target: 'fetching',
            actions: assign(({ context }) => ({ reading: context.page })),
          },
          { target: 'success' },
        ],
        REORDER_FAIL: { target: 'success', actions: assign({ moved: 'none' }) },
      },
    },
    error: {
      // The list's pages are invalidated (a change elsewhere): the page is read again.
      on: { RETRY: 'fetching', INVALIDATE: 'rereading' },
    },
    /** Still the error on screen while the page is read again; its answer is shown. */
    rereading: {
      entry: assign({ inFlight: true }),
      on: READ,
    },
  },
});

// ---------------------------------------------------------------- paged mode: checks and events

type ModelSnapshot = { context: ModelContext };

/** What the table shows: the server's page with the optimistic move on top. */
function expectedRows(m: ModelContext): ListRow[] {
  const rows = rowsOnPage(m);
  if (m.moved === 'drag') return moveRow(rows, 0, 2);
  if (m.moved === 'last') {
    return m.page < m.totalPages ? rows.slice(1) : moveRow(rows, 0, rows.length);
  }
  return rows;
}

function expectQuery(h: Harness, m: ModelContext) {
  const { page, limit, order, filter } = h.context();
  expect({ page, limit, order, filter }).toEqual(modelQuery(m, m.page).query);
}

function pagedChecks(h: Harness) {
  const waiting =
    (status: 'uninitialized' | 'loading') =>
    ({ context: m }: ModelSnapshot) => {
      expect(selectStatus(h.actor.getSnapshot())).toBe(status);
      expectQuery(h, m);
      // Debounced: nothing is asked until the input has been still for 250 ms.
      expect(h.live()).toEqual([]);
    };
  const shown = ({ context: m }: ModelSnapshot) => {
    expectQuery(h, m);
    expect(h.context().rows).toEqual(expectedRows(m));
    expect(h.context().totalPages).toBe(m.totalPages);
    expect(h.context().totalDocs).toBe(m.totalDocs);
    expect(h.context().error).toBeNull();
  };
  return {
    uninitialized: waiting('uninitialized'),
    debouncing: waiting('loading'),
    fetching: ({ context: m }: ModelSnapshot) => {
      expect(selectStatus(h.actor.getSnapshot())).toBe('loading');
      expectQuery(h, m);
      expect(h.current().input.query).toEqual(modelQuery(m, m.reading).query);
    },
    success: (snapshot: ModelSnapshot) => {
      expect(h.actor.getSnapshot().matches({ observing: { success: 'idle' } })).toBe(true);
      shown(snapshot);
      expect(h.live()).toEqual([]);
    },
    reordering: (snapshot: ModelSnapshot) => {
      expect(h.actor.getSnapshot().matches({ observing: { success: 'reordering' } })).toBe(true);
      shown(snapshot);
      const m = snapshot.context;
      const offset = (m.page - 1) * LIMIT;
      expect(h.lastReorder().input).toEqual({
        endpoint: 'v1/rows/{id}/position',
        id: rowsOnPage(m)[0]?.id,
        // Drag: row 1 of the page to its third place; menu: past the end means last place.
        position: m.moved === 'drag' ? offset + 3 : m.totalDocs,
        filter: modelQuery(m, 1).query.filter,
      });
    },
    error: ({ context: m }: ModelSnapshot) => {
      expect(selectStatus(h.actor.getSnapshot())).toBe('error');
      expectQuery(h, m);
      expect(h.context().error).toEqual({ status: 500, code: 'HTTP_500', message: 'Server error' });
    },
    rereading: ({ context: m }: ModelSnapshot) => {
      expect(selectStatus(h.actor.getSnapshot())).toBe('error');
      expectQuery(h, m);
      expect(h.current().input.query).toEqual(modelQuery(m, m.reading).query);
    },
  };
}

function pagedEvents(h: Harness) {
  const send = (event: Parameters<Harness['actor']['send']>[0]) => () => {
    h.actor.send(event);
  };
  const firstRowId = () => h.context().rows[0]?.id ?? '';
  /** The model's state before the step under way (none before the first). */
  let before: ModelContext | undefined;
  /**
   * Superseded reads answer now, before the newest, with rows of their own outdated query. A
   * step is given the state it leads to, where the answer has cleared `superseded`: whether
   * there are any is the model's state before the step (`before`).
   */
  const answerLate = async () => {
    const stale = h.fetches.filter((call) => !call.settled && call.signal.aborted);
    expect(stale.length > 0).toBe(before?.superseded ?? false);
    const snapshot = h.actor.getSnapshot();
    for (const call of stale) await call.settle({ ok: serverAnswer(call.input) });
    expect(h.actor.getSnapshot()).toBe(snapshot);
  };
  const events = {
    // `state` is where the step leads: still waiting after the first tick, reading after the second.
    HALF_TICK: ({ state }: { state: ModelSnapshot & { value: unknown } }) =>
      h.clock.increment(state.value === 'fetching' ? 1 : JUST_BEFORE_MS),
    ANSWER: async () => {
      await answerLate();
      const call = h.current();
      await call.settle({ ok: serverAnswer(call.input) });
    },
    FAIL: async () => {
      await answerLate();
      await h.current().settle({ error: FAILURE });
    },
    RETRY: send({ type: 'RETRY' }),
    INVALIDATE: () => void h.client.invalidateQueries({ queryKey: ['list'] }),
    FILTER_TOP: send({ type: 'SET_FILTER', field: 'type', value: 'top' }),
    FILTER_HAIR: send({ type: 'SET_FILTERS', filter: { type: 'hair', tags: [] } }),
    CLEAR_FILTERS: send({ type: 'CLEAR_FILTERS' }),
    SORT_NAME: send({ type: 'SORT', field: 'name' }),
    NEXT_PAGE: () => h.actor.send({ type: 'SET_PAGE', page: h.context().page + 1 }),
    PAGE_99: send({ type: 'SET_PAGE', page: 99 }),
    DRAG: () => h.actor.send({ type: 'MOVE', id: firstRowId(), toIndex: 2 }),
    MENU_LAST: () => h.actor.send({ type: 'SET_ORDER', id: firstRowId(), position: 999 }),
    MENU_BELOW: () => h.actor.send({ type: 'SET_ORDER', id: firstRowId(), position: -1 }),
    REORDER_OK: async () => {
      const call = h.lastReorder();
      const invalidations = h.invalidateCache.mock.calls.length;
      await call.settle({ ok: { id: call.input.id } });
      expect(h.invalidateCache).toHaveBeenCalledTimes(invalidations + 1);
      expect(h.emitted.findLast((event) => event.type !== 'NAVIGATE')).toEqual({
        type: 'REORDERED',
        id: call.input.id,
        position: call.input.position,
        previousPosition: expect.any(Number) as number,
      });
      // A move that stays in view: the page on screen is read again in the background and its
      // rows become the answer's, which has the stored move (the fake server keeps no order).
      if (h.actor.getSnapshot().matches({ observing: { success: 'idle' } })) {
        const data = h.context().rows;
        for (const read of h.live())
          await read.settle({ ok: { ...serverAnswer(read.input), data } });
      }
    },
    REORDER_FAIL: async () => {
      const call = h.lastReorder();
      const invalidations = h.invalidateCache.mock.calls.length;
      await call.settle({ error: FAILURE });
      expect(h.invalidateCache).toHaveBeenCalledTimes(invalidations);
      expect(h.emitted.findLast((event) => event.type !== 'NAVIGATE')).toMatchObject({
        type: 'REORDER_FAILED',
        id: call.input.id,
      });
    },
  };
  type Step = { state: ModelSnapshot & { value: unknown } };
  // Each step then leaves its state as the next one's `before`.
  return Object.fromEntries(
    Object.entries(events).map(([type, exec]) => [
      type,
      async (step: Step) => {
        await exec(step);
        before = step.state.context;
      },
    ]),
  ) as Record<keyof typeof events, (step: Step) => Promise<void>>;
}

// ---------------------------------------------------------------- paged mode: the suite

const REORDERS: readonly ModelEvent['type'][] = ['DRAG', 'MENU_LAST', 'MENU_BELOW'];
/** The paged model on a list that keeps its state itself, or in the address (`search`). */
const pagedSuite = (name: string, input: Partial<ListInput>) =>
  pathSuite({
    name,
    model: paged,
    options: {
      // Reordering is explored on unsorted lists only: the machine treats sorted ones alike.
      filterEvents: (snapshot, event) =>
        snapshot.can(event) && (!REORDERS.includes(event.type) || snapshot.context.sort === 'none'),
    },
    system: (tools) => {
      const h = harness(input, tools);
      return { actor: h.actor, states: pagedChecks(h), events: pagedEvents(h) };
    },
  });

// ---------------------------------------------------------------- infinite mode

interface InfiniteContext {
  page: number;
  filter: 'none' | 'top';
  totalPages: number;
  /** The page the read in flight asks for; pages 1..page are read in turn. */
  reading: number;
  /** LOAD_MORE keeps the rows on screen and reads only the new page, at once. */
  append: boolean;
}

type InfiniteEvent = {
  type:
    | 'TICK'
    | 'ANSWER'
    | 'FAIL'
    /** The server pages the list no deeper (PAGE_TOO_DEEP). */
    | 'TOO_DEEP'
    | 'RETRY'
    | 'LOAD_MORE'
    | 'FILTER_TOP'
    | 'CLEAR'
    | 'REFRESH'
    /** A change made from the list that has already read its pages again (an invalidation). */
    | 'REFRESH_AFTER_READ';
};

const infiniteQuery = (m: InfiniteContext, page: number) => modelQuery(m, page).query;
const infiniteTotal = (m: InfiniteContext) => serverAnswer(modelQuery(m, 1)).pagination;

const restartAt = (changes: Partial<InfiniteContext>) =>
  assign<InfiniteContext, InfiniteEvent, undefined, InfiniteEvent, never>(() => ({
    ...changes,
    page: 1,
    reading: 1,
    append: false,
  }));

const infinite = setup({
  types: { context: {} as InfiniteContext, events: {} as InfiniteEvent },
  guards: {
    readsOn: ({ context }) => context.reading < context.page,
    hasMore: ({ context }) => context.page < infiniteTotal(context).totalPages,
  },
}).createMachine({
  id: 'infiniteModel',
  context: { page: 1, filter: 'none', totalPages: 0, reading: 1, append: false },
  initial: 'waiting',
  on: {
    FILTER_TOP: {
      guard: ({ context }) => context.filter !== 'top',
      target: '.waiting',
      actions: restartAt({ filter: 'top' }),
    },
    CLEAR: {
      guard: ({ context }) => context.filter !== 'none',
      target: '.waiting',
      actions: restartAt({ filter: 'none' }),
    },
    REFRESH: {
      target: '.waiting',
      actions: assign({ reading: 1, append: false }),
    },
  },
  states: {
    waiting: { on: { TICK: 'fetching' } },
    fetching: {
      on: {
        ANSWER: [
          {
            guard: 'readsOn',
            target: 'fetching',
            reenter: true,
            actions: assign(({ context }) => ({ reading: context.reading + 1 })),
          },
          {
            target: 'success',
            actions: assign(({ context }) => ({
              totalPages: infiniteTotal(context).totalPages,
              append: false,
            })),
          },
        ],
        FAIL: 'error',
        // A page below the rows on screen that the server pages no deeper: the rows stay.
        TOO_DEEP: {
          guard: ({ context }) => context.append,
          target: 'ended',
          actions: assign(({ context }) => ({ page: context.page - 1, append: false })),
        },
      },
    },
    /** The rows end where the server pages no deeper; no more are asked for. */
    ended: { on: { LOAD_MORE: 'ended' } },
    success: {
      on: {
        LOAD_MORE: {
          guard: 'hasMore',
          target: 'fetching',
          actions: assign(({ context }) => ({
            page: context.page + 1,
            reading: context.page + 1,
            append: true,
          })),
        },
        REFRESH_AFTER_READ: 'kept',
      },
    },
    /** The rows on screen came from a read begun after the change: nothing is read again. */
    kept: {},
    error: { on: { RETRY: 'fetching' } },
  },
});

/** Infinite lists show pages 1..page of the server's list, concatenated. */
const infiniteRows = (m: InfiniteContext) =>
  Array.from({ length: m.page }, (_, index) => serverAnswer(modelQuery(m, index + 1)).data).flat();

function infiniteChecks(h: Harness) {
  return {
    waiting: ({ context: m }: { context: InfiniteContext }) => {
      expect(['uninitialized', 'loading']).toContain(selectStatus(h.actor.getSnapshot()));
      expect(h.live()).toEqual([]);
      expect(selectIsLoadingMore(h.actor.getSnapshot())).toBe(m.append);
    },
    fetching: ({ context: m }: { context: InfiniteContext }) => {
      expect(selectStatus(h.actor.getSnapshot())).toBe('loading');
      expect(h.context().page).toBe(m.page);
      const { input } = h.current();
      expect(input.query).toEqual(infiniteQuery(m, m.reading));
      // While more pages load the earlier rows stay on screen.
      if (m.append) expect(h.context().rows).toEqual(infiniteRows({ ...m, page: m.page - 1 }));
    },
    success: ({ context: m }: { context: InfiniteContext }) => {
      expect(h.actor.getSnapshot().matches({ observing: { success: 'idle' } })).toBe(true);
      expect(h.live()).toEqual([]);
      expect(h.context().page).toBe(m.page);
      expect(h.context().rows).toEqual(infiniteRows(m));
      expect(h.context().hasNextPage).toBe(m.page < m.totalPages);
    },
    kept: ({ context: m }: { context: InfiniteContext }) => {
      expect(h.actor.getSnapshot().matches({ observing: { success: 'idle' } })).toBe(true);
      expect(h.live()).toEqual([]);
      expect(h.context().page).toBe(m.page);
      expect(h.context().rows).toEqual(infiniteRows(m));
      expect(h.context().hasNextPage).toBe(m.page < m.totalPages);
    },
    ended: ({ context: m }: { context: InfiniteContext }) => {
      const snapshot = h.actor.getSnapshot();
      expect(snapshot.matches({ observing: { success: 'idle' } })).toBe(true);
      expect(h.live()).toEqual([]);
      expect(h.context().rows).toEqual(infiniteRows(m));
      expect(selectIsTooDeep(snapshot)).toBe(true);
      expect(selectCanLoadMore(snapshot)).toBe(false);
    },
    error: () => {
      expect(selectStatus(h.actor.getSnapshot())).toBe('error');
    },
  };
}

function infiniteEvents(h: Harness) {
  const send = (event: Parameters<Harness['actor']['send']>[0]) => () => {
    h.actor.send(event);
  };
  return {
    TICK: () => h.clock.increment(250),
    ANSWER: async () => {
      const call = h.current();
      await call.settle({ ok: serverAnswer(call.input) });
    },
    FAIL: () => h.current().settle({ error: FAILURE }),
    TOO_DEEP: () => h.current().settle({ error: TOO_DEEP }),
    RETRY: send({ type: 'RETRY' }),
    LOAD_MORE: send({ type: 'LOAD_MORE' }),
    FILTER_TOP: send({ type: 'SET_FILTER', field: 'type', value: 'top' }),
    CLEAR: send({ type: 'CLEAR_FILTERS' }),
    REFRESH: send({ type: 'REFRESH' }),
    REFRESH_AFTER_READ: () => {
      h.actor.send({ type: 'REFRESH', unlessReadSince: h.context().readAt });
      // A refresh would wait for the debounce: look after it.
      h.clock.increment(250);
    },
  };
}

const infiniteSuite = pathSuite({
  name: 'infinite mode (spec §4 model)',
  model: infinite,
  system: (tools) => {
    const h = harness({ mode: 'infinite' }, tools);
    return { actor: h.actor, states: infiniteChecks(h), events: infiniteEvents(h) };
  },
});

// ---------------------------------------------------------------- other query changes

interface QueryContext {
  filter: FilterKind;
  sort: SortKind;
  limit: 10 | 5;
  /** Below the mobile breakpoint. */
  mobile: boolean;
  /** The preselected gender (a filter hidden on wide screens, so filled on mobile only). */
  gender: boolean;
}

type QueryModelEvent = {
  type: 'CLEAR' | 'SET_LIMIT' | 'SET_QUERY' | 'ADDRESS' | 'NARROW' | 'WIDEN' | 'TICK' | 'ANSWER';
};

const queryQuery = (m: QueryContext) => ({
  page: 1,
  limit: m.limit,
  order: m.sort === 'none' ? {} : { name: m.sort },
  filter: {
    ...(m.filter === 'none' ? {} : { type: m.filter }),
    ...(m.gender ? { gender: 'male' } : {}),
  },
});

/** Back to an address listing hair, unsorted (preselect fills the gender again on mobile). */
const addressChanges = ({ context }: { context: QueryContext }) =>
  context.filter !== 'hair' || context.sort !== 'none' || (context.gender && !context.mobile);
const adoptAddress = assign<QueryContext, QueryModelEvent, undefined, QueryModelEvent, never>(
  ({ context }) => ({ filter: 'hair', sort: 'none', gender: context.mobile }),
);
/** Narrowing the window fills the hidden preselect filter once. */
const narrowFills = ({ context }: { context: QueryContext }) => !context.mobile && !context.gender;
const narrow = assign<QueryContext, QueryModelEvent, undefined, QueryModelEvent, never>({
  mobile: true,
  gender: true,
});
/** Another limit, or another sort through SET_QUERY, is a new query: on to `target`. */
const limitOrSortChanges = (target: 'uninitialized' | 'debouncing') => ({
  SET_LIMIT: {
    guard: ({ context }: { context: QueryContext }) => context.limit === 10,
    target,
    actions: assign<QueryContext, QueryModelEvent, undefined, QueryModelEvent, never>({ limit: 5 }),
  },
  SET_QUERY: {
    guard: ({ context }: { context: QueryContext }) => context.sort === 'none',
    target,
    actions: assign<QueryContext, QueryModelEvent, undefined, QueryModelEvent, never>({
      sort: 'desc',
    }),
  },
});
/** A narrowing that fills nothing, and widening, change no query: the list stays where it is. */
const viewportOnly = {
  NARROW: {
    guard: ({ context }: { context: QueryContext }) => !context.mobile && context.gender,
    actions: assign<QueryContext, QueryModelEvent, undefined, QueryModelEvent, never>({
      mobile: true,
    }),
  },
  WIDEN: {
    guard: ({ context }: { context: QueryContext }) => context.mobile,
    actions: assign<QueryContext, QueryModelEvent, undefined, QueryModelEvent, never>({
      mobile: false,
    }),
  },
};

/**
 * The page size, the address (`SET_QUERY`, `ADDRESS_CHANGED`), a narrower window (preselect)
 * and a cleared start filter change the query like the filter bar does, before the first read
 * (the debounce starts over) as after it. The list starts filtered to tops, from an address.
 */
const queryModel = setup({
  types: { context: {} as QueryContext, events: {} as QueryModelEvent },
}).createMachine({
  id: 'queryModel',
  context: { filter: 'top', sort: 'none', limit: 10, mobile: false, gender: false },
  initial: 'uninitialized',
  on: viewportOnly,
  states: {
    uninitialized: {
      on: {
        ADDRESS: { guard: addressChanges, target: 'uninitialized', actions: adoptAddress },
        NARROW: { guard: narrowFills, target: 'uninitialized', actions: narrow },
        // Clearing keeps the preselected gender only where it is filled (on mobile).
        CLEAR: {
          guard: ({ context }) => context.filter !== 'none' || (context.gender && !context.mobile),
          target: 'uninitialized',
          actions: assign(({ context }) => ({ filter: 'none' as const, gender: context.mobile })),
        },
        ...limitOrSortChanges('uninitialized'),
        TICK: 'fetching',
      },
    },
    fetching: { on: { ANSWER: 'success' } },
    success: {
      on: {
        ADDRESS: { guard: addressChanges, target: 'debouncing', actions: adoptAddress },
        NARROW: { guard: narrowFills, target: 'debouncing', actions: narrow },
        ...limitOrSortChanges('debouncing'),
      },
    },
    debouncing: { on: { TICK: 'fetching' } },
  },
});

function queryChecks(h: Harness) {
  const query = ({ context: m }: { context: QueryContext }) => {
    const { page, limit, order, filter } = h.context();
    expect({ page, limit, order, filter }).toEqual(queryQuery(m));
  };
  const waiting = (status: 'uninitialized' | 'loading') => (state: { context: QueryContext }) => {
    expect(selectStatus(h.actor.getSnapshot())).toBe(status);
    query(state);
    expect(h.live()).toEqual([]);
  };
  return {
    uninitialized: waiting('uninitialized'),
    debouncing: waiting('loading'),
    fetching: (state: { context: QueryContext }) => {
      query(state);
      expect(h.current().input.query).toEqual(queryQuery(state.context));
    },
    success: (state: { context: QueryContext }) => {
      query(state);
      const answer = serverAnswer({
        ...modelQuery(state.context, 1),
        query: queryQuery(state.context),
      });
      expect(h.context().rows).toEqual(answer.data);
    },
  };
}

function queryEvents(h: Harness) {
  return {
    CLEAR: () => h.actor.send({ type: 'CLEAR_FILTERS' }),
    SET_LIMIT: () => h.actor.send({ type: 'SET_LIMIT', limit: 5 }),
    SET_QUERY: () => h.actor.send({ type: 'SET_QUERY', order: { name: 'desc' } }),
    ADDRESS: () =>
      h.actor.send({ type: 'ADDRESS_CHANGED', search: { filter: { type: 'hair' }, page: 1 } }),
    NARROW: () => h.actor.send({ type: 'VIEWPORT_CHANGED', isMobile: true }),
    WIDEN: () => h.actor.send({ type: 'VIEWPORT_CHANGED', isMobile: false }),
    TICK: () => h.clock.increment(250),
    ANSWER: async () => {
      const call = h.current();
      await call.settle({ ok: serverAnswer(call.input) });
    },
  };
}

const preselectGender = [{ field: 'gender', value: 'male', hiddenOnDesktop: true }];
const querySuite = pathSuite({
  name: 'page size and address (spec §4/§5 model)',
  model: queryModel,
  system: (tools) => {
    const h = harness(
      { search: { filter: { type: 'top' }, page: 1 }, preselect: preselectGender },
      tools,
    );
    return { actor: h.actor, states: queryChecks(h), events: queryEvents(h) };
  },
});
/** The same changes in a list that keeps no address (a picker): it changes its query itself. */
const ownQuerySuite = pathSuite({
  name: 'page size, kept by the list itself (spec §4/§5 model)',
  model: queryModel,
  options: { filterEvents: (snapshot, event) => snapshot.can(event) && event.type !== 'ADDRESS' },
  system: (tools) => {
    const h = harness({ initialFilter: { type: 'top' }, preselect: preselectGender }, tools);
    return { actor: h.actor, states: queryChecks(h), events: queryEvents(h) };
  },
});

// ---------------------------------------------------------------- live changes by others

/** What someone else has done on the server since the list was read. */
interface Server {
  renamed: boolean;
  deleted: boolean;
  inserted: boolean;
}

interface LiveContext {
  server: Server;
  /** The ids on screen, in order. */
  ids: string[];
  /** Ids marked as deleted by someone else. */
  removed: string[];
  /** A read found rows above the ones on screen: the "new" pill shows. */
  incoming: boolean;
  /** Row r02 on screen carries its new name. */
  renamedShown: boolean;
}

type LiveModelEvent = {
  type: 'START' | 'RENAME' | 'DELETE' | 'INSERT' | 'TICK' | 'ANSWER' | 'FAIL' | 'SHOW' | 'EXPIRE';
};

/** The first page as the server has it now: r02 renamed, r03 deleted, r00 new at the top. */
function livePage(server: Server): Row[] {
  const rows = [
    ...(server.inserted ? [{ id: 'r00', name: 'Row 00', type: 'top' }] : []),
    ...ROWS.filter((row) => !(server.deleted && row.id === 'r03')).map((row) =>
      server.renamed && row.id === 'r02' ? { ...row, name: 'Renamed' } : row,
    ),
  ];
  return rows.slice(0, LIMIT);
}

const remoteChange = (change: keyof Server) => ({
  guard: ({ context }: { context: LiveContext }) => !context.server[change],
  target: 'scheduled' as const,
  actions: assign<LiveContext, LiveModelEvent, undefined, LiveModelEvent, never>(({ context }) => ({
    server: { ...context.server, [change]: true },
  })),
});

/**
 * Others rename, delete and add rows while the list is on screen. After a burst the list looks
 * again: a renamed row changes where it stands, a deleted one stays marked until REMOVED_MS
 * has passed, a row that fills in below is added at the bottom, and a row that would appear
 * above waits behind the "new" pill (nothing is added or marked meanwhile) until SHOW.
 */
const liveModel = setup({
  types: { context: {} as LiveContext, events: {} as LiveModelEvent },
}).createMachine({
  id: 'liveModel',
  context: {
    server: { renamed: false, deleted: false, inserted: false },
    ids: ROWS.slice(0, LIMIT).map((row) => row.id),
    removed: [],
    incoming: false,
    renamedShown: false,
  },
  initial: 'loading',
  states: {
    loading: { on: { START: 'idle' } },
    idle: {
      on: {
        RENAME: remoteChange('renamed'),
        DELETE: remoteChange('deleted'),
        INSERT: remoteChange('inserted'),
        SHOW: {
          guard: ({ context }) => context.incoming,
          target: 'idle',
          actions: assign(({ context }) => ({
            ids: livePage(context.server).map((row) => row.id),
            removed: [],
            incoming: false,
            renamedShown: context.server.renamed,
          })),
        },
        EXPIRE: {
          guard: ({ context }) => context.removed.length > 0,
          target: 'idle',
          actions: assign(({ context }) => ({
            ids: context.ids.filter((id) => !context.removed.includes(id)),
            removed: [],
          })),
        },
      },
    },
    scheduled: { on: { TICK: 'syncing' } },
    syncing: {
      on: {
        FAIL: 'idle',
        ANSWER: {
          target: 'idle',
          actions: assign(({ context }) => {
            const fresh = livePage(context.server).map((row) => row.id);
            const gone = context.ids.filter((id) => !fresh.includes(id));
            const incoming = fresh.includes('r00') && !context.ids.includes('r00');
            const below = fresh.filter((id) => id !== 'r00' && !context.ids.includes(id));
            return {
              ids: incoming ? context.ids : [...context.ids, ...below],
              renamedShown: context.server.renamed,
              // With rows waiting above, a row missing below may only have been pushed down.
              removed: incoming ? context.removed : [...new Set([...context.removed, ...gone])],
              incoming,
            };
          }),
        },
      },
    },
  },
});

function liveChecks(h: Harness) {
  const shown = ({ context: m }: { context: LiveContext }) => {
    const rows = h.context().rows as Row[];
    expect(rows.map((row) => row.id)).toEqual(m.ids);
    // Rows on screen carry what the server said last about them.
    expect(rows.find((row) => row.id === 'r02')?.name).toBe(m.renamedShown ? 'Renamed' : 'Row 02');
    expect(selectRemovedIds(h.actor.getSnapshot())).toEqual(m.removed);
    expect(selectIncomingCount(h.actor.getSnapshot())).toBe(m.incoming ? 1 : 0);
    expect(selectStatus(h.actor.getSnapshot())).toBe('success');
  };
  return {
    loading: () => expect(selectStatus(h.actor.getSnapshot())).toBe('uninitialized'),
    idle: shown,
    scheduled: (state: { context: LiveContext }) => {
      shown(state);
      expect(h.live()).toEqual([]);
    },
    syncing: (state: { context: LiveContext }) => {
      shown(state);
      // The page on screen is read again in the background: no loading state meanwhile.
      expect(h.current().input.query).toMatchObject({ page: 1, limit: LIMIT });
    },
  };
}

function liveEvents(h: Harness) {
  const remote = () => h.actor.send({ type: 'REMOTE_CHANGED' });
  return {
    START: async () => {
      h.clock.increment(250);
      const call = h.current();
      await call.settle({ ok: serverAnswer(call.input) });
    },
    RENAME: remote,
    DELETE: remote,
    INSERT: remote,
    // One ms short of the burst's end nothing is read; at its end the pages are read again.
    TICK: () => {
      h.clock.increment(REMOTE_SYNC_MS - 1);
      expect(h.live()).toEqual([]);
      h.clock.increment(1);
    },
    ANSWER: async ({ state }: { state: { context: LiveContext } }) => {
      const data = livePage(state.context.server);
      const pagination = { page: 1, limit: LIMIT, totalDocs: 24, totalPages: 3, hasNextPage: true };
      await h.current().settle({ ok: { data, pagination } });
    },
    FAIL: async () => h.current().settle({ error: FAILURE }),
    SHOW: () => h.actor.send({ type: 'SHOW_INCOMING' }),
    EXPIRE: () => h.clock.increment(REMOVED_MS),
  };
}

const liveSuite = pathSuite({
  name: 'changes by others (live events)',
  model: liveModel,
  system: (tools) => {
    const h = harness({}, tools);
    return { actor: h.actor, states: liveChecks(h), events: liveEvents(h) };
  },
});

describeMachinePaths(listMachine, {
  suites: [
    pagedSuite('paged mode (spec §4/§5 model)', {}),
    pagedSuite('paged mode, kept in the address (spec §4/§5 model)', { search: { page: 1 } }),
    infiniteSuite,
    querySuite,
    ownQuerySuite,
    liveSuite,
  ],
});

describe('list machine, infinite mode', () => {
  it('reads only the new page on LOAD_MORE, and pages 1..n on a start at page n', async () => {
    const h = harness({ mode: 'infinite', initialPage: 3 });
    h.clock.increment(250);
    for (const page of [1, 2, 3]) {
      const call = h.current();
      expect(call.input.query.page).toBe(page);
      await call.settle({ ok: serverAnswer(call.input) });
    }
    expect(h.context().rows.map((row) => row.id)).toEqual(ROWS.map((row) => row.id));
    expect(h.fetches).toHaveLength(3);
    h.actor.send({ type: 'LOAD_MORE' }); // no next page: ignored
    h.clock.increment(250);
    expect(h.fetches).toHaveLength(3);
  });

  it('keeps its rows and stops where the server pages no deeper (PAGE_TOO_DEEP)', async () => {
    const h = harness({ mode: 'infinite' });
    h.clock.increment(250);
    await h.current().settle({ ok: serverAnswer(h.current().input) });
    h.actor.send({ type: 'LOAD_MORE' });
    await h.current().settle({ error: TOO_DEEP });
    const snapshot = h.actor.getSnapshot();
    expect(selectStatus(snapshot)).toBe('success');
    expect(h.context().rows.map((row) => row.id)).toEqual(ROWS.slice(0, 10).map((row) => row.id));
    expect(selectIsTooDeep(snapshot)).toBe(true);
    expect(selectCanLoadMore(snapshot)).toBe(false);
    h.actor.send({ type: 'LOAD_MORE' });
    h.clock.increment(250);
    expect(h.live()).toHaveLength(0);
  });
});

describe('list machine, what the table shows while it reads', () => {
  const otherRows = (h: Harness) => selectIsLoadingOtherRows(h.actor.getSnapshot());
  const answer = async (h: Harness) => {
    const call = h.current();
    await call.settle({ ok: serverAnswer(call.input) });
  };

  it('shows skeleton rows, not the previous answer, while a new page or filter loads (spec §2)', async () => {
    const h = harness();
    expect(otherRows(h)).toBe(true);
    h.clock.increment(250);
    await answer(h);
    expect(otherRows(h)).toBe(false);

    h.actor.send({ type: 'SET_PAGE', page: 2 });
    expect(otherRows(h)).toBe(true);
    // The pager keeps the totals of the answer on screen meanwhile.
    expect(h.context().totalPages).toBe(3);
    h.clock.increment(250);
    await answer(h);
    expect(otherRows(h)).toBe(false);
    expect(h.context().rows[0]?.id).toBe('r11');

    h.actor.send({ type: 'SET_FILTER', field: 'type', value: 'top' });
    expect(otherRows(h)).toBe(true);
    h.clock.increment(250);
    await answer(h);
    expect(otherRows(h)).toBe(false);
  });

  it('keeps the rows on screen while the same query is read again', async () => {
    const h = harness();
    h.clock.increment(250);
    await answer(h);
    h.actor.send({ type: 'REFRESH' });
    expect(selectStatus(h.actor.getSnapshot())).toBe('loading');
    expect(otherRows(h)).toBe(false);
    // Changing the page and back to it before the read leaves nothing new to show.
    h.actor.send({ type: 'SET_PAGE', page: 2 });
    h.actor.send({ type: 'SET_PAGE', page: 1 });
    expect(otherRows(h)).toBe(false);
  });

  it('keeps the rows of an infinite list while the next page loads below them', async () => {
    const h = harness({ mode: 'infinite' });
    h.clock.increment(250);
    await answer(h);
    h.actor.send({ type: 'LOAD_MORE' });
    expect(selectIsLoadingMore(h.actor.getSnapshot())).toBe(true);
    expect(otherRows(h)).toBe(false);
    h.clock.increment(250);
    await answer(h);
    h.actor.send({ type: 'SORT', field: 'name' });
    expect(otherRows(h)).toBe(true);
  });
});

/**
 * List machine rules written by hand (spec §2, §4, §5): the address it asks for and takes its
 * query from, the preselect rule, what the totals on screen say, and the positions a move shows
 * at once.
 */
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import type { ListResponse } from '../api/lists';
import {
  initialListContext,
  listMachine,
  mergeRemote,
  selectCanLoadMore,
  selectFilter,
  selectIsFilterActive,
  selectPage,
  selectRows,
  selectSetFilterCount,
  selectTotalDocs,
  selectTotalPages,
  type ListInput,
  type ReorderInput,
} from './list.machine';
import { deferredActor, liveCall, type Deferred } from './testing/deferred';
import {
  addressBar,
  deferredPages,
  type AddressWrite,
  type PageCall,
  type PageRead,
} from './testing/list-pages';
import type { ListFilter, ListOrder, ListRow } from '../../contract/list-query';
import type { ListSearch } from '../api/list-url';
import { anyRowSchema } from '../api/lists';
import {
  afterPage,
  askedAddress,
  incomingCount,
  movedRows,
  nextAddress,
  nextQuery,
  plannedMove,
  readAgain,
  sameQuery,
} from './list.rules';
import type { PagesAnswer } from './list.types';

/** Three pages of ten rows. */
const answer = ({ query }: PageRead): ListResponse => ({
  data: Array.from({ length: 10 }, (_, i) => ({ id: `p${query.page}-${i}` })),
  pagination: {
    page: query.page,
    limit: 10,
    totalDocs: 30,
    totalPages: 3,
    hasNextPage: query.page < 3,
  },
});

/**
 * A list on v1/assets; with `address: false`, what it asks of the address is recorded in
 * `asked` but never read back (the router has not answered yet).
 */
function start(input: Partial<ListInput> = {}, { address = true } = {}) {
  const fetches: PageCall[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(
    listMachine.provide({ actors: { observePages: deferredPages(fetches).observePages } }),
    { input: { endpoint: 'v1/assets', ...input }, clock },
  );
  const asked: AddressWrite[] = [];
  actor.on('NAVIGATE', ({ search, replace }) => asked.push({ search, replace }));
  /** What the list wrote to the address bar, in order. */
  const writes = address ? addressBar(actor) : [];
  actor.start();
  /** Waits out the 250 ms debounce and answers the read it starts. */
  const load = async () => {
    clock.increment(250);
    const call = liveCall(fetches);
    await call.settle({ ok: answer(call.input) });
    return call.input.query;
  };
  return { actor, clock, fetches, load, asked, writes, snapshot: () => actor.getSnapshot() };
}

describe('list machine — the address', () => {
  it('takes its query from the address it is told, writing back only the normal form (no new entry)', async () => {
    const search = { filter: { type: ['top'] }, order: '-name', page: 2 };
    const { actor, load, writes } = start({ search });
    // What the view does first: it tells the list what the address reads.
    actor.send({ type: 'ADDRESS_CHANGED', search });
    expect(writes).toEqual([{ search: { ...search, limit: 10 }, replace: true }]);
    expect(await load()).toMatchObject({
      page: 2,
      order: { name: 'desc' },
      filter: { type: ['top'] },
    });
    expect(writes).toHaveLength(1);
  });

  it('keeps nothing in the address when the list was started without a search', async () => {
    const { actor, load, asked, snapshot } = start();
    await load();
    actor.send({ type: 'SET_PAGE', page: 2 });
    expect(asked).toEqual([]);
    expect(selectPage(snapshot())).toBe(2);
  });

  it('asks the address for a change and reads nothing until the address reads it', async () => {
    const { actor, load, asked, fetches, clock, snapshot } = start(
      { search: { order: 'name', page: 1 } },
      { address: false },
    );
    await load();
    actor.send({ type: 'SET_PAGE', page: 2 });
    expect(asked).toEqual([{ search: { order: 'name', page: 2, limit: 10 }, replace: false }]);
    expect(selectPage(snapshot())).toBe(1);
    clock.increment(250);
    expect(fetches.filter((call) => !call.settled)).toHaveLength(0);
    actor.send({ type: 'ADDRESS_CHANGED', search: { order: 'name', page: 2, limit: 10 } });
    expect(await load()).toMatchObject({ page: 2 });
  });

  it('a second change before the address reads the first starts from the first', async () => {
    const { actor, load, asked } = start(
      { search: { order: 'name', page: 1 } },
      { address: false },
    );
    await load();
    actor.send({ type: 'SORT', field: 'createdAt' });
    actor.send({ type: 'SORT', field: 'createdAt' });
    actor.send({ type: 'SET_FILTER', field: 'type', value: ['hair'] });
    expect(asked.map((write) => write.search)).toEqual([
      { order: '-createdAt', page: 1, limit: 10 },
      { order: 'createdAt', page: 1, limit: 10 },
      { filter: { type: ['hair'] }, order: 'createdAt', page: 1, limit: 10 },
    ]);
  });

  it('paging, sorting and choosing a filter each add a history entry', async () => {
    const { actor, load, writes } = start({ search: { order: 'name', page: 1 } });
    await load();
    actor.send({ type: 'SET_PAGE', page: 2 });
    expect(writes.at(-1)).toEqual({
      search: { order: 'name', page: 2, limit: 10 },
      replace: false,
    });
    await load();
    actor.send({ type: 'SORT', field: 'createdAt' });
    expect(writes.at(-1)).toEqual({
      search: { order: '-createdAt', page: 1, limit: 10 },
      replace: false,
    });
    actor.send({ type: 'SET_FILTER', field: 'type', value: ['hair'] });
    expect(writes.at(-1)?.replace).toBe(false);
  });

  it('typing in the search box replaces the entry instead of adding one per key', async () => {
    const { actor, load, writes } = start({ search: { order: 'name', page: 1 } });
    await load();
    actor.send({ type: 'SET_FILTER', field: 'search', value: 'ja' });
    actor.send({ type: 'SET_FILTER', field: 'search', value: 'jac' });
    expect(writes).toEqual([
      { search: { filter: { search: 'ja' }, order: 'name', page: 1, limit: 10 }, replace: true },
      { search: { filter: { search: 'jac' }, order: 'name', page: 1, limit: 10 }, replace: true },
    ]);
  });

  it('adopts an address it did not write (Back) and reads that page after 250 ms', async () => {
    const { actor, load, fetches, clock, snapshot } = start({ search: { order: 'name', page: 1 } });
    await load();
    actor.send({ type: 'ADDRESS_CHANGED', search: { order: 'name', page: 3 } });
    expect(selectPage(snapshot())).toBe(3);
    clock.increment(249);
    expect(fetches.filter((call) => !call.settled)).toHaveLength(0);
    clock.increment(1);
    expect(liveCall(fetches).input.query.page).toBe(3);
  });

  it('reads the address it asked for once: told it again, no second read', async () => {
    const { actor, load, fetches, clock } = start({ search: { order: 'name', page: 1 } });
    await load();
    actor.send({ type: 'SET_PAGE', page: 2 });
    await load();
    actor.send({ type: 'ADDRESS_CHANGED', search: { page: 2, order: 'name' } });
    clock.increment(250);
    expect(fetches.filter((call) => !call.settled)).toHaveLength(0);
  });

  it('an address past the last page shows the last page and replaces the address with it', async () => {
    const { actor, load, writes } = start({ search: { order: 'name', page: 1 } });
    await load();
    actor.send({ type: 'ADDRESS_CHANGED', search: { order: 'name', page: 99, limit: 10 } });
    expect(writes.at(-1)).toEqual({ search: { order: 'name', page: 3, limit: 10 }, replace: true });
    expect(await load()).toMatchObject({ page: 3 });
  });
});

describe('list machine — the page size in the address', () => {
  it('starts with the size the address asks for, else the one it is given (remembered)', async () => {
    expect(await start({ search: { page: 1, limit: 50 }, limit: 25 }).load()).toMatchObject({
      limit: 50,
    });
    const remembered = start({ search: { page: 1 }, limit: 25 });
    remembered.actor.send({ type: 'ADDRESS_CHANGED', search: { page: 1 } });
    expect(await remembered.load()).toMatchObject({ limit: 25 });
    expect(remembered.writes.at(-1)).toEqual({ search: { page: 1, limit: 25 }, replace: true });
  });

  it('a new page size adds a history entry, starts at page 1, and Back brings the old one', async () => {
    const { actor, load, writes } = start({ search: { order: 'name', page: 3 } });
    await load();
    actor.send({ type: 'SET_LIMIT', limit: 100 });
    expect(writes.at(-1)).toEqual({
      search: { order: 'name', page: 1, limit: 100 },
      replace: false,
    });
    expect(await load()).toMatchObject({ page: 1, limit: 100 });
    actor.send({ type: 'ADDRESS_CHANGED', search: { order: 'name', page: 3, limit: 10 } });
    expect(await load()).toMatchObject({ page: 3, limit: 10 });
  });

  it('an address without a size (a link from the menu) keeps the size on screen', async () => {
    const { actor, load, writes } = start({ search: { order: 'name', page: 1, limit: 50 } });
    await load();
    actor.send({ type: 'ADDRESS_CHANGED', search: { order: 'name', page: 2 } });
    expect(await load()).toMatchObject({ page: 2, limit: 50 });
    expect(writes.at(-1)).toEqual({ search: { order: 'name', page: 2, limit: 50 }, replace: true });
  });
});

describe('list machine — preselect, active filters and loading more', () => {
  const preselect = [
    { field: 'gender', value: 'male', hiddenOnDesktop: false },
    { field: 'locked', value: 'false', hiddenOnDesktop: true },
  ];

  it('an empty single-select with preselectValue is set to it; a hidden one only on mobile', () => {
    const desktop = start({ preselect });
    expect(selectFilter(desktop.snapshot())).toEqual({ gender: 'male' });
    const mobile = start({ preselect, isMobile: true });
    expect(selectFilter(mobile.snapshot())).toEqual({ gender: 'male', locked: 'false' });
  });

  it('clearing the filters sets the preselected value again; narrowing the window adds hidden ones', async () => {
    const { actor, load, snapshot, writes } = start({ preselect, search: { page: 1 } });
    await load();
    actor.send({ type: 'SET_FILTER', field: 'gender', value: 'female' });
    actor.send({ type: 'CLEAR_FILTERS' });
    expect(selectFilter(snapshot())).toEqual({ gender: 'male' });
    actor.send({ type: 'VIEWPORT_CHANGED', isMobile: true });
    expect(selectFilter(snapshot())).toEqual({ gender: 'male', locked: 'false' });
    expect(writes.at(-1)?.search.filter).toEqual({ gender: 'male', locked: 'false' });
  });

  it('counts only the filters set beyond the preselected values (what Clear and All Filters show)', () => {
    const { actor, snapshot } = start({ preselect, isMobile: true });
    expect(selectSetFilterCount(snapshot())).toBe(0);
    actor.send({ type: 'SET_FILTER', field: 'search', value: 'cap' });
    expect(selectSetFilterCount(snapshot())).toBe(1);
    // Another body than the preselected one is a choice too.
    actor.send({ type: 'SET_FILTER', field: 'gender', value: 'female' });
    expect(selectSetFilterCount(snapshot())).toBe(2);
    actor.send({ type: 'CLEAR_FILTERS' });
    expect(selectSetFilterCount(snapshot())).toBe(0);
  });

  it('filters count as active only when one holds a value', () => {
    const { actor, snapshot } = start();
    expect(selectIsFilterActive(snapshot())).toBe(false);
    actor.send({ type: 'SET_FILTER', field: 'search', value: '' });
    expect(selectIsFilterActive(snapshot())).toBe(false);
    actor.send({ type: 'SET_FILTER', field: 'search', value: 'x' });
    expect(selectIsFilterActive(snapshot())).toBe(true);
  });

  it('an infinite list can load more while the server has a next page, a paged one never', async () => {
    const infinite = start({ mode: 'infinite' });
    await infinite.load();
    expect(selectCanLoadMore(infinite.snapshot())).toBe(true);
    const paged = start();
    await paged.load();
    expect(selectCanLoadMore(paged.snapshot())).toBe(false);
  });
});

describe('list machine — what the screen shows after an answer', () => {
  it('a search that matches nothing shows 0 items and no pages, not the previous totals', async () => {
    const { actor, clock, fetches, load, snapshot } = start();
    await load();
    expect(selectTotalDocs(snapshot())).toBe(30);
    actor.send({ type: 'SET_FILTER', field: 'search', value: 'no such thing' });
    clock.increment(250);
    const empty = { page: 1, limit: 10, totalDocs: 0, totalPages: 0, hasNextPage: false };
    await liveCall(fetches).settle({ ok: { data: [], pagination: empty } });
    expect(selectRows(snapshot())).toEqual([]);
    expect(selectTotalDocs(snapshot())).toBe(0);
    expect(selectTotalPages(snapshot())).toBe(0);
  });

  /** Rows a, b, c, d at positions 1-4 of a list sorted by position, loaded. */
  async function positionedList() {
    const fetches: PageCall[] = [];
    const reorders: Deferred<ReorderInput, unknown>[] = [];
    const clock = new SimulatedClock();
    const actor = createActor(
      listMachine.provide({
        actors: {
          observePages: deferredPages(fetches).observePages,
          reorder: deferredActor(reorders),
        },
        actions: { invalidateCache: () => undefined },
      }),
      {
        input: {
          endpoint: 'v1/assets',
          initialOrder: { position: 'asc' },
          reorder: { endpoint: 'v1/assets/{id}/position' },
        },
        clock,
      },
    ).start();
    const emitted: unknown[] = [];
    actor.on('REORDERED', (event) => emitted.push(event));
    clock.increment(250);
    const rows = ['a', 'b', 'c', 'd'].map((id, i) => ({ id, position: i + 1 }));
    const pagination = { page: 1, limit: 10, totalDocs: 4, totalPages: 1, hasNextPage: false };
    await liveCall(fetches).settle({ ok: { data: rows, pagination } });
    return { actor, reorders, emitted };
  }

  it('moving a row in a list sorted by position renumbers the rows it passed at once', async () => {
    const { actor } = await positionedList();
    actor.send({ type: 'SET_ORDER', id: 'd', position: 1 });
    const shown = (selectRows(actor.getSnapshot()) as (ListRow & { position: number })[]).map(
      (row) => `${row.id}${row.position}`,
    );
    expect(shown).toEqual(['d1', 'a2', 'b3', 'c4']);
  });

  it('a stored move says where the row went and where it was, for Undo', async () => {
    const { actor, reorders, emitted } = await positionedList();
    actor.send({ type: 'SET_ORDER', id: 'c', position: 1 });
    await liveCall(reorders).settle({ ok: { id: 'c' } });
    expect(emitted).toEqual([{ type: 'REORDERED', id: 'c', position: 1, previousPosition: 3 }]);
  });
});

describe('a feed (newRowsOnTop): rows others add arrive on top of the first page', () => {
  const row = (id: string) => ({ id });
  const shown = ['c', 'b', 'a'].map(row);
  const answer = (ids: string[]) => ({
    rows: ids.map(row),
    pages: 1,
    totalDocs: ids.length,
    totalIsEstimate: false,
    totalPages: 1,
    hasNextPage: false,
  });
  const feed = (page: number, newRowsOnTop = true) => ({
    ...initialListContext({ endpoint: 'v1/activity', newRowsOnTop, initialPage: page }),
    rows: shown,
  });

  it('puts them above every row on screen, keeping the rows the reader looks at', () => {
    const next = mergeRemote(feed(1), answer(['e', 'd', 'c', 'b']));
    expect(next.rows?.map((r) => r.id)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(next).toMatchObject({ incoming: null, totalDocs: 4 });
  });

  it('past the first page, and in other lists, they wait for "show"', () => {
    for (const context of [feed(2), feed(1, false)]) {
      const next = mergeRemote(context, answer(['d', 'c', 'b']));
      expect(next.rows?.map((r) => r.id)).toEqual(['c', 'b', 'a']);
      expect(next.incoming?.rows.map((r) => r.id)).toEqual(['d', 'c', 'b']);
    }
  });
});

describe('list rules — moves across pages (menu and drag)', () => {
  /** Page 2 of 25 rows sorted by position, ten a page: rows r11 to r20 at positions 11 to 20. */
  const secondPage = (order: ListOrder = { position: 'asc' }) => ({
    ...initialListContext({ endpoint: 'v1/assets', initialPage: 2, initialOrder: order }),
    rows: Array.from({ length: 10 }, (_, i) => ({ id: `r${i + 11}`, position: i + 11 })),
    totalDocs: 25,
    totalPages: 3,
  });
  const menu = (id: string, position: number) => ({ type: 'SET_ORDER' as const, id, position });
  const shown = (rows: ListRow[]) =>
    (rows as (ListRow & { position?: unknown })[]).map(
      (row) => `${row.id}@${String(row.position)}`,
    );

  it('a menu move to another page takes the row off this one, remembering where it was', () => {
    const context = secondPage();
    const move = plannedMove(context, menu('r13', 3));
    expect(move).toEqual({
      id: 'r13',
      position: 3,
      previousPosition: 13,
      previousRows: context.rows,
      staysInView: false,
    });
    expect(movedRows(context, move!).map((row) => row.id)).not.toContain('r13');
    expect(movedRows(context, move!)).toHaveLength(9);
  });

  it('a menu move within the page renumbers the places it passed', () => {
    const context = secondPage();
    const move = plannedMove(context, menu('r13', 16));
    expect(move).toMatchObject({ position: 16, previousPosition: 13, staysInView: true });
    expect(shown(movedRows(context, move!))).toEqual([
      'r11@11',
      'r12@12',
      'r14@13',
      'r15@14',
      'r16@15',
      'r13@16',
      'r17@17',
      'r18@18',
      'r19@19',
      'r20@20',
    ]);
  });

  it('to the first and the last place of the page, both stay in view', () => {
    const context = secondPage();
    expect(plannedMove(context, menu('r15', 11))).toMatchObject({ staysInView: true });
    expect(plannedMove(context, menu('r15', 20))).toMatchObject({ staysInView: true });
    expect(plannedMove(context, menu('r15', 10))).toMatchObject({ staysInView: false });
    expect(plannedMove(context, menu('r15', 21))).toMatchObject({ staysInView: false });
  });

  it('a menu target past the end goes to the last place, one below 1 to the first', () => {
    const context = secondPage();
    expect(plannedMove(context, menu('r13', 99))).toMatchObject({ position: 25 });
    expect(plannedMove(context, menu('r13', 0))).toMatchObject({ position: 1 });
  });

  it('moves the first row on the page too', () => {
    expect(plannedMove(secondPage(), menu('r11', 15))).toMatchObject({
      position: 15,
      previousPosition: 11,
    });
  });

  it('moves the rows of an unsorted list without touching their positions', () => {
    const context = secondPage({});
    const move = plannedMove(context, menu('r11', 12))!;
    expect(shown(movedRows(context, move)).slice(0, 2)).toEqual(['r12@12', 'r11@11']);
  });

  it('a move onto its own place, or of a row not on screen, changes nothing', () => {
    const context = secondPage();
    expect(plannedMove(context, menu('r13', 13))).toBeNull();
    expect(plannedMove(context, { type: 'MOVE', id: 'r13', toIndex: 2 })).toBeNull();
    expect(plannedMove(context, menu('r99', 1))).toBeNull();
  });

  it('a drag is clamped to the rows on screen and counted from the first row of the page', () => {
    const context = secondPage();
    const drag = (toIndex: number) => plannedMove(context, { type: 'MOVE', id: 'r13', toIndex });
    expect(drag(0)).toMatchObject({ position: 11, previousPosition: 13, staysInView: true });
    expect(drag(-4)).toMatchObject({ position: 11 });
    expect(drag(99)).toMatchObject({ position: 20 });
    expect(drag(5)).toMatchObject({ position: 16 });
  });

  it('in an infinite list positions count from the first row read', () => {
    const context = { ...secondPage(), mode: 'infinite' as const };
    expect(plannedMove(context, { type: 'MOVE', id: 'r13', toIndex: 0 })).toMatchObject({
      position: 1,
      previousPosition: 3,
    });
  });

  it('keeps the positions the rows carry when the list is not sorted by position', () => {
    const context = secondPage({ name: 'asc' });
    const move = plannedMove(context, menu('r13', 16))!;
    expect(shown(movedRows(context, move)).slice(2, 6)).toEqual([
      'r14@14',
      'r15@15',
      'r16@16',
      'r13@13',
    ]);
  });

  it('keeps the rows as they come when some have no position to hand on', () => {
    const context = secondPage();
    const rows = context.rows.map((row, i) => (i === 3 ? { id: row.id } : row));
    const move = plannedMove({ ...context, rows }, menu('r13', 16))!;
    expect(shown(movedRows({ ...context, rows }, move)).slice(2, 6)).toEqual([
      'r14@undefined',
      'r15@15',
      'r16@16',
      'r13@13',
    ]);
  });
});

describe('list rules — answers, page sizes and live rows', () => {
  const base = () => initialListContext({ endpoint: 'v1/assets' });
  const answer = (rows: string[], totals: Partial<PagesAnswer> = {}): PagesAnswer => ({
    rows: rows.map((id) => ({ id })),
    pages: 1,
    totalDocs: 30,
    totalIsEstimate: false,
    totalPages: 3,
    hasNextPage: true,
    ...totals,
  });

  it('a paged list that asked past the end reads the last page instead', () => {
    const context = { ...base(), page: 5 };
    expect(afterPage(context, answer([]))).toMatchObject({ done: false, page: 3 });
    expect(afterPage({ ...context, page: 3 }, answer(['a']))).toMatchObject({
      done: true,
      page: 3,
      rows: [{ id: 'a' }],
    });
  });

  it('an empty answer keeps the totals on screen; an estimate is taken only with a count', () => {
    const context = { ...base(), totalDocs: 30, totalPages: 3, totalIsEstimate: true };
    const empty = answer([], { totalDocs: 0, totalPages: 0, totalIsEstimate: false });
    expect(afterPage(context, empty)).toMatchObject({
      totalDocs: 30,
      totalPages: 3,
      totalIsEstimate: true,
    });
    expect(afterPage(context, answer(['a'], { totalIsEstimate: false }))).toMatchObject({
      totalIsEstimate: false,
      hasNextPage: true,
    });
  });

  it('an infinite list shows every page read, counting at least one', () => {
    const context = { ...base(), mode: 'infinite' as const };
    expect(afterPage(context, answer(['a', 'b'], { pages: 2 }))).toMatchObject({
      done: true,
      page: 2,
    });
    expect(afterPage(context, answer([], { pages: 0 }))).toMatchObject({ page: 1 });
  });

  it.each([
    [0, 1],
    [25.7, 25],
    [1000, 100],
    [Number.NaN, 10],
  ])('a page size of %d becomes %d', (limit, expected) => {
    expect(nextQuery(base(), { type: 'SET_LIMIT', limit }).limit).toBe(expected);
  });

  it('sets a page and adopts a query from elsewhere, starting again at page 1 only when it changed', () => {
    const context = { ...base(), page: 2, totalPages: 3, order: { name: 'asc' as const } };
    expect(nextQuery(context, { type: 'SET_PAGE', page: 9 }).page).toBe(3);
    expect(nextQuery(context, { type: 'SET_QUERY', order: { name: 'asc' } }).page).toBe(2);
    expect(nextQuery(context, { type: 'SET_QUERY', order: { name: 'desc' } }).page).toBe(1);
    expect(
      nextQuery(context, { type: 'SET_QUERY', filter: { type: ['hair'], search: '' }, page: 3 }),
    ).toMatchObject({ page: 3, filter: { type: ['hair'] }, order: { name: 'asc' } });
    expect(nextQuery(context, { type: 'SET_FILTERS', filter: { a: '' } })).toMatchObject({
      page: 2,
      filter: {},
    });
  });

  it('counts the rows waiting above that are not on screen yet', () => {
    const context = { ...base(), rows: [{ id: 'a' }, { id: 'b' }] };
    expect(incomingCount(context)).toBe(0);
    expect(incomingCount({ ...context, incoming: answer(['x', 'y', 'a', 'b']) })).toBe(2);
    expect(incomingCount({ ...context, incoming: answer(['x', 'a', 'b']) })).toBe(1);
  });

  it('replaces changed rows in place, marks gone ones once, and adds new rows below', () => {
    const context = {
      ...base(),
      rows: [{ id: 'a' }, { id: 'b', name: 'old' }, { id: 'c' }],
      removedIds: ['c'],
    };
    const next = mergeRemote(context, answer(['a', 'b', 'd']));
    expect(next.rows).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }]);
    expect(next.removedIds).toEqual(['c']);
    expect(next).toMatchObject({ incoming: null, totalDocs: 30, hasNextPage: true });
  });
});

describe('list rules — the address, the start, and live rows', () => {
  const preselect = [
    { field: 'gender', value: 'male', hiddenOnDesktop: false },
    { field: 'locked', value: 'false', hiddenOnDesktop: true },
  ];
  /** A paged list kept in the address at `search`, its query read from it. */
  const kept = (search: ListSearch, input: Partial<ListInput> = {}) =>
    initialListContext({ endpoint: 'v1/assets', search, ...input });

  it('compares queries by page, size, order and filter, whatever their key order', () => {
    const query = { page: 1, limit: 10, order: { name: 'asc' as const }, filter: { a: 1, b: 2 } };
    expect(sameQuery(query, { ...query, filter: { b: 2, a: 1 } })).toBe(true);
    expect(sameQuery(query, { ...query, limit: 25 })).toBe(false);
    expect(sameQuery(query, { ...query, order: { name: 'desc' } })).toBe(false);
    expect(sameQuery(query, { ...query, filter: { a: 1 } })).toBe(false);
    expect(sameQuery(query, { ...query, page: 2 })).toBe(false);
  });

  it('fills hidden preselected filters as the window narrows, and on a phone when cleared', () => {
    const desktop = initialListContext({ endpoint: 'v1/assets', preselect });
    expect(nextQuery(desktop, { type: 'VIEWPORT_CHANGED', isMobile: true }).filter).toEqual({
      gender: 'male',
      locked: 'false',
    });
    const phone = initialListContext({ endpoint: 'v1/assets', preselect, isMobile: true });
    expect(nextQuery(phone, { type: 'CLEAR_FILTERS' }).filter).toEqual({
      gender: 'male',
      locked: 'false',
    });
    expect(
      nextQuery({ ...phone, filter: {} }, { type: 'VIEWPORT_CHANGED', isMobile: false }),
    ).toMatchObject({ filter: { gender: 'male' }, page: 1 });
  });

  it('keeps the page of a change that leaves the filters as they are', () => {
    const context = { ...initialListContext({ endpoint: 'v1/assets', preselect }), totalPages: 3 };
    expect(nextQuery(context, { type: 'SET_PAGE', page: 2 })).toMatchObject({ page: 2 });
    expect(nextQuery(context, { type: 'SET_FILTERS', filter: { type: ['hair'] } })).toEqual({
      page: 1,
      limit: 10,
      order: {},
      filter: { type: ['hair'], gender: 'male' },
    });
  });

  it('asks nothing of an address it does not keep, nor for a change that changes nothing', () => {
    const context = initialListContext({ endpoint: 'v1/assets' });
    expect(askedAddress(context, { type: 'SET_PAGE', page: 2 })).toBeNull();
    expect(
      nextAddress(context, nextQuery(context, { type: 'SORT', field: 'name' }), {
        type: 'SORT',
        field: 'name',
      }),
    ).toBeNull();
    expect(askedAddress(kept({ page: 1 }), { type: 'SET_PAGE', page: 1 })).toBeNull();
    expect(nextQuery(context, { type: 'ADDRESS_CHANGED', search: { page: 3 } })).toMatchObject({
      page: 1,
    });
  });

  it('writes the page size the address asked for, else the one on screen', () => {
    const sort = { type: 'SORT' as const, field: 'name' };
    /** A list showing 25 rows a page whose address reads `search`. */
    const at = (search: ListSearch) => ({
      ...kept(search),
      limit: 25,
      address: { search, replace: false },
    });
    expect(askedAddress(at({ page: 2 }), sort)?.search).toEqual({
      order: '-name',
      page: 1,
      limit: 25,
    });
    expect(askedAddress(at({ page: 2, limit: 50 }), sort)?.search.limit).toBe(50);
  });

  it('replaces the entry when it only normalises an address it was told', () => {
    const context = kept({ page: 1 });
    const event = { type: 'ADDRESS_CHANGED' as const, search: { page: 3, order: 'name' } };
    expect(nextAddress(context, nextQuery(context, event), event)).toEqual({
      search: { page: 3, order: 'name', limit: 10 },
      replace: true,
    });
  });

  it('typing replaces the entry only when nothing but the search text changed', () => {
    const context = kept({ filter: { type: ['hair'], search: 'ja' }, order: 'name', page: 1 });
    const typed = (filter: ListFilter, order?: ListOrder) => {
      const event = { type: 'SET_QUERY' as const, filter, ...(order ? { order } : {}) };
      return nextAddress(context, nextQuery(context, event), event)?.replace;
    };
    expect(typed({ type: ['hair'], search: 'jac' })).toBe(true);
    expect(typed({ type: ['top'], search: 'jac' })).toBe(false);
    expect(typed({ search: 'jac' })).toBe(false);
    expect(typed({ type: ['hair'], search: 'jac' }, { name: 'desc' })).toBe(false);
  });

  it('starts with nothing read, nothing marked and the query it was given', () => {
    const context = initialListContext({
      endpoint: 'v1/assets',
      initialFilter: { type: ['hair'], search: '' },
    });
    expect(context).toMatchObject({
      rowSchema: anyRowSchema,
      mode: 'paged',
      reorderEndpoint: null,
      page: 1,
      limit: 10,
      filter: { type: ['hair'] },
      rows: [],
      totalIsEstimate: false,
      hasNextPage: false,
      load: { fresh: false, append: false },
      address: null,
      preselect: [],
      removedIds: [],
      syncing: false,
      newRowsOnTop: false,
    });
    expect(context.filter).toEqual({ type: ['hair'] });
    expect(readAgain(true)).toEqual({ fresh: true, append: false });
    expect(kept({ page: 2 }).address).toEqual({ search: { page: 2, limit: 10 }, replace: true });
  });

  const row = (id: string) => ({ id });
  const pages = (ids: string[]): PagesAnswer => ({
    rows: ids.map(row),
    pages: 1,
    totalDocs: ids.length,
    totalIsEstimate: false,
    totalPages: 1,
    hasNextPage: false,
  });

  it('marks rows gone from a fresh read, and keeps new rows above waiting', () => {
    const context = {
      ...initialListContext({ endpoint: 'v1/assets' }),
      rows: ['a', 'b', 'c'].map(row),
    };
    expect(mergeRemote(context, pages(['a', 'b']))).toMatchObject({ removedIds: ['c'] });
    const above = mergeRemote(context, pages(['x', 'a', 'b', 'c', 'y']));
    expect(above.rows?.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(above.incoming?.rows.map((r) => r.id)).toEqual(['x', 'a', 'b', 'c', 'y']);
  });

  it('in an infinite feed past its first page, puts only the rows above on top', () => {
    const context = {
      ...initialListContext({ endpoint: 'v1/activity', mode: 'infinite', newRowsOnTop: true }),
      page: 2,
      rows: ['c', 'b', 'a'].map(row),
    };
    const next = mergeRemote(context, pages(['e', 'c', 'b', 'a', 'z']));
    expect(next.rows?.map((r) => r.id)).toEqual(['e', 'c', 'b', 'a']);
  });
});

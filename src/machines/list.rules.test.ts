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
import type { ListRow } from '../../contract/list-query';

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

import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { configureHttp } from '../api/http';
import { applyLiveMessage } from '../api/live-cache';
import { defineList } from '../api/list-url';
import { queryClient } from '../api/query';
import { jsonResponse, serveRequests } from '../api/testing';
import { initI18n, loadBackOfficeTexts } from '../i18n';
import { searchFilter } from '../ui/dom/list/asset-filters';
import { moveActions } from '../ui/dom/list/move-actions';
import { ListScreen, type ListScreenConfig } from './list.view';
import { loadPermissions } from './permissions.view';
import { renderScreen, stubWideScreen } from './testing/render-screen.view';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => {
  queryClient.clear();
  stubWideScreen();
  // An endless list loads more as its end comes into view; these tests never scroll.
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

interface Thing {
  id: string;
  name: string;
}

/** A million things, as the server pages them: 10,000 rows deep from either end, no deeper. */
const TOTAL = 1_000_000;
const MAX_DEPTH = 10_000;

/** The list API of a million things (an estimated total); records the pages asked for. */
function serveMillion() {
  const asked: string[] = [];
  configureHttp({
    baseUrl: 'http://api.test/',
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const descending = url.searchParams.get('order') === '-name';
      asked.push(`page ${page}${descending ? ' descending' : ''}`);
      const offset = (page - 1) * limit;
      if (offset >= MAX_DEPTH && TOTAL - offset > MAX_DEPTH) {
        return Promise.resolve(
          jsonResponse(400, {
            status: 400,
            code: 'PAGE_TOO_DEEP',
            message:
              'page: Pages more than 10,000 rows from both the start and the end of a list are not served; narrow the search or sort the other way',
          }),
        );
      }
      const data = Array.from({ length: limit }, (_, index) => {
        const n = descending ? TOTAL - offset - index : offset + index + 1;
        return { id: `t${n}`, name: `Thing ${n}` };
      });
      const totalPages = Math.ceil(TOTAL / limit);
      return Promise.resolve(
        jsonResponse(200, {
          data,
          pagination: {
            page,
            limit,
            totalDocs: TOTAL,
            totalPages,
            hasNextPage: page < totalPages,
            totalIsEstimate: true,
          },
        }),
      );
    },
  });
  return asked;
}

const list = defineList({ sortFields: ['name'], defaultOrder: { name: 'asc' } });

const thingsList = (): ListScreenConfig<Thing> => ({
  ...list,
  canScroll: true,
  title: 'Things',
  requires: ['read', 'Asset'],
  endpoint: 'v1/things',
  rowSchema: z.object({ id: z.string(), name: z.string() }),
  columns: [{ field: 'name', headerName: 'Name', sortable: true }],
  filters: [],
  rowLabel: (row) => row.name,
});

/** The things list with a toolbar button that creates Thing 7 (it is on the first page). */
const thingsWithCreate = (): ListScreenConfig<Thing> => ({
  ...thingsList(),
  toolbar: (controls) => (
    <button
      type="button"
      onClick={() =>
        void controls.run(
          () => Promise.resolve({ id: 't7' }),
          (thing) => ({ done: 'Thing 7 created', created: { id: thing.id } }),
        )
      }
    >
      Create
    </button>
  ),
});

/** The things list at `address`, as an admin sees it. */
function renderList(address: string, config: () => ListScreenConfig<Thing> = thingsList) {
  return renderScreen(() => <ListScreen config={config} />, {
    address,
    validateSearch: list.validateSearch,
  });
}

/** For a find on a busy machine (the rows come after a render or two). */
const SLOW = { timeout: 10_000 };

/** The message that takes the rows' place when the page asked for is too deep. */
async function tooDeep() {
  const text = await screen.findByText(/too far from both ends/, {}, SLOW);
  return text.closest<HTMLElement>('[role="status"]')!;
}

describe('a list of a million rows', { timeout: 20_000 }, () => {
  it('says in plain words that a page far in the middle is too deep, and how to get on', async () => {
    const asked = serveMillion();
    const user = userEvent.setup();
    renderList('/?page=50000');
    const region = await tooDeep();
    expect(region.textContent).toMatch(
      /^Page 50,000 is too far from both ends of this list to be shown\. Narrow the search with the filters, or sort the other way to see the rows near its end\./,
    );
    // Asking again would be refused again.
    expect(within(region).queryByRole('button', { name: 'Try again' })).toBeNull();

    await user.click(within(region).getByRole('button', { name: 'Sort the other way' }));
    expect(await screen.findByRole('rowheader', { name: 'Thing 1000000' }, SLOW)).toBeTruthy();
    expect(asked.at(-1)).toBe('page 1 descending');
    expect(screen.queryByText(/too far from both ends/)).toBeNull();
  });

  it('reaches the last page through the pager, and offers the first page from too deep a page', async () => {
    const asked = serveMillion();
    const user = userEvent.setup();
    const router = renderList('/');
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(screen.getByText('about 1 million items')).toBeTruthy();

    const pager = screen.getByRole('navigation', { name: 'Pages' });
    // The last page's number is an estimate too: it is named, and read from the end.
    const last = within(pager).getByRole('button', { name: 'Last page' });
    expect(last.textContent).toBe('Last');
    expect(within(pager).getByRole('button', { name: 'Page 3' })).toBeTruthy();
    await user.click(last);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1000000' }, SLOW)).toBeTruthy();
    expect(asked.at(-1)).toBe('page 100000');

    // A page the pager's window does not show, reached through the address.
    await router.navigate({ to: '/', search: { page: 50_000 } as never });
    const region = await tooDeep();
    expect(region.textContent).toMatch(/^Page 50,000 is too far from both ends/);
    await user.click(within(region).getByRole('button', { name: 'First page' }));
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toMatchObject({ page: 1 }), SLOW);
  });

  it('offers the next page above the rows too, saying which page of how many', async () => {
    const asked = serveMillion();
    const user = userEvent.setup();
    renderList('/');
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    const top = screen.getByRole('navigation', { name: 'Page navigation above the list' });
    expect(top.textContent).toContain('Page 1 of about 100,000');
    const grid = screen.getByRole('grid');
    expect(top.compareDocumentPosition(grid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await user.click(within(top).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('rowheader', { name: 'Thing 11' }, SLOW)).toBeTruthy();
    expect(asked.at(-1)).toBe('page 2');
    expect(top.textContent).toContain('Page 2 of about 100,000');
  });

  it('marks the row just created where it lands, and brings it into view', async () => {
    serveMillion();
    const user = userEvent.setup();
    const scrolled: Element[] = [];
    Object.assign(Element.prototype, {
      scrollIntoView: vi.fn(function (this: Element) {
        scrolled.push(this);
      }),
    });
    try {
      renderList('/', thingsWithCreate);
      expect(await screen.findByRole('rowheader', { name: 'Thing 7' }, SLOW)).toBeTruthy();
      const row = () => screen.getByRole('rowheader', { name: 'Thing 7' }).closest('[role="row"]');
      expect(row()).not.toHaveAttribute('data-created');
      await user.click(screen.getByRole('button', { name: 'Create' }));
      await waitFor(() => expect(row()).toHaveAttribute('data-created'), SLOW);
      expect(document.querySelectorAll('[data-created]')).toHaveLength(1);
      await waitFor(() => expect(scrolled).toContain(row()), SLOW);
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('is read as one endless list on the switch, from the same sort, and opens so next time', async () => {
    const asked = serveMillion();
    const user = userEvent.setup();
    renderList('/?order=-name');
    expect(await screen.findByRole('rowheader', { name: 'Thing 1000000' }, SLOW)).toBeTruthy();
    const endless = screen.getByRole('button', { name: 'Endless scroll' });
    expect(endless.getAttribute('aria-pressed')).toBe('false');
    await user.click(endless);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1000000' }, SLOW)).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'Endless scroll' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(asked.at(-1)).toBe('page 1 descending');

    cleanup();
    renderList('/');
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'Endless scroll' }).getAttribute('aria-pressed'),
    ).toBe('true');
  });
});

describe('a filter in the address that cannot be read', { timeout: 20_000 }, () => {
  it('is ignored, logged as the spec says, and the list says so in a polite live region', async () => {
    serveMillion();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderList('/?filter=%7Bnot-json');
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    const notice = await screen.findByText(/The filter in the address could not be read/, {}, SLOW);
    expect(notice.closest('[role="status"]')).toBeTruthy();
    expect(warn).toHaveBeenCalledWith('Error parsing filters', expect.anything());
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/The filter in the address could not be read/)).toBeNull();
    warn.mockRestore();
  });

  it('says nothing of a filter it reads', async () => {
    serveMillion();
    renderList(`/?filter=${encodeURIComponent('{"search":"Thing"}')}`);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(screen.queryByText(/could not be read/)).toBeNull();
  });
});

/**
 * Three hundred things (an exact total) that a `search` matches by name; records the search
 * and filter each read asked with.
 */
function serveSearchable() {
  const filters: (string | null)[] = [];
  configureHttp({
    baseUrl: 'http://api.test/',
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const search = url.searchParams.get('search') ?? '';
      filters.push(url.search.replace(/[?&](page|limit|order)=[^&]*/g, '') || null);
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const matching = Array.from({ length: 300 }, (_, index) => ({
        id: `t${index + 1}`,
        name: `Thing ${index + 1}`,
      })).filter((thing) => thing.name.includes(search));
      const totalPages = Math.max(1, Math.ceil(matching.length / limit));
      return Promise.resolve(
        jsonResponse(200, {
          data: matching.slice((page - 1) * limit, page * limit),
          pagination: {
            page,
            limit,
            totalDocs: matching.length,
            totalPages,
            hasNextPage: page < totalPages,
          },
        }),
      );
    },
  });
  return filters;
}

describe('a filter of a field the list does not have', { timeout: 20_000 }, () => {
  it('leaves the address and the read, and the whole list is shown', async () => {
    const filters = serveSearchable();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const router = renderList(`/?filter=${encodeURIComponent('{"colour":"red"}')}`);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(screen.getByText('300 items')).toBeTruthy();
    expect(filters).toEqual([null]);
    await waitFor(() => expect(router.state.location.searchStr).not.toContain('filter'));
  });
});

describe('a search that matches nothing', { timeout: 20_000 }, () => {
  it('shows the empty state with no count of the previous answer and no pager; Clear Filters restores', async () => {
    serveSearchable();
    const user = userEvent.setup();
    const router = renderList('/', () => ({ ...thingsList(), filters: [searchFilter(i18next.t)] }));
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(screen.getByText('300 items')).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'zzzz-no-such-thing');
    const empty = await screen.findByText('No listings matched your search query', {}, SLOW);
    expect(await screen.findByText('0 items', {}, SLOW)).toBeTruthy();
    expect(screen.queryByText('300 items')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(screen.queryByRole('rowheader', { name: /^Thing/ })).toBeNull();

    const emptyState = empty.closest<HTMLElement>('.empty-state')!;
    await user.click(within(emptyState).getByRole('button', { name: 'Clear Filters' }));
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(screen.getByText('300 items')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Pages' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.searchStr).not.toContain('filter'));
  });
});

describe('the page size', { timeout: 30_000 }, () => {
  /**
   * The rows the grid shows (loaded ones: skeleton rows stand in while a page loads). Read
   * without role queries, which take seconds over a page of rows in jsdom.
   */
  const rowCount = () =>
    document.querySelectorAll('[role="row"]:not(.skeleton-row) [role="rowheader"]').length;
  const shown = (name: string) =>
    screen.findByText(name, { selector: '[role="rowheader"], [role="rowheader"] *' }, SLOW);

  it('is chosen below the rows and kept in the address; the list opens with it again, another list keeps its own', async () => {
    serveSearchable();
    const user = userEvent.setup();
    const router = renderList('/');
    await shown('Thing 1');
    expect(rowCount()).toBe(10);
    await user.click(screen.getByRole('button', { name: /Rows per page/ }));
    await user.click(await screen.findByRole('option', { name: '25' }));
    await shown('Thing 25');
    expect(rowCount()).toBe(25);
    await waitFor(() => expect(router.state.location.search).toMatchObject({ limit: 25, page: 1 }));

    // Opened again without a size: 25, and the address says so.
    cleanup();
    const again = renderList('/');
    await shown('Thing 25');
    expect(rowCount()).toBe(25);
    await waitFor(() => expect(again.state.location.search).toMatchObject({ limit: 25 }));

    // Another list remembers nothing of it.
    cleanup();
    renderList('/', () => ({ ...thingsList(), endpoint: 'v1/other-things' }));
    await shown('Thing 1');
    expect(rowCount()).toBe(10);
  });

  it('asked for by the address but not offered by the lists is the remembered one, without an error', async () => {
    serveSearchable();
    const user = userEvent.setup();
    renderList('/');
    await shown('Thing 1');
    await user.click(screen.getByRole('button', { name: /Rows per page/ }));
    await user.click(await screen.findByRole('option', { name: '25' }));
    await shown('Thing 25');

    for (const limit of ['9999', 'abc']) {
      cleanup();
      const router = renderList(`/?limit=${limit}`);
      await shown('Thing 25');
      expect(rowCount()).toBe(25);
      await waitFor(() => expect(router.state.location.search).toMatchObject({ limit: 25 }));
      expect(screen.queryByRole('alert')).toBeNull();
    }
  });
});

describe('a move that the server refuses', { timeout: 30_000 }, () => {
  it('puts the previous order back and says so', async () => {
    // Three pages of things; each position change fails as a server error does.
    const asked: string[] = [];
    configureHttp({
      baseUrl: 'http://api.test/',
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = input instanceof Request ? input : new Request(input, init);
        const url = new URL(request.url);
        await Promise.resolve();
        asked.push(`${request.method} ${url.pathname}`);
        if (url.pathname.endsWith('/position')) {
          return jsonResponse(500, {
            status: 500,
            code: 'INTERNAL_ERROR',
            message: 'Unexpected error',
          });
        }
        const page = Number(url.searchParams.get('page') ?? 1);
        const data = Array.from({ length: 10 }, (_, index) => ({
          id: `t${(page - 1) * 10 + index + 1}`,
          name: `Thing ${(page - 1) * 10 + index + 1}`,
        }));
        return jsonResponse(200, {
          data,
          pagination: { page, limit: 10, totalDocs: 30, totalPages: 3, hasNextPage: page < 3 },
        });
      },
    });
    const user = userEvent.setup();
    renderScreen(
      () => (
        <ListScreen
          config={() => ({
            ...thingsList(),
            reorder: { endpoint: 'v1/things/{id}/position' },
            rowActions: () => moveActions<Thing>(i18next.t),
          })}
        />
      ),
      { address: '/', validateSearch: list.validateSearch, toasts: true },
    );
    await screen.findByText(
      'Thing 4',
      { selector: '[role="rowheader"], [role="rowheader"] *' },
      SLOW,
    );
    const order = () =>
      Array.from(
        document.querySelectorAll('[role="row"]:not(.skeleton-row) [role="rowheader"]'),
        (header) => header.textContent?.trim(),
      ).slice(0, 4);
    expect(order()).toEqual(['Thing 1', 'Thing 2', 'Thing 3', 'Thing 4']);
    // (By its label: a role query over a page of rows takes seconds in jsdom.)
    await user.click(document.querySelector('button[aria-label="Actions: Thing 4"]')!);
    await user.click(await screen.findByRole('menuitem', { name: 'Move' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Move to top' }));
    expect(await screen.findByText(/The new order could not be saved/, {}, SLOW)).toBeTruthy();
    expect(asked).toContain('PATCH /v1/things/t4/position');
    await waitFor(() => expect(order()).toEqual(['Thing 1', 'Thing 2', 'Thing 3', 'Thing 4']));
  });
});

/**
 * `count` things that a `search` matches by name (an exact total), each read answered only once
 * `release` is called: the test sees the screen while a page is on its way.
 */
function serveHeld(count: number) {
  let total = count;
  let open = false;
  let waiting: (() => void)[] = [];
  serveRequests(async (url) => {
    if (!open) await new Promise<void>((resolve) => waiting.push(resolve));
    const search = url.searchParams.get('search') ?? '';
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const matching = Array.from({ length: total }, (_, index) => ({
      id: `t${index + 1}`,
      name: `Thing ${index + 1}`,
    })).filter((thing) => thing.name.includes(search));
    const totalPages = Math.max(1, Math.ceil(matching.length / limit));
    return jsonResponse(200, {
      data: matching.slice((page - 1) * limit, page * limit),
      pagination: {
        page,
        limit,
        totalDocs: matching.length,
        totalPages,
        hasNextPage: page < totalPages,
      },
    });
  });
  return {
    /** Answers the reads waiting; with `keepOpen`, the later ones at once. */
    release(keepOpen = false) {
      open = keepOpen;
      for (const answer of waiting) answer();
      waiting = [];
    },
    hold() {
      open = false;
    },
    /** Others add or delete things: the list now holds `count`. */
    setCount(next: number) {
      total = next;
    },
  };
}

describe('the room above the rows', { timeout: 20_000 }, () => {
  /** What is above the table: the top pager, its empty place, or nothing. */
  const above = () => {
    const top = document.querySelector('.list-pager-top');
    if (!top) return 'nothing';
    return top.querySelector('.pager-place') ? 'place' : 'pager';
  };
  const skeleton = () => document.querySelector('.skeleton-row') !== null;

  it('is kept while the first page loads, and goes with its answer on a list of one page', async () => {
    const server = serveHeld(4);
    renderList('/');
    await waitFor(() => expect(skeleton()).toBe(true), SLOW);
    expect(above()).toBe('place');
    expect(document.querySelector('.pager-place')).toHaveAttribute('aria-hidden', 'true');
    // The answer's rows and the band's going in the same commit: no state between them.
    const seen = new Set<string>();
    const observer = new MutationObserver(() => seen.add(`${skeleton()} ${above()}`));
    observer.observe(document.body, { childList: true, subtree: true });
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 4' }, SLOW)).toBeTruthy();
    observer.disconnect();
    expect(above()).toBe('nothing');
    expect([...seen].filter((state) => state !== 'true place')).toEqual(['false nothing']);
  });

  it('holds the pager of a list of many pages, which goes with the rows when a search leaves one page', async () => {
    const server = serveHeld(300);
    const user = userEvent.setup();
    renderList('/', () => ({ ...thingsList(), filters: [searchFilter(i18next.t)] }));
    await waitFor(() => expect(skeleton()).toBe(true), SLOW);
    expect(above()).toBe('place');
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(above()).toBe('pager');

    // While the search's answer is on its way the pager stays, above skeleton rows.
    server.hold();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'Thing 30');
    await waitFor(() => expect(skeleton()).toBe(true), SLOW);
    expect(above()).toBe('pager');
    const seen = new Set<string>();
    const observer = new MutationObserver(() => seen.add(`${skeleton()} ${above()}`));
    observer.observe(document.body, { childList: true, subtree: true });
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 300' }, SLOW)).toBeTruthy();
    observer.disconnect();
    expect(screen.getByText('2 items')).toBeTruthy();
    expect(above()).toBe('nothing');
    expect([...seen].filter((state) => state !== 'true pager')).toEqual(['false nothing']);

    // A search that matches nothing: the empty state, with nothing above it.
    await user.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'zzzz');
    expect(await screen.findByText('No listings matched your search query', {}, SLOW)).toBeTruthy();
    expect(above()).toBe('nothing');
  });

  it('is not kept while a list that fitted one page when last opened loads again, until it grows', async () => {
    let server = serveHeld(4);
    renderList('/');
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 4' }, SLOW)).toBeTruthy();

    // Opened again (nothing cached): no room while it loads, as its answer brings no pager.
    cleanup();
    queryClient.clear();
    server = serveHeld(4);
    renderList('/');
    await waitFor(() => expect(skeleton()).toBe(true), SLOW);
    expect(above()).toBe('nothing');
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 4' }, SLOW)).toBeTruthy();
    expect(above()).toBe('nothing');

    // It has grown meanwhile: its pager comes with its rows, and the next load keeps its place.
    cleanup();
    queryClient.clear();
    server = serveHeld(300);
    renderList('/');
    await waitFor(() => expect(skeleton()).toBe(true), SLOW);
    expect(above()).toBe('nothing');
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(above()).toBe('pager');
    cleanup();
    queryClient.clear();
    server = serveHeld(300);
    renderList('/');
    await waitFor(() => expect(skeleton()).toBe(true), SLOW);
    expect(above()).toBe('place');
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
  });

  it('is kept while a list loads whose last answer was filtered: that says nothing of the whole list', async () => {
    let server = serveHeld(300);
    renderList(`/?filter=${encodeURIComponent('{"search":"Thing 30"}')}`, () => ({
      ...thingsList(),
      filters: [searchFilter(i18next.t)],
    }));
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 300' }, SLOW)).toBeTruthy();
    expect(above()).toBe('nothing');

    cleanup();
    queryClient.clear();
    server = serveHeld(300);
    renderList('/');
    await waitFor(() => expect(skeleton()).toBe(true), SLOW);
    expect(above()).toBe('place');
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(above()).toBe('pager');
  });

  it("is neither added nor taken away by others' changes, which do not move the rows", async () => {
    const server = serveHeld(10);
    renderList('/');
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 10' }, SLOW)).toBeTruthy();
    expect(above()).toBe('nothing');

    // Someone adds an eleventh: the pager below the rows offers page 2, none comes above.
    server.setCount(11);
    applyLiveMessage({ type: 'reset' });
    await screen.findByRole('navigation', { name: 'Pages' }, SLOW);
    expect(screen.getByText('11 items')).toBeTruthy();
    expect(above()).toBe('nothing');

    // Opened again with two pages, and one is deleted: the pager's room stays, empty.
    cleanup();
    queryClient.clear();
    renderList('/');
    expect(await screen.findByRole('rowheader', { name: 'Thing 10' }, SLOW)).toBeTruthy();
    expect(above()).toBe('pager');
    server.setCount(10);
    applyLiveMessage({ type: 'reset' });
    await waitFor(
      () => expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull(),
      SLOW,
    );
    expect(screen.getByText('10 items')).toBeTruthy();
    expect(above()).toBe('place');
  });

  it('has no pager nor place in an endless list', async () => {
    const server = serveHeld(300);
    localStorage.clear();
    renderList('/', () => ({ ...thingsList(), mode: 'infinite', urlState: false }));
    await waitFor(() => expect(skeleton()).toBe(true), SLOW);
    expect(above()).toBe('nothing');
    server.release(true);
    expect(await screen.findByRole('rowheader', { name: 'Thing 1' }, SLOW)).toBeTruthy();
    expect(above()).toBe('nothing');
  });
});

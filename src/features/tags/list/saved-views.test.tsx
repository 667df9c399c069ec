/** The list toolbar's Views menu, on the tags list: save, apply, copy a link, open a link. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SavedView } from '../../../../contract/saved-views';
import { defineList } from '../../../api/list-url';
import { jsonResponse, serveRequests } from '../../../api/testing';
import { TagsList } from './tags-list';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';

const list = defineList({
  sortFields: ['name', 'createdAt', 'assetCount'],
  defaultOrder: { name: 'asc' },
});

setUpScreenTests();

const tag = (id: string, name: string) => ({
  id,
  name,
  assetCount: 0,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  version: 1,
});

const view = (overrides: Partial<SavedView> = {}): SavedView => ({
  id: '0b6f4d1e-8c2a-4f6b-9d3e-2a1c5b7e9f00',
  list: 'tags',
  name: 'Mint tags',
  search: { filter: { search: 'mint' }, order: '-createdAt' },
  columns: null,
  owner: { id: 'u1', email: 'me@example.com' },
  mine: true,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  version: 1,
  ...overrides,
});

/** A fake API: tags, the user's views of the tags list, one view by id; records what it was asked. */
function serve(given: { mine?: SavedView[]; byId?: Partial<Record<string, SavedView>> } = {}) {
  let mine = given.mine ?? [];
  const byId = given.byId ?? {};
  const asked: { method: string; path: string; body?: unknown; ifMatch: string | null }[] = [];
  serveRequests(async (url, request) => {
    const text = await request.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    asked.push({
      method: request.method,
      path: `${url.pathname}${url.search}`,
      body,
      ifMatch: request.headers.get('if-match'),
    });
    if (url.pathname === '/v1/tags') {
      const rows = [tag('t1', 'Mint'), tag('t2', 'Olive')];
      return jsonResponse(200, {
        data: rows,
        pagination: {
          page: 1,
          limit: 10,
          totalDocs: rows.length,
          totalPages: 1,
          hasNextPage: false,
        },
      });
    }
    if (url.pathname === '/v1/saved-views' && request.method === 'GET') {
      return jsonResponse(200, { data: mine });
    }
    if (url.pathname === '/v1/saved-views' && request.method === 'POST') {
      const saved = view({ ...(body as Partial<SavedView>), id: 'new-view-id' });
      mine = [...mine, saved];
      return jsonResponse(200, { data: saved });
    }
    const id = /^\/v1\/saved-views\/(.+)$/.exec(url.pathname)?.[1];
    const found = id === undefined ? undefined : (byId[id] ?? mine.find((v) => v.id === id));
    if (found && request.method === 'DELETE') {
      mine = mine.filter((v) => v.id !== id);
      return jsonResponse(200, { data: found });
    }
    if (found && request.method === 'PATCH') {
      const changed = { ...found, ...(body as Partial<SavedView>), version: found.version + 1 };
      mine = mine.map((v) => (v.id === id ? changed : v));
      return jsonResponse(200, { data: changed });
    }
    if (found) return jsonResponse(200, { data: found });
    return jsonResponse(404, { status: 404, code: 'NOT_FOUND', message: 'No saved view' });
  });
  return asked;
}

const show = (address: string) =>
  renderScreen(() => <TagsList list={list} />, {
    address,
    validateSearch: list.validateSearch,
    toasts: true,
  });

const openMenu = async () => {
  await userEvent.click(await screen.findByRole('button', { name: /^(Views|View: .*)$/ }));
  return screen.findByRole('menu', undefined, { timeout: 10_000 });
};

describe('the Views menu', { timeout: 60_000 }, () => {
  it('saves the list as it is (filter, sort and columns) under a name', async () => {
    const asked = serve();
    // The columns as the user arranged them (the Columns menu keeps them here).
    const columns = { order: ['assetCount', 'name'], hidden: [], widths: { name: 320 } };
    localStorage.setItem('avatar-studio:columns::v1/tags', JSON.stringify(columns));
    show('/tags?filter=%7B%22search%22%3A%22olive%22%7D&order=-name');
    await screen.findByRole('rowheader', { name: /Olive/ }, { timeout: 20_000 });
    await openMenu();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Save view…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this view' });
    await userEvent.type(screen.getByRole('textbox', { name: /Name/ }), 'Olive tags');
    fireEvent.click(screen.getByRole('button', { name: 'Save view' }));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    const saved = asked.find((a) => a.method === 'POST' && a.path === '/v1/saved-views');
    expect(saved?.body).toEqual({
      list: 'tags',
      name: 'Olive tags',
      search: { filter: { search: 'olive' }, order: '-name', limit: 10 },
      columns,
    });
    expect(await screen.findByRole('button', { name: 'View: Olive tags' })).toBeTruthy();
    expect(await screen.findByText('View “Olive tags” saved')).toBeTruthy();
  });

  it('applies a saved view: its filter and sort go to the address, its columns to the table', async () => {
    const columns = { order: ['name', 'assetCount'], hidden: ['assetCount'], widths: {} };
    const asked = serve({ mine: [view({ columns })] });
    const router = show('/tags');
    await screen.findByRole('rowheader', { name: /Olive/ }, { timeout: 20_000 });
    expect(screen.getByRole('columnheader', { name: /Assets/ })).toBeTruthy();
    await openMenu();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Mint tags' }));
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({
        filter: { search: 'mint' },
        order: '-createdAt',
      }),
    );
    await waitFor(() =>
      expect(
        asked.some((a) => a.path.startsWith('/v1/tags?') && a.path.includes('search=mint')),
      ).toBe(true),
    );
    expect(JSON.parse(localStorage.getItem('avatar-studio:columns::v1/tags') ?? 'null')).toEqual(
      columns,
    );
    // The view hides the asset count: the table shows its name column alone.
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Assets/ })).toBeNull());
    expect(await screen.findByRole('button', { name: 'View: Mint tags' })).toBeTruthy();
  });

  it('copies the link of the view on screen', async () => {
    serve({ mine: [view()] });
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    show('/tags');
    await screen.findByRole('rowheader', { name: /Olive/ }, { timeout: 20_000 });
    await openMenu();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Mint tags' }));
    await screen.findByRole('button', { name: 'View: Mint tags' }, { timeout: 10_000 });
    await openMenu();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Copy link' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        `${window.location.origin}/tags?view=0b6f4d1e-8c2a-4f6b-9d3e-2a1c5b7e9f00`,
      ),
    );
    expect(await screen.findByText('Link to this view copied')).toBeTruthy();
  });

  it('renames the view on screen on its version, and deletes it with Undo', async () => {
    const asked = serve({ mine: [view()] });
    show('/tags');
    await screen.findByRole('rowheader', { name: /Olive/ }, { timeout: 20_000 });
    await openMenu();
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Mint tags' }));
    await screen.findByRole('button', { name: 'View: Mint tags' }, { timeout: 10_000 });

    await openMenu();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Rename…' }));
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Fresh mint');
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }));
    await screen.findByRole('button', { name: 'View: Fresh mint' }, { timeout: 10_000 });
    expect(asked.find((a) => a.method === 'PATCH')).toMatchObject({
      body: { name: 'Fresh mint' },
      ifMatch: '"1"',
    });

    await openMenu();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete view' }));
    expect(await screen.findByText('View “Fresh mint” deleted')).toBeTruthy();
    await screen.findByRole('button', { name: 'Views' });
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('View “Fresh mint” saved again')).toBeTruthy();
    expect(asked.filter((a) => a.method === 'POST').at(-1)?.body).toEqual({
      list: 'tags',
      name: 'Fresh mint',
      search: { filter: { search: 'mint' }, order: '-createdAt' },
      columns: null,
    });
  });

  it('opens a linked view of someone else and says whose it is', async () => {
    const theirs = view({
      id: 'c3b1e2a4-0000-4000-8000-000000000001',
      name: 'Recent tags',
      owner: { id: 'u2', email: 'alex@example.com' },
      mine: false,
    });
    const asked = serve({ byId: { [theirs.id]: theirs } });
    const router = show(`/tags?view=${theirs.id}`);
    expect(
      await screen.findByText('alex@example.com’s view: Recent tags', undefined, {
        timeout: 20_000,
      }),
    ).toBeTruthy();
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({ filter: { search: 'mint' } }),
    );
    await waitFor(() =>
      expect(
        asked.some((a) => a.path.startsWith('/v1/tags?') && a.path.includes('search=mint')),
      ).toBe(true),
    );
    // Someone else's view may be copied, not renamed or deleted.
    await openMenu();
    expect(screen.getByRole('menuitem', { name: 'Copy link' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Rename…' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Delete view' })).toBeNull();
  });

  it('says plainly when a linked view cannot be opened, and shows the list unfiltered', async () => {
    const asked = serve();
    const router = show('/tags?view=gone-or-forbidden');
    expect(
      await screen.findByText(/The linked view could not be opened/, undefined, {
        timeout: 20_000,
      }),
    ).toBeTruthy();
    await screen.findByRole('rowheader', { name: /Olive/ }, { timeout: 20_000 });
    expect(router.state.location.search).not.toHaveProperty('filter');
    expect(
      asked.filter((a) => a.path.startsWith('/v1/tags')).every((a) => !a.path.includes('search=')),
    ).toBe(true);
  });
});

/**
 * Ctrl+K finds records: the palette searches the assets, users, tags and applications the role
 * may read, through their lists' `search` filter, once per pause in the typing, cancels a search
 * whose text has changed, shows what it found under a heading per kind, and says when it is
 * searching or a search failed.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../api/query';
import { jsonResponse, serveApi } from '../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../i18n';
import { loadPermissions } from '../../machines/permissions.view';
import { renderScreen } from '../../machines/testing/render-screen.view';
import { AppPalette } from './app-palette';

beforeAll(async () => {
  initI18n();
  // The signed-in area has them before the palette opens (role names).
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());

const page = (rows: object[]) => ({
  data: rows,
  pagination: { totalDocs: rows.length, limit: 5, page: 1, totalPages: 1, hasNextPage: false },
});

/** What each list answers for `zyx`, by `METHOD path` as the API sees it. */
const ANSWERS = {
  'GET v1/assets?page=1&limit=5&search=zyx': page([{ id: 'a1', name: 'Zyx hat' }]),
  'GET private/v1/users?page=1&limit=5&search=zyx': page([{ id: 'u9', email: 'zyx@example.com' }]),
  'GET v1/tags?page=1&limit=5&search=zyx': page([{ id: 't1', name: 'zyxish' }]),
  'GET v1/applications?page=1&limit=5&search=zyx': page([{ id: 'p1', name: 'Zyx app' }]),
};

const serve = (answers: Record<string, object>) =>
  serveApi(
    Object.fromEntries(
      Object.entries(answers).map(([route, body]) => [route, [200, body] as [number, unknown]]),
    ),
  );

function Where() {
  const path = useRouterState({ select: (s) => s.location.pathname });
  return <p data-testid="where">{path}</p>;
}

/** The palette, open, as the signed-in `u1` with `rules`. */
function renderPalette(rules: unknown[] = [['manage', 'all']]) {
  const onClose = vi.fn();
  renderScreen(
    () => (
      <>
        <Where />
        <AppPalette screens={[]} onClose={onClose} />
        <Outlet />
      </>
    ),
    {
      rules,
      paths: { '/': () => null, '/assets/$assetId': () => null, '/users/$userId': () => null },
    },
  );
  return onClose;
}

const lists = (sent: string[]) => sent.filter((call) => /\?page=/.test(call));

describe('the command palette’s records', { timeout: 20_000 }, () => {
  it('searches each kind once per pause, groups what it finds, and Enter opens the first', async () => {
    const server = serve(ANSWERS);
    const user = userEvent.setup();
    const onClose = renderPalette();
    const field = await screen.findByRole('searchbox', {
      name: 'Find a screen, a record or an action',
    });
    await user.type(field, 'zyx');
    const dialog = screen.getByRole('dialog', { name: 'Commands' });
    await within(dialog).findByRole('menuitem', { name: /^Zyx hat/ });
    // One request per kind for the three letters, none for `z` or `zy`.
    expect(lists(server.sent()).sort()).toEqual(
      Object.keys(ANSWERS)
        .map((route) => `${route} `)
        .sort(),
    );
    const group = (name: string) => within(dialog).getByRole('group', { name });
    expect(within(group('Assets')).getByRole('menuitem')).toHaveAccessibleName('Zyx hat a1');
    expect(within(group('Users')).getByRole('menuitem')).toHaveAccessibleName('zyx@example.com');
    expect(within(group('Tags')).getByRole('menuitem')).toHaveAccessibleName('zyxish t1');
    expect(within(group('Applications')).getByRole('menuitem')).toHaveAccessibleName('Zyx app p1');
    expect(within(dialog).getByRole('status').textContent).toBe('');

    await user.keyboard('{Enter}');
    expect(onClose).toHaveBeenCalled();
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/assets/a1'));
  });

  it('asks only the lists the role may read', async () => {
    const server = serve(ANSWERS);
    const user = userEvent.setup();
    renderPalette([['read', 'Asset']]);
    await user.type(await screen.findByRole('searchbox'), 'zyx');
    await screen.findByRole('menuitem', { name: /^Zyx hat/ });
    expect(lists(server.sent())).toEqual(['GET v1/assets?page=1&limit=5&search=zyx ']);
    expect(screen.queryByRole('group', { name: 'Users' })).toBeNull();
  });

  it('says it is searching, cancels a search whose text changed, and names a kind that failed', async () => {
    const requests: Request[] = [];
    let answer: (() => void) | undefined;
    const waiting = new Promise<void>((resolve) => (answer = resolve));
    const server = serveApi({
      // `zy` never answers while it matters: it is cancelled once `zyx` is typed.
      ...Object.fromEntries(
        Object.keys(ANSWERS).map((route) => [
          route.replace('zyx', 'zy'),
          (_call, request) => {
            requests.push(request);
            return new Promise<Response>(() => undefined);
          },
        ]),
      ),
      'GET v1/assets?page=1&limit=5&search=zyx': async () => {
        await waiting;
        return jsonResponse(200, ANSWERS['GET v1/assets?page=1&limit=5&search=zyx']);
      },
      'GET private/v1/users?page=1&limit=5&search=zyx': [500, { message: 'down' }],
      'GET v1/tags?page=1&limit=5&search=zyx': [200, page([])],
      'GET v1/applications?page=1&limit=5&search=zyx': [200, page([])],
    });
    const user = userEvent.setup();
    renderPalette();
    const field = await screen.findByRole('searchbox');
    await user.type(field, 'zy');
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Searching records…');
    await waitFor(() => expect(requests).toHaveLength(4));

    await user.type(field, 'x');
    await waitFor(() => expect(requests.every((request) => request.signal.aborted)).toBe(true));
    await waitFor(() =>
      expect(status.textContent).toBe('Could not search users. Try again in a moment.'),
    );
    answer?.();
    await screen.findByRole('menuitem', { name: /^Zyx hat/ });
    expect(status.textContent).toBe('Could not search users. Try again in a moment.');
    expect(lists(server.sent()).filter((call) => call.includes('search=zyx '))).toHaveLength(4);
  });

  it('tells records of the same name apart: an asset by its type and id, a user by role, a tag or an application by id, seen and heard', async () => {
    serve({
      'GET v1/assets?page=1&limit=5&search=zyx': page([
        { id: 'a1', name: 'Zyx hat', type: 'top' },
        { id: 'a2', name: 'Zyx hat', type: 'headwear' },
      ]),
      'GET private/v1/users?page=1&limit=5&search=zyx': page([
        { id: 'u9', email: 'zyx@example.com', role: 'developer' },
        { id: 'u8', email: null, role: 'anonymous' },
      ]),
      'GET v1/tags?page=1&limit=5&search=zyx': page([{ id: 't1', name: 'zyxish' }]),
      'GET v1/applications?page=1&limit=5&search=zyx': page([
        { id: 'p1', name: 'Zyx app' },
        { id: 'p2', name: 'Zyx app' },
      ]),
    });
    const user = userEvent.setup();
    renderPalette();
    await user.type(await screen.findByRole('searchbox'), 'zyx');
    const dialog = screen.getByRole('dialog', { name: 'Commands' });
    const group = (name: string) => within(dialog).getByRole('group', { name });
    await within(dialog).findAllByRole('menuitem', { name: /^Zyx hat/ });
    // Shown beside the name and heard with it.
    const item = (kind: string, name: string) =>
      within(group(kind)).getByRole('menuitem', { name });
    expect(item('Assets', 'Zyx hat Top · a1')).toBeInTheDocument();
    expect(item('Assets', 'Zyx hat Headwear · a2')).toBeInTheDocument();
    expect(item('Users', 'zyx@example.com Developer')).toBeInTheDocument();
    expect(item('Users', '(guest, no e-mail) Guest · u8')).toBeInTheDocument();
    expect(item('Tags', 'zyxish t1')).toBeInTheDocument();
    expect(item('Applications', 'Zyx app p1')).toBeInTheDocument();
    expect(item('Applications', 'Zyx app p2')).toBeInTheDocument();
    expect(within(group('Assets')).getAllByRole('menuitem')[1]).toHaveTextContent(
      'Zyx hat Headwear · a2',
    );
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../api/query';
import { jsonResponse, serveApi } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { loadPermissions } from '../../../machines/permissions.view';
import { UserPage } from './user-page';
import { renderScreen } from '../../../machines/testing/render-screen.view';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());

const ADMIN_RULES = [['manage', 'all']];
const DEVELOPER_RULES = [
  ['read', 'User'],
  ['read', 'Asset'],
];

const user = (secondFactor?: boolean) => ({
  id: 'u2',
  email: 'ada@example.com',
  role: 'developer',
  verifiedAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  status: 'active',
  disabledAt: null,
  lastSignInAt: null,
  ...(secondFactor === undefined ? {} : { secondFactor }),
});

/** The API of one user, `u2`, whose two-step sign-in an admin resets. */
function serve(secondFactor: boolean | undefined) {
  let current = user(secondFactor);
  const server = serveApi({
    'GET private/v1/users/u2': () => jsonResponse(200, { data: current }),
    'GET private/v1/users/u2/sessions': [200, { data: [] }],
    'GET v1/activity': [200, { data: [], pagination: { totalDocs: 0 } }],
    'DELETE private/v1/users/u2/second-factor': () => {
      current = user(false);
      return jsonResponse(200, { data: { removed: true } });
    },
  });
  return server;
}

/** The user page of `u2`, as the signed-in `u1` with `rules` sees it. */
function renderPage(rules: unknown[]) {
  renderScreen(
    () => (
      <Suspense fallback="Loading">
        <UserPage userId="u2" />
      </Suspense>
    ),
    { rules, toasts: true },
  );
}

const fact = async (label: string) => {
  const term = await screen.findByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
};

describe('the user page’s two-step sign-in', { timeout: 20_000 }, () => {
  it('says it is on and lets an admin reset it after a confirmation', async () => {
    const server = serve(true);
    const actor = userEvent.setup();
    renderPage(ADMIN_RULES);
    expect(await fact('Two-step sign-in')).toBe('On');

    const reset = screen.getByRole('button', { name: 'Reset two-step sign-in' });
    await actor.click(reset);
    let dialog = screen.getByRole('alertdialog', { name: /^Reset two-step sign-in of/ });
    expect(within(dialog).getByRole('heading').textContent).toBe(
      'Reset two-step sign-in of ada@example.com?',
    );
    expect(dialog.textContent).toMatch(/every session of theirs ends/);
    await actor.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.sent().filter((line) => line.startsWith('DELETE'))).toEqual([]);

    await actor.click(reset);
    dialog = screen.getByRole('alertdialog', { name: /^Reset two-step sign-in of/ });
    await actor.click(within(dialog).getByRole('button', { name: 'Reset two-step sign-in' }));
    expect(
      await screen.findByText('Two-step sign-in of ada@example.com reset: their sessions ended'),
    ).toBeTruthy();
    expect(server.sent().filter((line) => line.startsWith('DELETE'))).toEqual([
      'DELETE private/v1/users/u2/second-factor ',
    ]);
    // The page reads the user again: off, and nothing left to reset.
    await waitFor(async () => expect(await fact('Two-step sign-in')).toBe('Off'));
    expect(screen.queryByRole('button', { name: 'Reset two-step sign-in' })).toBeNull();
  });

  it('offers no reset to an admin for a user without it', async () => {
    serve(false);
    renderPage(ADMIN_RULES);
    expect(await fact('Two-step sign-in')).toBe('Off');
    expect(screen.getByRole('button', { name: 'Disable' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset two-step sign-in' })).toBeNull();
  });

  it('shows neither to those who only read users (the API does not tell them)', async () => {
    serve(undefined);
    renderPage(DEVELOPER_RULES);
    expect(await fact('Role')).toBe('Developer');
    expect(screen.queryByText('Two-step sign-in')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset two-step sign-in' })).toBeNull();
  });
});

describe('the user page’s sessions', { timeout: 20_000 }, () => {
  const CHROME_LINUX =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
  const SAFARI_IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
  const session = (id: string, userAgent: string | null) => ({
    id,
    startedAt: '2026-01-01T00:00:00.000Z',
    lastUsedAt: '2026-01-01T00:00:00.000Z',
    clientAddress: '203.0.113.9',
    userAgent,
    current: false,
  });

  it('names each browser as people do, the raw user agent one click away', async () => {
    serveApi({
      'GET private/v1/users/u2': [200, { data: user() }],
      'GET private/v1/users/u2/sessions': [
        200,
        {
          data: [
            session('s1', CHROME_LINUX),
            session('s2', SAFARI_IPHONE),
            session('s3', 'curl/8.4.0'),
            session('s4', null),
          ],
        },
      ],
      'GET v1/activity': [200, { data: [], pagination: { totalDocs: 0 } }],
    });
    renderPage(ADMIN_RULES);
    const chrome = await screen.findByText('Chrome on Linux');
    expect(chrome.closest('details')?.textContent).toContain(CHROME_LINUX);
    expect(screen.getByText('Safari on iPhone')).toBeTruthy();
    // An agent no parser knows is shown as it is.
    expect(screen.getByText('curl/8.4.0')).toBeTruthy();
    expect(screen.queryByText(CHROME_LINUX, { selector: 'dd' })).toBeNull();
  });
});

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { configureSession } from '../../../api/session-bridge';
import { jsonResponse, serveApi, signedInSession } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import type { ListControls } from '../../../machines/list.view';
import { UserBulkActions } from './bulk-actions';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});

const row = (id: string, changes: object) => ({
  id,
  email: `${id}@example.com`,
  role: 'user',
  verifiedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'active',
  disabledAt: null,
  lastSignInAt: null,
  ...changes,
});

/** The list's controls, running each change at once and keeping what it said. */
function listControls() {
  const said: string[] = [];
  const list: ListControls = {
    refresh: () => undefined,
    announce: (outcome) => void said.push(outcome.done),
    run: async (work, outcome) => {
      const answer = await work();
      const told = typeof outcome === 'function' ? outcome(answer) : outcome;
      if (told) said.push(told.done);
      return true;
    },
  };
  return { list, said };
}

function serve() {
  const server = serveApi({
    'POST private/v1/users/bulk-disable': ({ body }) => {
      const { ids } = body as { ids: string[] };
      const users = ids.map((id) => row(id, { status: 'disabled' }));
      return jsonResponse(200, { data: { changed: ids, users } });
    },
    'POST private/v1/users/bulk-role': ({ body }) => {
      const { ids, role } = body as { ids: string[]; role: string };
      return jsonResponse(200, {
        data: { changed: ids, users: ids.map((id) => row(id, { role })) },
      });
    },
  });
  configureSession(signedInSession());
  return server.calls;
}

// Several dialogs and clicks each: more than the default 5 s on a busy 2-core machine.
describe('UserBulkActions', { timeout: 20_000 }, () => {
  it('disables the selected users only once the confirmation is accepted', async () => {
    const calls = serve();
    const { list, said } = listControls();
    render(<UserBulkActions ids={['u1', 'u2']} list={list} />);
    await userEvent.click(screen.getByRole('button', { name: 'Disable' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByRole('heading')).toHaveTextContent('Disable 2 users?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Disable' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disable' }),
    );
    await waitFor(() => expect(said).toEqual(['2 users disabled']));
    expect(calls.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: 'private/v1/users/bulk-disable', body: { ids: ['u1', 'u2'] } },
    ]);
  });

  it('gives the selected users the role chosen in the confirmation', async () => {
    const calls = serve();
    const { list, said } = listControls();
    render(<UserBulkActions ids={['u3']} list={list} />);
    await userEvent.click(screen.getByRole('button', { name: 'Change role' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /New role/ }));
    await userEvent.click(screen.getByRole('option', { name: 'Admin' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(said).toEqual(['1 user given the role Admin']));
    expect(calls.map(({ body }) => body)).toEqual([{ ids: ['u3'], role: 'admin' }]);
  });
});

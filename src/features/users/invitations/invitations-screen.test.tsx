import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, serveRequests } from '../../../api/testing';
import { invitationsList } from './invitations-list';
import { InvitationsScreen } from './invitations-screen';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';

setUpScreenTests();

const invitation = (n: number) => ({
  id: `i${n}`,
  email: `guest${String(n).padStart(2, '0')}@example.com`,
  role: 'developer',
  invitedBy: 'a1',
  createdAt: '2030-01-01T00:00:00.000Z',
  sentAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-08T00:00:00.000Z',
  // Guest 2's sender was demoted: its link is dead until someone resends it.
  status: n === 2 ? 'senderCannotInvite' : 'pending',
});

/** 25 pending invitations as the server pages them; records the reads and changes asked for. */
function serveInvitations() {
  const asked: string[] = [];
  let rows = Array.from({ length: 25 }, (_, i) => invitation(i + 1));
  serveRequests(async (url, request) => {
    asked.push(`${request.method} ${url.pathname.slice(1)}${url.search}`);
    const resend = /^\/private\/v1\/invitations\/(\w+)\/resend$/.exec(url.pathname);
    if (request.method === 'POST' && resend) {
      rows = rows.map((row) => (row.id === resend[1] ? { ...row, status: 'pending' } : row));
      return jsonResponse(200, { data: rows.find((row) => row.id === resend[1]) });
    }
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const search = url.searchParams.get('search') ?? '';
    const order = url.searchParams.get('order') ?? '-sentAt';
    const matches = rows.filter((row) => row.email.includes(search));
    if (order === '-email') matches.reverse();
    const totalPages = Math.ceil(matches.length / limit);
    await Promise.resolve();
    return jsonResponse(200, {
      data: matches.slice((page - 1) * limit, page * limit),
      pagination: {
        page,
        limit,
        totalDocs: matches.length,
        totalPages,
        hasNextPage: page < totalPages,
      },
    });
  });
  return asked;
}

/** The invitations screen at `address`, as an admin sees it. */
function renderInvitations(address: string) {
  return renderScreen(() => <InvitationsScreen />, {
    address,
    validateSearch: invitationsList.validateSearch,
  });
}

const reads = (asked: string[]) => asked.filter((call) => call.startsWith('GET '));

describe('the invitations screen', { timeout: 20_000 }, () => {
  it('reads a page at a time, latest sent first, and pages, sorts and searches like the users list', async () => {
    const asked = serveInvitations();
    const user = userEvent.setup();
    const router = renderInvitations('/');
    // The first render of the file loads the table's modules: a cold start on a busy machine.
    const first = { name: 'guest01@example.com' };
    expect(await screen.findByRole('rowheader', first, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('rowheader', { name: 'guest11@example.com' })).toBeNull();
    expect(screen.getByText('25 items')).toBeTruthy();
    expect(reads(asked)).toEqual(['GET private/v1/invitations?page=1&limit=10&order=-sentAt']);

    const pager = screen.getAllByRole('navigation', { name: 'Pages' }).at(-1)!;
    await user.click(within(pager).getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByRole('rowheader', { name: 'guest25@example.com' })).toBeTruthy();
    expect(reads(asked).at(-1)).toBe('GET private/v1/invitations?page=3&limit=10&order=-sentAt');
    await waitFor(() => expect(router.state.location.search).toMatchObject({ page: 3 }));

    await user.click(screen.getByRole('columnheader', { name: /^E-mail address/ }));
    // Sorted by address from the first page (the direction the header says).
    await waitFor(() =>
      expect(reads(asked).at(-1)).toMatch(
        /^GET private\/v1\/invitations\?page=1&limit=10&order=-?email$/,
      ),
    );
    await user.type(screen.getByRole('searchbox', { name: /Search/ }), 'guest2');
    await waitFor(() =>
      expect(reads(asked).at(-1)).toMatch(
        /^GET private\/v1\/invitations\?page=1&limit=10&order=-?email&search=guest2$/,
      ),
    );
    expect(await screen.findByText('6 items')).toBeTruthy();
  });

  it('tells an invitation whose sender can no longer invite, and resends it from its row', async () => {
    const asked = serveInvitations();
    const user = userEvent.setup();
    renderInvitations('/');
    // The rows are held once the table measured their content and became resizable (its
    // table replaces the first one).
    await screen.findAllByRole('slider', { name: /^Resize / });
    const row = (await screen.findByRole('rowheader', { name: 'guest02@example.com' })).closest(
      'tr',
    )!;
    expect(within(row).getByText('Sender can no longer invite: resend it')).toBeTruthy();
    const other = screen.getByRole('rowheader', { name: 'guest01@example.com' }).closest('tr')!;
    expect(within(other).getByText('Pending')).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: 'Actions: guest02@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Resend' }));
    await waitFor(() => expect(asked).toContain('POST private/v1/invitations/i2/resend'));
    // The list is read again: the row now says pending.
    await waitFor(() => expect(within(row).getByText('Pending')).toBeTruthy());
  });
});

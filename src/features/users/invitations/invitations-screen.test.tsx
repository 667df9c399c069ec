import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../../api/query';
import { configureSession } from '../../../api/session-bridge';
import { jsonResponse, serveApi, signedInSession } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { InvitationsScreen } from './invitations-screen';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});
beforeEach(() => queryClient.clear());

const invitation = (id: string, email: string, status: string) => ({
  id,
  email,
  role: 'developer',
  invitedBy: 'a1',
  createdAt: '2030-01-01T00:00:00.000Z',
  sentAt: '2030-01-01T00:00:00.000Z',
  expiresAt: '2030-01-08T00:00:00.000Z',
  status,
});

describe('the invitations screen', () => {
  it('tells an invitation whose sender can no longer invite, and resends it', async () => {
    let dead = invitation('i2', 'bob@example.com', 'senderCannotInvite');
    const server = serveApi({
      'GET private/v1/invitations': () =>
        jsonResponse(200, { data: [invitation('i1', 'ada@example.com', 'pending'), dead] }),
      'POST private/v1/invitations/i2/resend': () => {
        dead = { ...dead, status: 'pending', invitedBy: 'u1' };
        return jsonResponse(200, { data: dead });
      },
    });
    configureSession(signedInSession());
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={queryClient}>
        <InvitationsScreen />
      </QueryClientProvider>,
    );
    const row = (await screen.findByRole('rowheader', { name: 'bob@example.com' })).closest('tr')!;
    expect(within(row).getByText('Sender can no longer invite: resend it')).toBeTruthy();
    const other = screen.getByRole('rowheader', { name: 'ada@example.com' }).closest('tr')!;
    expect(within(other).getByText('Pending')).toBeTruthy();

    await user.click(
      within(row).getByRole('button', { name: 'Resend the invitation to bob@example.com' }),
    );
    await waitFor(() =>
      expect(server.sent()).toContain('POST private/v1/invitations/i2/resend {}'),
    );
  });
});

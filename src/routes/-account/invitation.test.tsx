import { createMemoryHistory, createRouter, RouterProvider } from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../api/query';
import { configureSession } from '../../api/session-bridge';
import { jsonResponse, serveApi } from '../../api/testing';
import { initI18n } from '../../i18n';
import { isLoggedIn, sessionMachine } from '../../machines/session.machine';
import { routeTree } from '../../routeTree.gen';

beforeAll(() => initI18n());
beforeEach(() => queryClient.clear());

const TOKEN = 'a'.repeat(43);
const PASSWORD = 'a long invited password';
const SESSION = {
  _id: 'u7',
  email: 'ada@example.com',
  verifiedAt: '2026-01-01T00:00:00.000Z',
  role: 'developer',
  assets: [],
  wallets: [],
  settings: { isPasswordUpdated: true, isEmailVerified: true },
  token: 'token-1',
  refreshToken: 'refresh-1',
};

/** The API of an invitation accepted into an account that has two-step sign-in on. */
function serve() {
  const server = serveApi({
    'POST v1/invitations/lookup': [
      200,
      { data: { email: 'ada@example.com', role: 'developer', expiresAt: '2030-01-01T00:00:00Z' } },
    ],
    'POST v1/invitations/accept': [
      200,
      {
        data: {
          secondFactor: 'totp',
          challenge: 'signed-challenge',
          expiresAt: '2030-01-01T00:05:00.000Z',
        },
      },
    ],
    'POST v1/auth/second-factor': ({ body }) =>
      (body as { code: string }).code === '123456'
        ? jsonResponse(200, { data: SESSION })
        : jsonResponse(401, {
            status: 401,
            code: 'INVALID_SECOND_FACTOR',
            message: 'code: Wrong or used code',
          }),
  });
  configureSession({
    getTokens: () => ({ token: null, refreshToken: null, _id: null, email: null }),
    onRefreshed: () => undefined,
    onSessionInvalid: () => undefined,
  });
  return server;
}

function renderPage(token = TOKEN) {
  const session = createActor(sessionMachine, { input: undefined }).start();
  const router = createRouter({
    routeTree,
    context: { session },
    history: createMemoryHistory({ initialEntries: [`/invitation?token=${token}`] }),
  });
  render(<RouterProvider router={router} />);
  return { session, router };
}

describe(
  'accepting an invitation into an account with two-step sign-in',
  { timeout: 20_000 },
  () => {
    it('asks for the code as the sign-in page does, then signs in', async () => {
      const server = serve();
      const user = userEvent.setup();
      const { session, router } = renderPage();
      const form = await screen.findByRole('form', { name: 'Accept your invitation' });
      await user.type(within(form).getByLabelText('Password'), PASSWORD);
      await user.type(within(form).getByLabelText('Confirm password'), PASSWORD);
      await user.click(within(form).getByRole('button', { name: 'Set password and sign in' }));

      // No failure, no session yet: the second step.
      expect(await screen.findByText(/Your invitation is accepted/)).toBeTruthy();
      const step = await screen.findByRole('form', { name: 'Two-step sign-in' });
      expect(isLoggedIn(session.getSnapshot().context)).toBe(false);
      const code = within(step).getByLabelText('Authentication code');
      expect(code.getAttribute('autocomplete')).toBe('one-time-code');
      await user.type(code, '000000');
      await user.click(within(step).getByRole('button', { name: 'Verify' }));
      expect(await within(step).findByText(/This code is wrong or was used already/)).toBeTruthy();

      await user.clear(code);
      await user.type(code, '123456');
      await user.click(within(step).getByRole('button', { name: 'Verify' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(session.getSnapshot().context.data).toMatchObject({ _id: 'u7', token: 'token-1' });
      expect(server.sent().filter((line) => line.startsWith('POST v1/auth/second-factor'))).toEqual(
        [
          'POST v1/auth/second-factor {"challenge":"signed-challenge","code":"000000"}',
          'POST v1/auth/second-factor {"challenge":"signed-challenge","code":"123456"}',
        ],
      );
    });

    it('goes on at the sign-in page when the second step is left', async () => {
      serve();
      const user = userEvent.setup();
      const { router } = renderPage();
      const form = await screen.findByRole('form', { name: 'Accept your invitation' });
      await user.type(within(form).getByLabelText('Password'), PASSWORD);
      await user.type(within(form).getByLabelText('Confirm password'), PASSWORD);
      await user.click(within(form).getByRole('button', { name: 'Set password and sign in' }));
      await user.click(await screen.findByRole('button', { name: 'Sign in with another account' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
      expect(router.state.location.search).toMatchObject({ email: 'ada@example.com' });
    });
  },
);

describe('an invitation link that no longer works', () => {
  it('says so and whom to ask: any administrator (its sender may no longer invite)', async () => {
    serve();
    renderPage('too-short');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This invitation link is not valid: it was used, revoked or has expired. Ask an administrator for a new invitation.',
    );
  });
});

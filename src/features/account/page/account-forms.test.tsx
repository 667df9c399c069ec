import { QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRouteWithContext,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { myProofQuery } from '../../../api/account';
import { queryClient } from '../../../api/query';
import { configureSession } from '../../../api/session-bridge';
import { jsonResponse, serveApi, signedInSession } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { sessionMachine } from '../../../machines/session.machine';
import type { RouterContext } from '../../../machines/session.view';
import { DeleteSection, EmailSection, PasswordSection } from './account-forms';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
});
beforeEach(() => queryClient.clear());

const EMAIL = 'ada@example.com';
const CODE = '123456';
const USER = {
  _id: 'u7',
  email: EMAIL,
  verifiedAt: '2026-01-01T00:00:00.000Z',
  role: 'user' as const,
  assets: [],
  wallets: [],
  settings: { isPasswordUpdated: false, isEmailVerified: true },
};

/** A change the server takes with the mailed code `CODE` only, as it does for this account. */
const withCode = (answer: unknown) => (request: { body: unknown }) =>
  (request.body as { code?: string }).code === CODE
    ? jsonResponse(200, { data: answer })
    : jsonResponse(400, { status: 400, code: 'INVALID_CODE', message: 'Invalid code' });

/** The API of an account that signs in by mailed codes (`code`) or has a password. */
function serve(method: 'code' | 'password') {
  const server = serveApi({
    'GET v1/users/me/proof': [200, { data: { method, email: EMAIL } }],
    'POST v1/users/me/proof-code': [200, { data: { sent: true } }],
    'POST v1/users/me/email': withCode({ verificationId: 'v1' }),
    'PUT v1/users/me/password': withCode(USER),
    'DELETE v1/users/me': withCode({ deleted: true }),
    'GET v1/users/me/sessions': [200, { data: [] }],
  });
  configureSession(signedInSession());
  return server;
}

/**
 * The account page's sections in a router whose context holds a signed-in session, once the
 * page's loader read how changes are confirmed.
 */
async function renderSections() {
  await queryClient.prefetchQuery(myProofQuery());
  const session = createActor(sessionMachine, { input: undefined }).start();
  session.send({ type: 'SESSION_STARTED', result: { ...USER, token: 't', refreshToken: 'r' } });
  const root = createRootRouteWithContext<RouterContext>()({
    component: () => (
      <>
        <EmailSection />
        <PasswordSection />
        <DeleteSection />
      </>
    ),
  });
  const router = createRouter({
    routeTree: root,
    context: { session },
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('the account page of an account without a password', () => {
  it('offers a code mailed to the address, not a password, to confirm a new address', async () => {
    const server = serve('code');
    const user = userEvent.setup();
    await renderSections();
    const form = await screen.findByRole('form', { name: 'Change e-mail address' });
    expect(within(form).queryByLabelText('Current password')).toBeNull();
    await user.type(within(form).getByLabelText('New e-mail address'), 'new@example.com');
    const code = within(form).getByLabelText('Confirmation code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');

    await user.click(within(form).getByRole('button', { name: `Send a code to ${EMAIL}` }));
    expect((await within(form).findByRole('status')).textContent).toMatch(`Code sent to ${EMAIL}`);
    expect(within(form).getByRole('button', { name: 'Send another code' })).toBeTruthy();

    await user.type(code, '000000');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch('Invalid code');
    await user.clear(code);
    await user.type(code, CODE);
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText(/We sent a code to new@example.com/)).toBeTruthy();
    expect(server.sent()).toEqual(
      expect.arrayContaining([
        'POST v1/users/me/proof-code ',
        `POST v1/users/me/email {"email":"new@example.com","code":"${CODE}"}`,
      ]),
    );
  });

  it('sets a first password and deletes the account with the mailed code', async () => {
    const server = serve('code');
    const user = userEvent.setup();
    await renderSections();
    const form = await screen.findByRole('form', { name: 'Set a password' });
    await user.type(within(form).getByLabelText('New password'), 'a long first password');
    await user.type(within(form).getByLabelText('Confirm password'), 'a long first password');
    await user.type(within(form).getByLabelText('Confirmation code'), CODE);
    await user.click(within(form).getByRole('button', { name: 'Set a password' }));
    const sentPassword = `PUT v1/users/me/password {"password":"a long first password","code":"${CODE}"}`;
    await vi.waitFor(() => expect(server.sent()).toContain(sentPassword));

    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: `Send a code to ${EMAIL}` }));
    await within(dialog).findByText(`Code sent to ${EMAIL}. It works for 10 minutes.`);
    await user.type(within(dialog).getByLabelText('Confirmation code'), CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await vi.waitFor(() =>
      expect(server.sent()).toContain(`DELETE v1/users/me {"code":"${CODE}"}`),
    );
  });
});

describe('the account page of an account with a password', () => {
  it('asks for the current password, and offers no code', async () => {
    serve('password');
    await renderSections();
    const form = await screen.findByRole('form', { name: 'Change e-mail address' });
    expect(within(form).getByLabelText('Current password')).toBeTruthy();
    expect(within(form).queryByLabelText('Confirmation code')).toBeNull();
    expect(screen.queryByRole('button', { name: /Send a code/ })).toBeNull();
    expect(screen.getByRole('form', { name: 'Change password' })).toBeTruthy();
  });
});

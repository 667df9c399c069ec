// @vitest-environment jsdom
/**
 * The second step of a sign-in answered by a passkey (docs/api.md "Passkeys"): an account
 * whose only second factor is a passkey gets no code field; one with an authenticator app too
 * gets both. The browser's side (@simplewebauthn/browser) is replaced: jsdom has no WebAuthn.
 */
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
import type { SecondFactorChallenge } from '../../../contract/account-schemas';
import { configureSession } from '../../api/session-bridge';
import { jsonResponse, serveApi } from '../../api/testing';
import { initI18n } from '../../i18n';
import { isLoggedIn, sessionMachine } from '../../machines/session.machine';
import type { RouterContext } from '../../machines/session.view';
import { SecondStepForm } from './second-step-form';

const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startAuthentication: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => browser);

beforeAll(() => initI18n());
beforeEach(() => {
  browser.startAuthentication.mockReset();
  browser.browserSupportsWebAuthn.mockReturnValue(true);
});

const OPTIONS = { challenge: 'webauthn-challenge', allowCredentials: [{ id: 'key-1' }] };
const ASSERTION = { id: 'key-1', rawId: 'key-1', type: 'public-key', response: {} };
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

function serve() {
  const server = serveApi({
    'POST v1/auth/second-factor': ({ body }) =>
      (body as { passkey?: unknown; code?: string }).passkey || (body as { code?: string }).code
        ? jsonResponse(200, { data: SESSION })
        : jsonResponse(400, { status: 400, code: 'VALIDATION_ERROR', message: 'no answer' }),
  });
  configureSession({
    getTokens: () => ({ token: null, refreshToken: null, _id: null, email: null }),
    onRefreshed: () => undefined,
    onSessionInvalid: () => undefined,
  });
  return server;
}

/** The form, for a sign-in whose password was right and whose account answers `challenge`. */
async function renderStep(secondFactor: SecondFactorChallenge['secondFactor']) {
  const session = createActor(sessionMachine, { input: undefined }).start();
  session.send({
    type: 'SESSION_STARTED',
    result: {
      secondFactor,
      challenge: 'signed-challenge',
      expiresAt: '2030-01-01T00:05:00.000Z',
      passkey: OPTIONS,
    },
  });
  const root = createRootRouteWithContext<RouterContext>()({ component: SecondStepForm });
  const router = createRouter({
    routeTree: root,
    context: { session },
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(<RouterProvider router={router} />);
  await screen.findByRole('button', { name: 'Sign in with another account' });
  return session;
}

describe('the second step with a passkey', () => {
  it('asks only for the passkey of an account without an authenticator app', async () => {
    browser.startAuthentication.mockResolvedValue(ASSERTION);
    const server = serve();
    const user = userEvent.setup();
    const session = await renderStep('passkey');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /recovery code/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Use your passkey' }));
    await vi.waitFor(() => expect(isLoggedIn(session.getSnapshot().context)).toBe(true));
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(server.sent()).toEqual([
      `POST v1/auth/second-factor {"challenge":"signed-challenge","passkey":${JSON.stringify(ASSERTION)}}`,
    ]);
  });

  it('offers the code and the passkey to an account with both, and words a closed prompt', async () => {
    browser.startAuthentication.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    const server = serve();
    const user = userEvent.setup();
    const session = await renderStep('totp');
    const form = screen.getByRole('form', { name: 'Two-step sign-in' });
    await user.click(screen.getByRole('button', { name: 'Use your passkey' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      'No passkey was used: the prompt was closed or timed out.',
    );
    // Said beside the passkey's button, not as the code's error.
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(server.sent()).toEqual([]);

    await user.type(within(form).getByLabelText('Authentication code'), '123456');
    await user.click(within(form).getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(isLoggedIn(session.getSnapshot().context)).toBe(true));
    expect(server.sent()).toEqual([
      'POST v1/auth/second-factor {"challenge":"signed-challenge","code":"123456"}',
    ]);
  });

  it('says why in a browser without passkeys, where a passkey is the only answer', async () => {
    browser.browserSupportsWebAuthn.mockReturnValue(false);
    serve();
    await renderStep('passkey');
    expect(screen.getByText(/This browser cannot use passkeys/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Use your passkey' })).toBeNull();
  });
});

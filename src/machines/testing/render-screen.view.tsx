/**
 * Test-only: a screen rendered as the app renders it (its router with a signed-in session, the
 * query cache, optionally the toasts), so a dom test drives a whole screen as its user does.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import {
  type AnyValidator,
  createMemoryHistory,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  RouterProvider,
} from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createActor } from 'xstate';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { queryClient } from '../../api/query';
import { configureSession } from '../../api/session-bridge';
import { freshToken } from '../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../i18n';
import { Toasts } from '../../ui/dom/toasts';
import { loadPermissions } from '../permissions.view';
import { defaultSessionUser, sessionContextFrom, sessionMachine } from '../session.machine';
import type { RouterContext } from '../session.view';

interface ScreenOptions {
  /** Where the screen opens: its path and search, as the address bar holds them. */
  address?: string;
  /** The signed-in user `u1`'s abilities (CASL rules); an admin's by default. */
  rules?: unknown[];
  /** The route's search validation, for screens whose state lives in the address. */
  validateSearch?: AnyValidator;
  /** Renders the toasts beside the screen, for what a screen says in one. */
  toasts?: boolean;
  /**
   * Screens at paths of their own (e.g. a list and its record's page), for a test that goes from
   * one to another; `screen` then frames them (render an `<Outlet />` in it).
   */
  paths?: Record<string, () => ReactNode>;
}

/** Renders `screen` at `address` as the signed-in `u1`; answers its router. */
export function renderScreen(screen: () => ReactNode, options: ScreenOptions = {}) {
  const token = freshToken(Date.now(), 900, { ability: options.rules ?? [['manage', 'all']] });
  configureSession({
    getTokens: () => ({ token, refreshToken: 'r', _id: 'u1', email: 'me@example.com' }),
    onRefreshed: () => undefined,
    onSessionInvalid: () => undefined,
  });
  const session = createActor(sessionMachine, {
    input: sessionContextFrom({ ...defaultSessionUser(), token, refreshToken: 'r', _id: 'u1' }),
  }).start();
  const root = createRootRouteWithContext<RouterContext>()({
    ...(options.validateSearch ? { validateSearch: options.validateSearch } : {}),
    component: screen,
  });
  const children = Object.entries(options.paths ?? {}).map(([path, component]) =>
    createRoute({ getParentRoute: () => root, path, component }),
  );
  const router = createRouter({
    routeTree: children.length > 0 ? root.addChildren(children) : root,
    context: { session },
    history: createMemoryHistory({ initialEntries: [options.address ?? '/'] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      {options.toasts && <Toasts label="Notifications" closeLabel="Close" />}
    </QueryClientProvider>,
  );
  return router;
}

/** A wide screen for the test: lists show their table with its headers, not cards. */
export function stubWideScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

/**
 * A screen test file's set-up: the texts and abilities loaded once; before each test an empty
 * query cache on a wide screen; after each, no stubbed global and nothing left in storage.
 */
export function setUpScreenTests() {
  beforeAll(async () => {
    initI18n();
    await loadBackOfficeTexts();
    await loadPermissions();
  });
  beforeEach(() => {
    queryClient.clear();
    stubWideScreen();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });
}

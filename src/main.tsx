import { createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod/mini';
import { initI18n } from './i18n';
import { createAppSession, selectIsLoggedIn } from './machines/app-session';
import { routeTree } from './routeTree.gen';
import { RouteError } from './routes/-chunks/route-error';
import { startTheme } from './ui/theme';
import './ui/styles.css';

startTheme();
initI18n();

const { actor: session } = createAppSession({
  redirectToSignin: () => {
    void router.navigate({ to: '/signin', search: { reason: 'login_required' } });
  },
});

const router = createRouter({
  routeTree,
  context: { session },
  defaultPreload: 'intent',
  // A screen whose code or data fails shows why with Retry, inside the shell.
  defaultErrorComponent: RouteError,
  scrollRestoration: true,
});

// Cached reads belong to one user: drop them when the session ends.
let wasLoggedIn = selectIsLoggedIn(session.getSnapshot());
session.subscribe((snapshot) => {
  const isLoggedIn = selectIsLoggedIn(snapshot);
  if (wasLoggedIn && !isLoggedIn) {
    // The cache module is split from the start-up bundle; clearing it never loads it early.
    void import('./api/query').then(({ queryClient }) => queryClient.clear());
  }
  wasLoggedIn = isLoggedIn;
});

// A console handle for support engineers and the end-to-end tests: an authenticated GET
// through the app's own client (session rule, refresh and errors included). It exposes
// nothing a script on the page could not already read from localStorage.
Object.assign(window, {
  avatarStudio: {
    request: async (path: string) => (await import('./api/http')).apiRequest(path, z.unknown()),
  },
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);

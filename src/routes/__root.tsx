import {
  createRootRouteWithContext,
  Link,
  Outlet,
  useRouter,
  useRouterState,
  type ErrorComponentProps,
} from '@tanstack/react-router';
import { lazy, startTransition, Suspense, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCard } from '../ui/dom/auth-card';
import type { RouterContext } from '../machines/session.view';
import { RouteError } from './-chunks/route-error';

/** The state machine inspector panel: development builds only (src/inspect-panel.tsx). */
const DevInspector = import.meta.env.DEV ? lazy(() => import('../devtools/inspect-panel')) : null;

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
  errorComponent: RootError,
});

/** Whether the first page has been drawn: pages after it render as they come. */
let firstPageShown = false;

function Root() {
  const router = useRouter();
  // The first page (its layout and screen, thousands of components) is mounted in a background
  // render, which yields to the browser every few milliseconds. The router hands its matches to
  // React through a store, which React renders in one piece: on a phone that was one task of
  // 0.5 to 1.5 s in which no tap or key was handled. Nothing is drawn before the first load has
  // settled anyway (its screens' code and data are on their way).
  const settled = useRouterState({
    select: (state) => state.status === 'idle' && state.resolvedLocation !== undefined,
  });
  const [shown, setShown] = useState(firstPageShown);
  // A transition, not a deferred value: a screen that draws its heading first and the rest in
  // a deferred render of its own (the lists) still does so inside it.
  useLayoutEffect(() => {
    if (settled && !shown) startTransition(() => setShown(true));
  }, [settled, shown]);
  useLayoutEffect(() => {
    if (!shown || firstPageShown) return;
    firstPageShown = true;
    // The router restored the scroll position (or went to the address's #fragment) when the
    // load settled, before the page was here: it does it again now that it is.
    const location = router.state.resolvedLocation ?? router.state.location;
    router.emit({
      type: 'onRendered',
      fromLocation: undefined,
      toLocation: location,
      pathChanged: true,
      hrefChanged: true,
      hashChanged: true,
    });
  }, [shown, router]);
  return (
    <>
      {shown && <Outlet />}
      {DevInspector && (
        <Suspense fallback={null}>
          <DevInspector />
        </Suspense>
      )}
    </>
  );
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <AuthCard
      appName={t('app.name')}
      title={t('app.notFound')}
      documentTitle={t('app.notFoundTitle')}
    >
      <Link to="/">{t('app.backHome')}</Link>
    </AuthCard>
  );
}

/** Nothing above it catches: the screens' error (with Retry) on a page of its own. */
function RootError(props: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <AuthCard appName={t('app.name')} title={t('app.errorTitle')}>
      <RouteError {...props} />
    </AuthCard>
  );
}

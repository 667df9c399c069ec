import {
  createRootRouteWithContext,
  Link,
  Outlet,
  type ErrorComponentProps,
} from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
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

function Root() {
  return (
    <>
      <Outlet />
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

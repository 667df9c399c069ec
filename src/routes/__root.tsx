import {
  createRootRouteWithContext,
  Link,
  Outlet,
  type ErrorComponentProps,
} from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../ui/dom/alert';
import { AuthCard } from '../ui/dom/auth-card';
import type { RouterContext } from '../machines/session.view';

/** The state machine inspector panel: development builds only (src/inspect-panel.tsx). */
const DevInspector = import.meta.env.DEV ? lazy(() => import('../devtools/inspect-panel')) : null;

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
  errorComponent: RouteError,
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
    <AuthCard appName={t('app.name')} title={t('app.notFound')}>
      <Link to="/">{t('app.backHome')}</Link>
    </AuthCard>
  );
}

function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <AuthCard appName={t('app.name')} title={t('app.unexpectedError', { message: '' })}>
      <Alert tone="error">
        {t('app.unexpectedError', {
          message: error instanceof Error ? error.message : String(error),
        })}
      </Alert>
      <p>
        <button type="button" className="button" onClick={reset}>
          {t('app.retry')}
        </button>
      </p>
    </AuthCard>
  );
}

import type { TFunction } from 'i18next';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../ui/dom/alert';
import { useDocumentTitle } from '../../ui/dom/use-document-title';
import { isChunkLoadError, retryChunk } from './chunk-error';

/** Why a screen failed. */
function routeErrorMessage(error: unknown, t: TFunction) {
  return isChunkLoadError(error)
    ? t('app.chunkFailed')
    : t('app.unexpectedError', { message: error instanceof Error ? error.message : String(error) });
}

/**
 * The router's default error component: a screen that failed to load or render says why, with
 * Retry. It lives in the start-up bundle, so it shows even when no further code can be fetched
 * (offline): "This part of the app could not be loaded. Check your connection."
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const { t } = useTranslation();
  const router = useRouter();
  const chunk = isChunkLoadError(error);
  useDocumentTitle(t('app.errorTitle'));
  return (
    <section className="route-error">
      <Alert tone="error">
        {routeErrorMessage(error, t)}
        <button
          type="button"
          className="button"
          onClick={() => {
            // Loads the route again: its code and data.
            const again = () => {
              reset();
              void router.invalidate();
            };
            if (chunk) void retryChunk(error, again);
            else again();
          }}
        >
          {chunk ? t('app.chunkRetry') : t('app.retry')}
        </button>
      </Alert>
    </section>
  );
}

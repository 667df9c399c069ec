import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { assetCountsQuery } from '../../features/assets';
import { describeError } from '../../api/error-info';
import { queryClient } from '../../api/query';
import { ActionButton } from '../../ui/dom/action-button';
import { Alert } from '../../ui/dom/alert';
import { CountCards } from '../../ui/dom/count-cards';
import { useDocumentTitle } from '../../ui/dom/use-document-title';

export const Route = createFileRoute('/_app/')({
  // Started, not awaited: the cards show their own loading state and a failure with Retry.
  loader: () => void queryClient.prefetchQuery(assetCountsQuery()),
  component: Dashboard,
});

function Dashboard() {
  const { t } = useTranslation();
  const counts = useQuery(assetCountsQuery());
  useDocumentTitle(t('dashboard.title'));
  return (
    <>
      <h1>{t('dashboard.title')}</h1>
      {counts.isError ? (
        <Alert tone="error">
          {t('dashboard.failed')} {describeError(counts.error, t)}
          <ActionButton onPress={() => void counts.refetch()}>{t('app.retry')}</ActionButton>
        </Alert>
      ) : (
        <CountCards
          counts={counts.data ?? null}
          // Each card leads to the assets it counts.
          cardLink={(type, content) => (
            <Link
              to="/assets"
              search={type ? { filter: { type: [type] } } : {}}
              className="count-card-link"
            >
              {content}
            </Link>
          )}
          labels={{
            heading: t('dashboard.assetsByType'),
            total: t('dashboard.total'),
            empty: t('dashboard.empty'),
            loading: t('dashboard.loading'),
          }}
        />
      )}
    </>
  );
}

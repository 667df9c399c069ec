import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { countByType } from '../../api/assets';
import { ActionButton } from '../../ui/dom/action-button';
import { Alert } from '../../ui/dom/alert';
import { CountCards } from '../../ui/dom/count-cards';
import { describeError } from '../-components/describe-error';
import { useQuery } from '../-components/use-query';

export const Route = createFileRoute('/_app/')({
  component: Dashboard,
});

function Dashboard() {
  const { t } = useTranslation();
  const counts = useQuery(['assets', 'countByType'], () => countByType());
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

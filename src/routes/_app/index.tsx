import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { assetCountsQuery } from '../../features/assets';
import { DashboardScreen, dashboardQuery } from '../../features/dashboard';
import { queryClient } from '../../api/query';
import { useDocumentTitle } from '../../ui/dom/use-document-title';

export const Route = createFileRoute('/_app/')({
  // Started, not awaited: each part shows its own loading state and a failure with Retry.
  loader: () => {
    void queryClient.prefetchQuery(assetCountsQuery());
    void queryClient.prefetchQuery(dashboardQuery());
  },
  component: Dashboard,
});

function Dashboard() {
  const { t } = useTranslation();
  useDocumentTitle(t('dashboard.title'));
  return <DashboardScreen />;
}

import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../api/query';
import { servicesQuery } from '../../api/services';
import {
  assetApplicationsQuery,
  assetChangelogQuery,
  AssetPage,
  assetQuery,
} from '../../features/assets';
import { RecordLoadFailed } from '../-chunks/record-error';
import { loadPermissions, permissionsOfSession } from '../../machines/permissions.view';

export const Route = createFileRoute('/_app/assets/$assetId')({
  loader: async ({ params: { assetId }, context }) => {
    const asset = queryClient.ensureQueryData(assetQuery(assetId));
    // The sections' reads start with the asset's, not after it; only those the role may make.
    await loadPermissions();
    const can = permissionsOfSession(context.session);
    if (can('read', 'Application')) void queryClient.prefetchQuery(assetApplicationsQuery(assetId));
    if (can('update', 'Asset')) {
      void queryClient.prefetchInfiniteQuery(assetChangelogQuery(assetId));
      // Whether the server predicts textures: known when the actions first show, so the line
      // saying it does not appears with them, not later, moving the panels below it (a failed
      // read shows no line and is read again by the panel).
      await Promise.all([asset, queryClient.prefetchQuery(servicesQuery())]);
    }
    return asset;
  },
  component: AssetRoute,
  errorComponent: AssetLoadFailed,
});

function AssetRoute() {
  const { assetId } = Route.useParams();
  return <AssetPage assetId={assetId} />;
}

/** The asset could not be read: not found, or a failure that may pass (then Retry). */
function AssetLoadFailed(props: ErrorComponentProps) {
  const { t } = useTranslation();
  return (
    <RecordLoadFailed
      {...props}
      notFoundTitle={t('assetEditor.notFoundTitle')}
      notFound={t('assetEditor.notFound')}
      failedTitle={t('assetEditor.loadFailedTitle')}
      section={t('assets.title')}
      back={<Link to="/assets">{t('assetEditor.back')}</Link>}
    />
  );
}

import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link, type ErrorComponentProps } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { assetApplicationsQuery, assetChangelogQuery, assetQuery } from '../../api/asset-cache';
import { queryClient } from '../../api/query';
import { Alert } from '../../ui/dom/alert';
import '../../ui/dom/asset-editor.css';
import { SectionCrumbs } from '../../ui/dom/section-crumbs';
import { useDocumentTitle } from '../../ui/dom/use-document-title';
import { RecordLoadFailed } from '../-chunks/record-error';
import { AssetForm } from './-asset/asset-form';
import { badgeCell } from '../../ui/dom/list/cells';
import { AssetActions } from './-asset/asset-actions';
import { AssetApplications } from './-asset/asset-applications';
import { AssetChangelog } from './-asset/asset-changelog';
import { AssetMorphs } from './-asset/asset-morphs';
import { AssetPreview } from './-asset/asset-preview';
import { RemoteChange } from './-asset/remote-change';
import { AssetTags } from './-asset/asset-tags';
import { AssetUsers } from './-asset/asset-users';
import {
  loadPermissions,
  permissionsOfSession,
  usePermissions,
} from '../../machines/permissions.view';

export const Route = createFileRoute('/_app/assets/$assetId')({
  loader: async ({ params: { assetId }, context }) => {
    const asset = queryClient.ensureQueryData(assetQuery(assetId));
    // The sections' reads start with the asset's, not after it; only those the role may make.
    await loadPermissions();
    const can = permissionsOfSession(context.session);
    if (can('read', 'Application')) void queryClient.prefetchQuery(assetApplicationsQuery(assetId));
    if (can('update', 'Asset'))
      void queryClient.prefetchInfiniteQuery(assetChangelogQuery(assetId));
    return asset;
  },
  component: AssetPage,
  errorComponent: AssetLoadFailed,
});

/** One asset: its form (read-only while locked) and its sections. */
function AssetPage() {
  const { t } = useTranslation();
  const { assetId } = Route.useParams();
  const { data: asset } = useSuspenseQuery(assetQuery(assetId));
  const can = usePermissions();
  const canEdit = can('update', 'Asset');
  useDocumentTitle(asset.name, t('assets.title'));
  return (
    <section className="asset-page" aria-labelledby="asset-title">
      <SectionCrumbs section="/assets" current={asset.name} />
      <div className="asset-page-header">
        <h1 id="asset-title">{t('assetEditor.editTitle', { name: asset.name })}</h1>
        {asset.locked
          ? badgeCell(t('assets.locked'), 'locked')
          : badgeCell(t('assets.unlocked'), 'unlocked')}
      </div>
      <RemoteChange assetId={assetId} />
      {asset.locked && <Alert tone="info">{t('assetEditor.lockedNotice')}</Alert>}
      <div className="asset-layout">
        <AssetForm asset={asset} readOnly={asset.locked || !canEdit} />
        {/* On a phone: preview and actions, then the form, then tags and the changelog. */}
        <div className="asset-side">
          <div className="asset-lead">
            <AssetPreview asset={asset} />
            {(canEdit || can('delete', 'Asset')) && (
              <AssetActions asset={asset} canEdit={canEdit} canDelete={can('delete', 'Asset')} />
            )}
          </div>
          <div className="asset-more">
            <AssetTags asset={asset} readOnly={!canEdit} />
            {canEdit && <AssetChangelog asset={asset} />}
          </div>
        </div>
      </div>
      <div className="asset-sections">
        {can('read', 'Application') && (
          <AssetApplications asset={asset} canEdit={can('update', 'Application')} />
        )}
        {can('update', 'UserAsset') && <AssetUsers asset={asset} />}
        {canEdit && <AssetMorphs asset={asset} />}
      </div>
    </section>
  );
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

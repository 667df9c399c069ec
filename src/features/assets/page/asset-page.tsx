import { useSuspenseQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { assetQuery } from '../api/cache';
import { Alert } from '../../../ui/dom/alert';
import '../../../ui/dom/editor-page.css';
import '../asset-page.css';
import { SectionCrumbs } from '../../../ui/dom/section-crumbs';
import { useDocumentTitle } from '../../../ui/dom/use-document-title';
import { AssetForm } from './asset-form';
import { badgeCell } from '../../../ui/dom/list/cells';
import { AssetActions } from './asset-actions';
import { AssetApplications } from './asset-applications';
import { AssetChangelog } from './asset-changelog';
import { AssetMorphs } from './asset-morphs';
import { AssetPreview } from './asset-preview';
import { RemoteChange } from './remote-change';
import { AssetTags } from './asset-tags';
import { AssetUsers } from './asset-users';
import { AssetDetails } from './asset-details';
import { usePermissions } from '../../../machines/permissions.view';

/**
 * One asset: its form (read-only while locked) and its sections; a role that may not change
 * assets reads its details as text under a notice saying why.
 */
export function AssetPage({ assetId }: { assetId: string }) {
  const { t } = useTranslation();
  const { data: asset } = useSuspenseQuery(assetQuery(assetId));
  const can = usePermissions();
  const canEdit = can('update', 'Asset');
  useDocumentTitle(asset.name, t('assets.title'));
  // The heading and notices are drawn first; the form and the sections (most of the page's
  // rendering) follow in a background render, so the asset's name paints without waiting for
  // them. They appear below the heading, so nothing drawn moves.
  const bodyShown = useDeferredValue(true, false);
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
      {!canEdit && <Alert tone="info">{t('assetEditor.readOnlyNotice')}</Alert>}
      {canEdit && asset.locked && <Alert tone="info">{t('assetEditor.lockedNotice')}</Alert>}
      {bodyShown && (
        <>
          <div className="asset-layout">
            {canEdit ? (
              <AssetForm asset={asset} readOnly={asset.locked} />
            ) : (
              <AssetDetails asset={asset} />
            )}
            {/* On a phone: preview and actions, then the form, then tags and the changelog. */}
            <div className="asset-side">
              <div className="asset-lead">
                <AssetPreview asset={asset} />
                {(canEdit || can('delete', 'Asset')) && (
                  <AssetActions
                    asset={asset}
                    canEdit={canEdit}
                    canDelete={can('delete', 'Asset')}
                  />
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
            {/* A role whose rules on users' assets carry no condition (not a user's own assets). */}
            {can('access', 'PrivateApi') && can('read', 'User') && (
              <AssetUsers asset={asset} canEdit={can('update', 'UserAsset')} />
            )}
            {canEdit && <AssetMorphs asset={asset} />}
          </div>
        </>
      )}
    </section>
  );
}

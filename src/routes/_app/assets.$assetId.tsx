import { createFileRoute, Link } from '@tanstack/react-router';
import { useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { getAsset } from '../../api/assets';
import { queryClient } from '../../api/query';
import type { Asset } from '../../api/schemas';
import { Alert } from '../../ui/dom/alert';
import '../../ui/dom/asset-editor.css';
import { AssetForm } from '../-components/asset-form';
import {
  AssetActions,
  AssetApplications,
  AssetChangelog,
  AssetMorphs,
  AssetPreview,
  AssetTags,
  AssetUsers,
} from '../-components/asset-panels';
import { badgeCell } from '../-components/cells';
import { describeError } from '../-components/describe-error';
import { useQuery } from '../-components/use-query';

export const Route = createFileRoute('/_app/assets/$assetId')({
  component: AssetPage,
});

const assetKey = (id: string) => ['asset', id] as const;

function AssetPage() {
  const { assetId } = Route.useParams();
  return <AssetScreen key={assetId} assetId={assetId} />;
}

/** One asset: its form (read-only while locked) and its sections. */
function AssetScreen({ assetId }: { assetId: string }) {
  const { t } = useTranslation();
  const query = useQuery(assetKey(assetId), () => getAsset(assetId));
  const asset = query.data;
  const update = (next: Asset) => queryClient.setQueryData(assetKey(assetId), next);
  // Bumped by sections whose actions add changelog events without changing the asset.
  const [revision, bumpRevision] = useReducer((n: number) => n + 1, 0);

  if (!asset) {
    return (
      <section className="asset-page">
        <Link to="/assets">{t('assetEditor.back')}</Link>
        {query.isError ? (
          <Alert tone="error">
            {t('assetEditor.notFound', { message: describeError(query.error, t) })}
          </Alert>
        ) : (
          <p role="status">{t('assetEditor.loading')}</p>
        )}
      </section>
    );
  }
  return (
    <section className="asset-page" aria-labelledby="asset-title">
      <Link to="/assets">{t('assetEditor.back')}</Link>
      <div className="asset-page-header">
        <h1 id="asset-title">{t('assetEditor.editTitle', { name: asset.name })}</h1>
        {asset.locked && badgeCell(t('assets.locked'), 'locked')}
      </div>
      {asset.locked && <Alert tone="info">{t('assetEditor.lockedNotice')}</Alert>}
      <div className="asset-layout">
        {/* Remounted on lock changes so the form's defaults follow the stored asset. */}
        <AssetForm key={`${asset.locked}`} asset={asset} readOnly={asset.locked} onSaved={update} />
        <div className="asset-side">
          <AssetPreview asset={asset} />
          <AssetActions asset={asset} onChange={update} />
          <AssetTags asset={asset} onChange={update} />
          <AssetChangelog asset={asset} revision={revision} />
        </div>
      </div>
      <div className="asset-sections">
        <AssetApplications asset={asset} onEvent={bumpRevision} />
        <AssetUsers asset={asset} onEvent={bumpRevision} />
        <AssetMorphs asset={asset} onEvent={bumpRevision} />
      </div>
    </section>
  );
}

import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../api/schemas';
import { DotLoader } from '../../../ui/canvas/dot-loader';
import { Panel } from './panel';

// The viewer (three.js, R3F) loads with this panel only.
const AvatarViewer = lazy(() =>
  import('../../../viewer').then((m) => ({ default: m.AvatarViewer })),
);

/** The asset's model in the avatar viewer: turn it by dragging or with the arrow keys. */
export function AssetPreview({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  return (
    <Panel title={t('assetEditor.preview')}>
      {asset.modelUrl ? (
        <div className="asset-preview">
          {/* The viewer's own loader, so its code and then its model load behind the same dots. */}
          <Suspense fallback={<DotLoader label={t('assetEditor.loading')} />}>
            <AvatarViewer
              key={asset.modelUrl}
              modelSrc={asset.modelUrl}
              fit
              label={t('assetEditor.previewLabel', { name: asset.name })}
              texts={{
                loading: t('assetEditor.loading'),
                failed: t('viewer.failed'),
                retry: t('viewer.retry'),
              }}
            />
          </Suspense>
        </div>
      ) : (
        <p className="field-description">{t('assetEditor.noModel')}</p>
      )}
    </Panel>
  );
}

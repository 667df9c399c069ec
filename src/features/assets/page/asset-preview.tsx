import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset, ModelDelivery } from '../../../../contract/schemas';
import { deliveredModelUrl } from '../../../../core/model-delivery';
import { formatBytes } from '../../../../core/files/format-bytes';
import { DotLoader } from '../../../ui/canvas/dot-loader';
import { CheckboxField } from '../../../ui/dom/form-controls';
import { useShownWhenIdle } from '../../../ui/dom/use-shown-when-idle';
import { Panel } from './panel';

// The viewer (three.js, R3F) loads with this panel only, once it is on screen and the page has
// loaded (on a phone, once the person has touched or scrolled the page as well): its code, its
// model and its start (seconds of one task on a phone's CPU) would otherwise compete with the
// form's first paint and its first touches.
const AvatarViewer = lazy(() =>
  import('../../../viewer').then((m) => ({ default: m.AvatarViewer })),
);

/** One model in the avatar viewer. */
function ModelView({ modelSrc, label }: { modelSrc: string; label: string }) {
  const { t } = useTranslation();
  const [ref, shown] = useShownWhenIdle<HTMLDivElement>({ touchWaitsForInput: true });
  const dots = <DotLoader label={t('assetEditor.loading')} />;
  return (
    <div className="asset-preview" ref={ref}>
      {/* The viewer's own loader, so its code and then its model load behind the same dots. */}
      {!shown ? (
        dots
      ) : (
        <Suspense fallback={dots}>
          <AvatarViewer
            key={modelSrc}
            modelSrc={modelSrc}
            fit
            label={label}
            texts={{
              loading: t('assetEditor.loading'),
              failed: t('viewer.failed'),
              retry: t('viewer.retry'),
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

/** "3.2 MB uploaded, 0.9 MB delivered", or why the model is delivered as uploaded. */
function DeliveryNote({ delivery }: { delivery: ModelDelivery }) {
  const { t } = useTranslation();
  const uploaded = formatBytes(delivery.originalSize);
  const text =
    delivery.status === 'ready'
      ? t('assetEditor.deliveryReady', { uploaded, delivered: formatBytes(delivery.size ?? 0) })
      : delivery.status === 'pending'
        ? t('assetEditor.deliveryPending', { uploaded })
        : t(
            delivery.status === 'failed'
              ? 'assetEditor.deliveryFailed'
              : 'assetEditor.deliveryOriginal',
            {
              uploaded,
              reason: delivery.reason ?? '',
            },
          );
  return (
    <p className="field-description" data-testid="model-delivery">
      {text}
    </p>
  );
}

/**
 * The asset's model in the avatar viewer (its delivery version once it has one: what embeds
 * show): turn it by dragging or with the arrow keys. With a delivery version, the uploaded
 * model can be shown beside it.
 */
export function AssetPreview({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  const [compare, setCompare] = useState(false);
  const shown = deliveredModelUrl(asset);
  const delivery = asset.modelDelivery;
  const comparable = delivery?.status === 'ready' && shown !== asset.modelUrl;
  return (
    <Panel title={t('assetEditor.preview')}>
      {asset.modelUrl && shown ? (
        <>
          {comparable && compare ? (
            <div className="asset-preview-pair">
              <figure>
                <ModelView
                  modelSrc={asset.modelUrl}
                  label={t('assetEditor.previewUploadedLabel', { name: asset.name })}
                />
                <figcaption>{t('assetEditor.previewUploaded')}</figcaption>
              </figure>
              <figure>
                <ModelView
                  modelSrc={shown}
                  label={t('assetEditor.previewLabel', { name: asset.name })}
                />
                <figcaption>{t('assetEditor.previewDelivered')}</figcaption>
              </figure>
            </div>
          ) : (
            <ModelView
              modelSrc={shown}
              label={t('assetEditor.previewLabel', { name: asset.name })}
            />
          )}
          {delivery && <DeliveryNote delivery={delivery} />}
          {comparable && (
            <CheckboxField
              name="compareDelivery"
              label={t('assetEditor.compareDelivery')}
              checked={compare}
              onChange={setCompare}
            />
          )}
        </>
      ) : (
        <p className="field-description">{t('assetEditor.noModel')}</p>
      )}
    </Panel>
  );
}

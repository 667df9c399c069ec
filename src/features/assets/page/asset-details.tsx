import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../../contract/schemas';
import { displayLabel } from '../../../ui/dom/list/asset-filters';

const FILES = [
  ['modelUrl', 'assetEditor.model'],
  ['iconUrl', 'assetEditor.icon'],
  ['textureUrl', 'assetEditor.texture'],
  ['normalMapUrl', 'assetEditor.normalMap'],
  ['sourceUrl', 'assetEditor.source'],
] as const;

/**
 * The asset's details as text, for a role that may read assets but not change them: what the
 * form would hold, with its files to download, and no controls that do nothing.
 */
export function AssetDetails({ asset }: { asset: Asset }) {
  const { t } = useTranslation();
  return (
    <section className="panel asset-details" aria-labelledby="asset-details">
      <h2 id="asset-details">{t('assetEditor.details')}</h2>
      <dl className="fact-list">
        <div>
          <dt>{t('assetEditor.name')}</dt>
          <dd>{asset.name}</dd>
        </div>
        <div>
          <dt>{t('assetEditor.type')}</dt>
          <dd>{displayLabel(asset.type)}</dd>
        </div>
        <div>
          <dt>{t('assetEditor.gender')}</dt>
          <dd>{displayLabel(asset.gender)}</dd>
        </div>
        <div>
          <dt>{t('assetEditor.description')}</dt>
          <dd>{asset.description || t('assetEditor.noDescription')}</dd>
        </div>
        <div>
          <dt>{t('assetEditor.isTemplate')}</dt>
          <dd>{asset.isTemplate ? t('assetEditor.templateYes') : t('assetEditor.templateNo')}</dd>
        </div>
        {FILES.map(([field, label]) => {
          const url = asset[field];
          return (
            <div key={field}>
              <dt>{t(label)}</dt>
              <dd>
                {url ? (
                  <a
                    href={`${url}?download`}
                    download
                    aria-label={t('assetEditor.downloadFile', { file: t(label) })}
                  >
                    {t('assetEditor.download')}
                  </a>
                ) : (
                  t('assetEditor.noFile')
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

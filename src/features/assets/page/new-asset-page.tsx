import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { assetTemplateQuery } from '../api/cache';
import { Alert } from '../../../ui/dom/alert';
import { announce } from '../../../ui/dom/toasts';
import '../../../ui/dom/editor-page.css';
import '../asset-page.css';
import { Allowed } from '../../../machines/permissions.view';
import { AssetForm } from './asset-form';
import { describeError } from '../../../api/error-info';
import { SectionCrumbs } from '../../../ui/dom/section-crumbs';
import { useDocumentTitle } from '../../../ui/dom/use-document-title';

/** A new asset: blank, or prefilled from the template `templateId`. */
export function NewAssetPage({ templateId }: { templateId?: string | undefined }) {
  return (
    <Allowed requires={['create', 'Asset']}>
      {templateId ? <FromTemplate templateId={templateId} /> : <NewAsset />}
    </Allowed>
  );
}

/** A blank asset. */
function NewAsset() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const title = t('assetEditor.newTitle');
  useDocumentTitle(title, t('assets.title'));
  return (
    <section className="asset-page" aria-labelledby="asset-title">
      <SectionCrumbs section="/assets" current={title} />
      <h1 id="asset-title">{title}</h1>
      <AssetForm
        onSaved={(asset) => {
          announce({ title: t('toasts.created', { name: asset.name }), tone: 'success' });
          void navigate({ to: '/assets/$assetId', params: { assetId: asset.id }, replace: true });
        }}
      />
    </section>
  );
}

/** A new asset prefilled from a template (the private using-template call creates it). */
function FromTemplate({ templateId }: { templateId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const template = useQuery(assetTemplateQuery(templateId));
  const title = template.data
    ? t('assetEditor.fromTemplateTitle', { name: template.data.name })
    : t('assetEditor.newTitle');
  useDocumentTitle(title, t('assets.title'));
  return (
    <section className="asset-page" aria-labelledby="asset-title">
      <SectionCrumbs section="/assets" current={title} />
      <h1 id="asset-title">{title}</h1>
      {template.isError && (
        <Alert tone="error">
          {t('assetEditor.templateFailed', { message: describeError(template.error, t) })}
        </Alert>
      )}
      {template.data ? (
        <AssetForm
          key={template.data.id}
          template={template.data}
          onSaved={(asset) => {
            announce({ title: t('toasts.created', { name: asset.name }), tone: 'success' });
            void navigate({ to: '/assets/$assetId', params: { assetId: asset.id }, replace: true });
          }}
        />
      ) : (
        !template.isError && <p role="status">{t('assetEditor.loading')}</p>
      )}
    </section>
  );
}

import { useTranslation } from 'react-i18next';
import type { ValidationReport as Report } from '../../../../contract/schemas';
import { Alert } from '../../../ui/dom/alert';

/** The glTF validator's verdict: valid or not, the counts, and the first problems. */
export function ValidationReport({ report }: { report: Report }) {
  const { t } = useTranslation();
  const first = (title: string, items: Report['errors']) =>
    items.length > 0 && (
      <>
        <h3>{title}</h3>
        <ul className="report-list">
          {items.slice(0, 5).map((item, index) => (
            <li key={`${item.code}-${index}`}>
              <code>{item.code}</code> {item.message}
              {item.pointer && <code className="muted"> {item.pointer}</code>}
            </li>
          ))}
        </ul>
      </>
    );
  return (
    <div className="validation-report" data-valid={report.valid}>
      <Alert tone={report.valid ? 'success' : 'error'}>
        {report.valid ? t('assetEditor.valid') : t('assetEditor.invalid')}{' '}
        {t('assetEditor.reportCounts', {
          errors: report.errors.length,
          warnings: report.warnings.length,
          infos: report.infos,
          hints: report.hints,
        })}
      </Alert>
      {first(t('assetEditor.reportErrors'), report.errors)}
      {first(t('assetEditor.reportWarnings'), report.warnings)}
    </div>
  );
}

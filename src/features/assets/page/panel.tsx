import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/error-info';
import { Alert } from '../../../ui/dom/alert';

/**
 * A titled section of the asset page. `busy` while its content is first read: it says
 * "Loading…" (and `aria-busy`) instead of showing nothing until the content arrives and moves
 * the panels below it.
 */
export function Panel({
  title,
  children,
  busy = false,
}: {
  title: string;
  children: ReactNode;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const id = `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={id} aria-busy={busy || undefined}>
      <h2 id={id}>{title}</h2>
      {busy && <p className="field-description">{t('assetEditor.loading')}</p>}
      {children}
    </section>
  );
}

/** A failed call in words, or nothing while there is none. */
export function Failure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const message = describeError(error, t);
  return message ? <Alert tone="error">{message}</Alert> : null;
}

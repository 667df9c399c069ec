import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../api/error-info';
import { Alert } from '../../../ui/dom/alert';

/** A titled section of the asset page. */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = `panel-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
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

import type { ReactNode } from 'react';
import { useDocumentTitle } from './use-document-title';

/** A screen the user's role may not use: says so plainly and offers a way on. */
export function NotAvailable(props: { title: string; message: string; action: ReactNode }) {
  useDocumentTitle(props.title);
  return (
    <section className="not-available" aria-labelledby="not-available-title">
      <h1 id="not-available-title">{props.title}</h1>
      <p>{props.message}</p>
      <p>{props.action}</p>
    </section>
  );
}

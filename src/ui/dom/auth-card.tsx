import type { ReactNode } from 'react';
import { useFirstPaintGone } from './first-paint';
import { useDocumentTitle } from './use-document-title';

interface AuthCardProps {
  appName: string;
  title: string;
  /** The browser tab's title where the heading is a sentence (default: the title). */
  documentTitle?: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card every account screen uses. */
export function AuthCard(props: AuthCardProps) {
  const { appName, title, intro, children, footer } = props;
  useDocumentTitle(props.documentTitle ?? title);
  useFirstPaintGone();
  return (
    <main id="main" className="auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        <p className="brand" aria-hidden="true">
          <span className="brand-mark" /> {appName}
        </p>
        <h1 id="auth-title">{title}</h1>
        {intro && <div className="intro">{intro}</div>}
        {children}
        {footer && <div className="auth-footer">{footer}</div>}
      </section>
    </main>
  );
}

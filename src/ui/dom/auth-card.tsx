import type { ReactNode } from 'react';

interface AuthCardProps {
  appName: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card every account screen uses. */
export function AuthCard({ appName, title, intro, children, footer }: AuthCardProps) {
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

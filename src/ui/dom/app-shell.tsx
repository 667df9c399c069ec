import type { ReactNode } from 'react';

interface AppShellProps {
  appName: string;
  skipLabel: string;
  navLabel: string;
  /** Navigation links (rendered by the route layer, which owns the router). */
  nav: ReactNode;
  /** Who is signed in, and sign-out. */
  account: ReactNode;
  children: ReactNode;
}

/** The signed-in frame: a header with navigation and account, then the page. */
export function AppShell({ appName, skipLabel, navLabel, nav, account, children }: AppShellProps) {
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {skipLabel}
      </a>
      <header className="app-header">
        <p className="brand">
          <span className="brand-mark" aria-hidden="true" /> {appName}
        </p>
        <nav aria-label={navLabel} className="app-nav">
          {nav}
        </nav>
        <div className="account">{account}</div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

import { useState, type ReactNode } from 'react';

interface AppShellProps {
  appName: string;
  skipLabel: string;
  navLabel: string;
  /** The phone's button that opens the navigation. */
  menuLabel: string;
  /** Navigation links (rendered by the route layer, which owns the router). */
  nav: ReactNode;
  /** Who is signed in, and sign-out. */
  account: ReactNode;
  children: ReactNode;
}

/** The signed-in frame: a header with navigation and account, then the page. */
export function AppShell(props: AppShellProps) {
  const { appName, skipLabel, navLabel, menuLabel, nav, account, children } = props;
  // On a phone the navigation folds into a menu button; choosing a screen folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {skipLabel}
      </a>
      <header className="app-header">
        <p className="brand">
          <span className="brand-mark" aria-hidden="true" /> {appName}
        </p>
        <button
          type="button"
          className="button menu-button"
          aria-expanded={menuOpen}
          aria-controls="app-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuLabel}
        </button>
        <nav
          id="app-nav"
          aria-label={navLabel}
          className={menuOpen ? 'app-nav open' : 'app-nav'}
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) setMenuOpen(false);
          }}
        >
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

import { useState, type MouseEvent, type ReactNode } from 'react';

interface AppShellProps {
  appName: string;
  skipLabel: string;
  navLabel: string;
  /** The phone's button that opens the navigation and the account. */
  menuLabel: string;
  /** Navigation links (rendered by the route layer, which owns the router). */
  nav: ReactNode;
  /** Always in the header's first row, on a phone too (the live indicator). */
  status?: ReactNode;
  /**
   * The status again, in words, at the top of the open phone menu: the first row has room only
   * for its dot, and a tooltip does not open on touch.
   */
  menuStatus?: ReactNode;
  /** Who is signed in, the colour scheme and sign-out; in the menu on a phone. */
  account: ReactNode;
  children: ReactNode;
}

/** The signed-in frame: a header with navigation and account, then the page. */
export function AppShell(props: AppShellProps) {
  const { appName, skipLabel, navLabel, menuLabel, nav, status, menuStatus, account, children } =
    props;
  // On a phone the navigation and the account fold into a menu button; following a link
  // there folds it again.
  const [menuOpen, setMenuOpen] = useState(false);
  const closeOnLink = (event: MouseEvent) => {
    if ((event.target as HTMLElement).closest('a')) setMenuOpen(false);
  };
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {skipLabel}
      </a>
      <header className={menuOpen ? 'app-header menu-open' : 'app-header'}>
        <p className="brand">
          <span className="brand-mark" aria-hidden="true" /> {appName}
        </p>
        <button
          type="button"
          className="button menu-button"
          aria-expanded={menuOpen}
          aria-controls="app-nav app-account"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuLabel}
        </button>
        <nav id="app-nav" aria-label={navLabel} className="app-nav" onClick={closeOnLink}>
          {nav}
        </nav>
        {/* One row on wide screens; on a phone the status stays beside Menu and the details
            open with the menu, below the navigation. */}
        <div className="account">
          {status && <div className="header-status">{status}</div>}
          {/* A link here (Create an account) leaves the screen like one in the navigation. */}
          <div id="app-account" className="account-details" onClick={closeOnLink}>
            {menuOpen && menuStatus && <p className="menu-status">{menuStatus}</p>}
            {account}
          </div>
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

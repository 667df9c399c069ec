import { useState, type MouseEvent, type ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Modal, ModalOverlay } from 'react-aria-components';
import { useFirstPaintGone } from './first-paint';
import { NavIcon } from './nav-icons';
import { remember, remembered } from '../remembered';
import { PHONE_QUERY, useMediaQuery } from './use-media-query';

/** One place of the navigation: its label (the tooltip of a collapsed sidebar) and its link. */
interface NavItem {
  key: string;
  label: string;
  link: ReactNode;
}

/** A group of places under a heading ("Catalogue", "People", "System"). */
export interface NavGroup {
  id: string;
  label: string;
  items: readonly NavItem[];
}

interface AppShellProps {
  appName: string;
  skipLabel: string;
  navLabel: string;
  /** The phone's button that opens the navigation and the account. */
  menuLabel: string;
  closeMenuLabel: string;
  /** The sidebar's button, as it reads while the sidebar is open and while it is collapsed. */
  collapseLabel: string;
  expandLabel: string;
  /** Navigation links (rendered by the route layer, which owns the router), grouped. */
  groups: readonly NavGroup[];
  /** Always in the header, on a phone too (the live indicator, a dot beside Menu). */
  status?: ReactNode;
  /**
   * The status again, in words, at the top of the open phone menu: the header has room only
   * for its dot, and a tooltip does not open on touch.
   */
  menuStatus?: ReactNode;
  /** Who is signed in, the colour scheme and sign-out; in the menu on a phone. */
  account: ReactNode;
  children: ReactNode;
}

const COLLAPSED_KEY = 'avatar-studio.nav-collapsed';

const rememberedCollapse = () => remembered(COLLAPSED_KEY) === 'true';

const rememberCollapse = (collapsed: boolean) => remember(COLLAPSED_KEY, collapsed ? 'true' : null);

/**
 * The signed-in frame. On a wide screen: a sidebar with the brand and the navigation in
 * groups, collapsible to its icons (the choice remembered in this browser), and a header with
 * the live state and the account beside the page. On a phone: a header with the brand, the
 * live dot and Menu, which opens the navigation and the account as a modal drawer (focus kept
 * inside, Escape closes it, focus back on Menu).
 */
export function AppShell(props: AppShellProps) {
  const { appName, skipLabel, navLabel, menuLabel, closeMenuLabel, groups, status } = props;
  const { menuStatus, account } = props;
  // A phone keeps the navigation and the account behind Menu.
  const phone = useMediaQuery(PHONE_QUERY);
  const [collapsed, setCollapsed] = useState(rememberedCollapse);
  const [menuOpen, setMenuOpen] = useState(false);
  // Following a link in the menu closes it.
  const closeOnLink = (event: MouseEvent) => {
    if ((event.target as HTMLElement).closest('a')) setMenuOpen(false);
  };
  const toggleCollapsed = () => {
    rememberCollapse(!collapsed);
    setCollapsed(!collapsed);
  };
  const folded = collapsed && !phone;
  useFirstPaintGone();
  const brand = (
    <p className="brand">
      <span className="brand-mark" aria-hidden="true" />{' '}
      <span className={folded ? 'visually-hidden' : undefined}>{appName}</span>
    </p>
  );
  const navigation = (
    <nav id="app-nav" aria-label={navLabel} className="app-nav" onClick={closeOnLink}>
      {groups.map((group) => (
        <div key={group.id} className="nav-group">
          <h2 id={`nav-group-${group.id}`} className="nav-group-heading">
            {group.label}
          </h2>
          <ul aria-labelledby={`nav-group-${group.id}`}>
            {group.items.map((item) => (
              // Collapsed to icons, each says its name on hover (and to screen readers always).
              <li key={item.key} title={folded ? item.label : undefined}>
                {item.link}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
  return (
    <div className="app-shell" data-nav={phone ? 'menu' : collapsed ? 'collapsed' : 'open'}>
      <a className="skip-link" href="#main">
        {skipLabel}
      </a>
      {!phone && (
        <div className="app-sidebar">
          {brand}
          {navigation}
          <button
            type="button"
            className="sidebar-toggle"
            onClick={toggleCollapsed}
            title={folded ? props.expandLabel : undefined}
          >
            <NavIcon name={folded ? 'expand' : 'collapse'} />
            <span className="nav-label">{folded ? props.expandLabel : props.collapseLabel}</span>
          </button>
        </div>
      )}
      <div className="app-frame">
        <header className="app-header">
          {phone && brand}
          {status && <div className="header-status">{status}</div>}
          {!phone && (
            <div id="app-account" className="account account-details">
              {account}
            </div>
          )}
          {phone && (
            <DialogTrigger isOpen={menuOpen} onOpenChange={setMenuOpen}>
              <Button className="button menu-button">{menuLabel}</Button>
              <ModalOverlay className="drawer-overlay" isDismissable>
                <Modal className="drawer">
                  <Dialog className="drawer-dialog" aria-label={menuLabel}>
                    <div className="drawer-top">
                      {brand}
                      <Button slot="close" className="drawer-close" aria-label={closeMenuLabel}>
                        <NavIcon name="close" />
                      </Button>
                    </div>
                    {navigation}
                    {/* A link here (Create an account) leaves the screen like one in the
                        navigation. */}
                    <div id="app-account" className="account account-details" onClick={closeOnLink}>
                      {menuStatus && <p className="menu-status">{menuStatus}</p>}
                      {account}
                    </div>
                  </Dialog>
                </Modal>
              </ModalOverlay>
            </DialogTrigger>
          )}
        </header>
        <main id="main" className="app-main" tabIndex={-1}>
          {props.children}
        </main>
      </div>
    </div>
  );
}

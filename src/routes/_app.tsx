import {
  createFileRoute,
  Link,
  Outlet,
  redirect,
  useNavigate,
  useRouter,
  useRouterState,
} from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  selectIsAnonymous,
  selectIsLoggedIn,
  selectIsLoggingOut,
  selectUser,
} from '../machines/app-session';
import { queryClient } from '../api/query';
import { loadBackOfficeTexts } from '../i18n';
import { AppShell, type NavGroup } from '../ui/dom/app-shell';
import { ColumnLayoutUser } from '../ui/dom/list/column-layout';
import { NavIcon, type NavIconName } from '../ui/dom/nav-icons';
import { ActionButton } from '../ui/dom/action-button';
import { firstPaintShown } from '../ui/dom/first-paint';
import { RouteProgress } from '../ui/dom/route-progress';
import { LiveIndicator } from '../ui/dom/live-indicator';
import { ThemeSwitch } from '../ui/dom/theme-switch';
import { useShellShortcuts } from '../ui/dom/shortcuts';
import { useLiveConnection } from '../machines/live.view';
import { currentLink } from './-nav/current-link';
import { loadPermissions, usePermissions } from '../machines/permissions.view';
import { useSessionActor } from '../machines/session.view';

export const Route = createFileRoute('/_app')({
  beforeLoad: ({ context, location }) => {
    if (!selectIsLoggedIn(context.session.getSnapshot())) {
      throw redirect({ to: '/signin', search: { redirect: location.href } });
    }
  },
  // The frame and heading the server drew are painted before the first screen replaces them.
  loader: () => Promise.all([loadBackOfficeTexts(), loadPermissions(), firstPaintShown()]),
  component: Shell,
});

/** Toasts load with the signed-in area's first screen, not with the sign-in page. */
const Toasts = lazy(() => import('../ui/dom/toasts').then((m) => ({ default: m.Toasts })));

/** The command palette loads on its first Ctrl+K (Cmd+K). */
const AppPalette = lazy(() =>
  import('./-shell/app-palette').then((m) => ({ default: m.AppPalette })),
);

/** The list of shortcuts loads on its first `?`. */
const ShortcutsHelp = lazy(() =>
  import('./-shell/shortcuts-help').then((m) => ({ default: m.ShortcutsHelp })),
);

/** The navigation's groups, in the order of the sidebar. */
const GROUPS = ['catalogue', 'people', 'system'] as const;

/** Screens of the signed-in app, in the order of the sidebar, their group and who may read them. */
const NAV = [
  {
    to: '/',
    label: 'nav.dashboard',
    icon: 'dashboard',
    group: 'catalogue',
    needs: ['read', 'Asset'],
  },
  {
    to: '/assets',
    label: 'nav.assets',
    icon: 'assets',
    group: 'catalogue',
    needs: ['read', 'Asset'],
  },
  {
    to: '/applications',
    label: 'nav.applications',
    icon: 'applications',
    group: 'catalogue',
    needs: ['read', 'Application'],
  },
  {
    to: '/morph-queue',
    label: 'nav.morphQueue',
    icon: 'morphQueue',
    group: 'catalogue',
    needs: ['read', 'MorphedAsset'],
  },
  {
    to: '/morphed-assets',
    label: 'nav.morphedAssets',
    icon: 'morphedAssets',
    group: 'catalogue',
    needs: ['read', 'MorphedAsset'],
  },
  {
    to: '/cage-meshes',
    label: 'nav.cageMeshes',
    icon: 'cageMeshes',
    group: 'catalogue',
    needs: ['read', 'CageMesh'],
  },
  { to: '/tags', label: 'nav.tags', icon: 'tags', group: 'catalogue', needs: ['read', 'Tag'] },
  { to: '/users', label: 'nav.users', icon: 'users', group: 'people', needs: ['read', 'User'] },
  {
    to: '/users/invitations',
    label: 'nav.invitations',
    icon: 'invitations',
    group: 'people',
    needs: ['manage', 'User'],
  },
  // Whoever may delete may restore: the Trash screen (docs/api.md "Trash").
  { to: '/trash', label: 'nav.trash', icon: 'trash', group: 'system', needs: ['delete', 'Asset'] },
  // Who changed what, as the changelog shows it (docs/api.md "Activity log").
  {
    to: '/activity',
    label: 'nav.activity',
    icon: 'activity',
    group: 'system',
    needs: ['update', 'Asset'],
  },
  // Everyone's background changes, which only an admin may see and stop (docs/api.md "Bulk jobs").
  {
    to: '/bulk-jobs',
    label: 'nav.bulkJobs',
    icon: 'bulkJobs',
    group: 'system',
    needs: ['manage', 'all'],
  },
] as const satisfies readonly {
  to: string;
  label: string;
  icon: NavIconName;
  group: (typeof GROUPS)[number];
  needs: readonly [string, string];
}[];

/**
 * The bar at the top while a screen loads. Its own component: every navigation (a list's
 * address included) passes through "pending", and the shell around it need not re-render.
 */
function NavigationProgress({ label }: { label: string }) {
  const pending = useRouterState({ select: (s) => s.status === 'pending' });
  return <RouteProgress pending={pending} label={label} />;
}

function Shell() {
  const { t } = useTranslation();
  const actor = useSessionActor();
  const navigate = useNavigate();
  const router = useRouter();
  const isLoggedIn = useSelector(actor, selectIsLoggedIn);
  const isAnonymous = useSelector(actor, selectIsAnonymous);
  const isLoggingOut = useSelector(actor, selectIsLoggingOut);
  const email = useSelector(actor, (s) => selectUser(s).email);
  const userId = useSelector(actor, (s) => selectUser(s)._id);
  const can = usePermissions();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const nav = NAV.filter(({ needs: [action, subject] }) => can(action, subject));
  const myAssets = userId && can('read', 'UserAsset', { userId }) ? `/users/${userId}/assets` : '';
  const current = currentLink(pathname, [...nav.map((item) => item.to), myAssets]);
  // One live stream per tab: what others change reaches every screen without a reload. Not
  // for a guest, whom the server refuses it (the stream's declaration in contract/routes).
  const live = useLiveConnection(isLoggedIn && !isLoggingOut && can('read', 'Tag'));
  const liveLabels = {
    connecting: t('live.connecting'),
    connected: t('live.connected'),
    reconnecting: t('live.reconnecting'),
    offline: t('live.offline'),
  };

  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  useShellShortcuts({ openPalette: () => setPaletteOpen(true), openHelp: () => setHelpOpen(true) });
  /** A link's content: its icon, and its name (only the icon shows in a collapsed sidebar). */
  const linkContent = (icon: NavIconName, label: string) => (
    <>
      <NavIcon name={icon} />
      <span className="nav-label">{label}</span>
    </>
  );
  // The screens of the navigation, for the sidebar and the command palette.
  const screens = [
    ...nav.map((item) => ({
      key: item.to,
      group: item.group,
      label: t(item.label),
      link: (
        <Link
          to={item.to}
          // One link is current (the longest match): not Users too on Invitations, Assets on
          // an asset's page.
          activeOptions={{ exact: true }}
          aria-current={item.to === current ? 'page' : undefined}
        >
          {linkContent(item.icon, t(item.label))}
        </Link>
      ),
      go: () => void navigate({ to: item.to }),
    })),
    ...(myAssets && userId
      ? [
          {
            key: 'my-assets',
            group: 'people' as const,
            label: t('nav.myAssets'),
            link: (
              <Link
                to="/users/$userId/assets"
                params={{ userId }}
                activeOptions={{ exact: true }}
                aria-current={myAssets === current ? 'page' : undefined}
              >
                {linkContent('myAssets', t('nav.myAssets'))}
              </Link>
            ),
            go: () => void navigate({ to: '/users/$userId/assets', params: { userId } }),
          },
        ]
      : []),
  ];
  const groups: NavGroup[] = GROUPS.map((group) => ({
    id: group,
    label: t(`nav.${group}`),
    items: screens.filter((screen) => screen.group === group),
  })).filter((group) => group.items.length > 0);

  // Covers sign-out here and in another tab. An ended session has already been sent to
  // /signin?reason=login_required by the session machine; that notice must stay.
  useEffect(() => {
    if (isLoggedIn || isLoggingOut) return;
    if (router.history.location.pathname !== '/signin') void navigate({ to: '/signin' });
  }, [isLoggedIn, isLoggingOut, navigate, router]);

  return (
    <AppShell
      appName={t('app.name')}
      skipLabel={t('app.skipToContent')}
      navLabel={t('nav.label')}
      menuLabel={t('nav.menu')}
      closeMenuLabel={t('nav.closeMenu')}
      collapseLabel={t('nav.collapse')}
      expandLabel={t('nav.expand')}
      groups={groups}
      status={live && <LiveIndicator status={live} labels={liveLabels} />}
      menuStatus={live && <LiveIndicator status={live} labels={liveLabels} inMenu />}
      account={
        <>
          {isAnonymous ? (
            <span className="account-who">
              <span>{t('nav.guest')}</span> <Link to="/signup">{t('nav.createAccount')}</Link>
            </span>
          ) : (
            // Cut short only on a narrow desktop; the tooltip has it whole.
            <span className="account-who" title={t('nav.signedInAs', { email })}>
              {t('nav.signedInAs', { email })}
            </span>
          )}
          <Link to="/account" className="account-link">
            {t('nav.account')}
          </Link>
          <ThemeSwitch
            label={t('theme.label')}
            options={{
              system: t('theme.system'),
              light: t('theme.light'),
              dark: t('theme.dark'),
            }}
          />
          <ActionButton
            isPending={isLoggingOut}
            pendingLabel={t('nav.signingOut')}
            onPress={() => actor.send({ type: 'LOGOUT' })}
          >
            {t('nav.signOut')}
          </ActionButton>
        </>
      }
    >
      <NavigationProgress label={t('app.loadingPage')} />
      <QueryClientProvider client={queryClient}>
        <ColumnLayoutUser value={userId ?? ''}>
          <Outlet />
        </ColumnLayoutUser>
      </QueryClientProvider>
      <Suspense fallback={null}>
        <Toasts label={t('toasts.region')} closeLabel={t('toasts.close')} />
        {paletteOpen && <AppPalette screens={screens} onClose={() => setPaletteOpen(false)} />}
        {helpOpen && <ShortcutsHelp onClose={() => setHelpOpen(false)} />}
      </Suspense>
    </AppShell>
  );
}

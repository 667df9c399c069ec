/**
 * The command palette's commands for the signed-in user: every screen their role can open,
 * the common actions (new asset, new cage mesh, search this list, theme, account, sign out),
 * each only where the role may do it, then the records found for the text typed
 * (record-search.ts).
 */
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissions } from '../../machines/permissions.view';
import { useSessionActor } from '../../machines/session.view';
import { CommandPalette, RECORD_PREFIX, type Command } from '../../ui/dom/command-palette';
import { useRecordSearch, type FoundRecord } from './record-search';
import { listSearchField } from '../../ui/dom/shortcuts';
import { chooseTheme } from '../../ui/theme';

/** A screen of the navigation as the palette offers it. */
export interface Screen {
  label: string;
  go: () => void;
}

function useAppCommands(screens: readonly Screen[], records: readonly FoundRecord[]): Command[] {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = usePermissions();
  const session = useSessionActor();
  const goTo = t('palette.goTo');
  const actions = t('palette.actions');
  const commands: Command[] = screens.map((screen, index) => ({
    id: `screen-${index}`,
    label: screen.label,
    group: goTo,
    run: screen.go,
  }));

  if (can('create', 'Asset'))
    commands.push({
      id: 'new-asset',
      label: t('palette.newAsset'),
      group: actions,
      keywords: t('palette.newAssetKeywords'),
      run: () => void navigate({ to: '/assets/new' }),
    });
  if (can('create', 'CageMesh'))
    commands.push({
      id: 'new-cage-mesh',
      label: t('palette.newCageMesh'),
      group: actions,
      keywords: t('palette.newAssetKeywords'),
      run: () => void navigate({ to: '/cage-meshes/new' }),
    });
  if (listSearchField())
    commands.push({
      id: 'search',
      label: t('palette.search'),
      group: actions,
      shortcut: '/',
      // After the dialog has closed and given focus back.
      run: () => setTimeout(() => listSearchField()?.focus(), 0),
    });
  for (const theme of ['light', 'dark', 'system'] as const)
    commands.push({
      id: `theme-${theme}`,
      label: t('palette.theme', { theme: t(`theme.${theme}`) }),
      group: actions,
      keywords: t('palette.themeKeywords'),
      run: () => chooseTheme(theme),
    });
  commands.push(
    {
      id: 'account',
      label: t('nav.account'),
      group: actions,
      run: () => void navigate({ to: '/account' }),
    },
    {
      id: 'sign-out',
      label: t('nav.signOut'),
      group: actions,
      keywords: t('palette.signOutKeywords'),
      run: () => session.send({ type: 'LOGOUT' }),
    },
  );
  // Last: a screen or an action the letters name stays the first match (Enter runs it).
  for (const record of records)
    commands.push({
      id: `${RECORD_PREFIX}${record.kind}:${record.id}`,
      label: record.label,
      detail: record.detail,
      group: t(`palette.${record.kind}`),
      run: record.open,
    });
  return commands;
}

/** The palette, open, with the user's commands (loaded on the first Ctrl+K). */
export function AppPalette({
  screens,
  onClose,
}: {
  screens: readonly Screen[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useRecordSearch(text);
  const failed = search.failed.map((kind) => t(`palette.${kind}`).toLowerCase()).join(', ');
  return (
    <CommandPalette
      isOpen
      onClose={onClose}
      onInputChange={setText}
      status={
        failed
          ? t('palette.searchFailed', { kinds: failed })
          : search.searching
            ? t('palette.searching')
            : ''
      }
      commands={useAppCommands(screens, search.records)}
      labels={{
        title: t('palette.title'),
        search: t('palette.searchLabel'),
        placeholder: t('palette.placeholder'),
        none: t('palette.none'),
      }}
    />
  );
}

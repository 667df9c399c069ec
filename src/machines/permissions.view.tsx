/**
 * The signed-in user's permissions for the back office: `usePermissions()` answers
 * `can(action, subject, record?)` from the rules in the session's access token. CASL loads
 * with the signed-in area (`loadPermissions` in its route loader), never with the sign-in page.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Action, Can, Subject, SubjectFields } from '../../contract/ability';
import { NotAvailable } from '../ui/dom/not-available';
import type { SessionActor } from './app-session';
import { useSessionActor } from './session.view';

const importChecks = () =>
  import('../../contract/ability').then(({ abilityClaimOf, permissionsOf }) => ({
    abilityClaimOf,
    permissionsOf,
  }));
let ability: Awaited<ReturnType<typeof importChecks>> | undefined;

/** Loads the permission checks; the signed-in area's loader awaits it before it renders. */
export async function loadPermissions(): Promise<void> {
  ability ??= await importChecks();
}

/** What the signed-in user may do; stable while their rules stay the same across refreshes. */
export function usePermissions(): Can {
  const module = ability;
  if (!module) throw new Error('usePermissions: call loadPermissions() in a route loader');
  // The claim as text: a refreshed token with the same rules selects an equal string.
  const rules = useSelector(useSessionActor(), (snapshot) =>
    JSON.stringify(module.abilityClaimOf(snapshot.context.data.token) ?? null),
  );
  return useMemo(() => module.permissionsOf(JSON.parse(rules)), [module, rules]);
}

/** A screen's requirement: the action, the subject and, for conditions, the record. */
export type Requirement = readonly [Action, Subject, SubjectFields?];

/** Shows `children` when the user may do `requires`, else a page saying it is not for them. */
export function Allowed({ requires, children }: { requires: Requirement; children: ReactNode }) {
  const can = usePermissions();
  const { t } = useTranslation();
  if (can(...requires)) return children;
  return (
    <NotAvailable
      title={t('permissions.notAvailableTitle')}
      message={t('permissions.notAvailable')}
      action={<Link to="/">{t('permissions.home')}</Link>}
    />
  );
}

/** The checks of the session as it is now, for route loaders (after `loadPermissions`). */
export function permissionsOfSession(session: SessionActor): Can {
  if (!ability) throw new Error('permissionsOfSession: await loadPermissions() first');
  return ability.permissionsOf(ability.abilityClaimOf(session.getSnapshot().context.data.token));
}

import type { TFunction } from 'i18next';
import type { Role, UserRow } from '../../../contract/schemas';
import { badgeCell } from '../../ui/dom/list/cells';

/** The roles an administrator may give (a guest account has no e-mail to give one to). */
export const GIVEN_ROLES = ['admin', 'developer', 'user'] as const satisfies readonly Role[];

/** A user as people name them: the e-mail, or "guest" for an account without one. */
export const userName = (t: TFunction, user: Pick<UserRow, 'email'>) =>
  user.email ?? t('users.noEmail');

export const roleLabel = (t: TFunction, role: Role) => t(`users.roles.${role}`);

/** "Active", "Invited" or a red "Disabled". */
export const statusBadge = (t: TFunction, user: Pick<UserRow, 'status'>) =>
  badgeCell(t(`users.statuses.${user.status}`), user.status === 'disabled' ? 'failed' : undefined);

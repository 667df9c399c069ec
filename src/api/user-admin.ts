/**
 * The back office's user administration (server/README.md "Users"): role changes, disable and
 * enable, bulk changes, password reset codes and the sessions of one user. Every call fails with
 * `service: 'privateUsers'`; each change invalidates the user, the users list and (where it
 * touches them) the user's sessions.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiRequest } from './http';
import { invalidateList } from './lists';
import { queryClient } from './query';
import {
  sessionInfoSchema,
  sessionsEndedSchema,
  userBulkResultSchema,
  userRowSchema,
  type Role,
  type UserBulkResult,
  type UserRow,
} from './schemas';
import { userQuery } from './user-assets';

const service = tagService('privateUsers');
/** The users list's endpoint (the /users screen). */
export const USERS_ENDPOINT = 'private/v1/users';
const userPath = (id: string) => `${USERS_ENDPOINT}/${encodeURIComponent(id)}`;
const sessionsKey = (id: string) => ['users', id, 'sessions'] as const;

/** The live sessions of a user (admins). */
export const userSessionsQuery = (id: string) =>
  queryOptions({
    queryKey: sessionsKey(id),
    queryFn: ({ signal }) =>
      service(() => apiRequest(`${userPath(id)}/sessions`, z.array(sessionInfoSchema), { signal })),
  });

/** After a change of users: their records, their sessions and the list. */
async function usersChanged(ids: readonly string[]): Promise<void> {
  await Promise.all([
    invalidateList(USERS_ENDPOINT),
    ...ids.map((id) => queryClient.invalidateQueries({ queryKey: userQuery(id).queryKey })),
  ]);
}

async function changed(user: UserRow): Promise<UserRow> {
  queryClient.setQueryData(userQuery(user.id).queryKey, user);
  await usersChanged([user.id]);
  return user;
}

/**
 * Gives a user a role. Based on `baseVersion` (the version shown), a role someone else changed
 * since answers 409 EDIT_CONFLICT.
 */
export async function changeUserRole(
  id: string,
  role: Role,
  baseVersion?: number,
): Promise<UserRow> {
  const user = await service(() =>
    apiRequest(userPath(id), userRowSchema, { method: 'patch', json: { role }, baseVersion }),
  );
  return changed(user);
}

/** Disables (every session ends, sign-in is refused) or enables a user. */
export async function setUserDisabled(id: string, disabled: boolean): Promise<UserRow> {
  const action = disabled ? 'disable' : 'enable';
  const user = await service(() =>
    apiRequest(`${userPath(id)}/${action}`, userRowSchema, { method: 'post', json: {} }),
  );
  return changed(user);
}

/** A change of several users at once: all or none. */
export type UserBulkChange = { kind: 'disable' | 'enable' } | { kind: 'role'; role: Role };

/** Applies `change` to the users `ids`; answers which were changed. */
export async function bulkChangeUsers(
  ids: string[],
  change: UserBulkChange,
): Promise<UserBulkResult> {
  const json = change.kind === 'role' ? { ids, role: change.role } : { ids };
  const result = await service(() =>
    apiRequest(`${USERS_ENDPOINT}/bulk-${change.kind}`, userBulkResultSchema, {
      method: 'post',
      json,
    }),
  );
  await usersChanged(ids);
  return result;
}

/** Mails the user a password reset code. */
export function sendPasswordReset(id: string): Promise<unknown> {
  return service(() =>
    apiRequest(`${userPath(id)}/reset-password`, z.unknown(), { method: 'post', json: {} }),
  );
}

/** Ends one session of a user (`sessionId`) or all of them; answers how many ended. */
export async function endUserSessions(id: string, sessionId?: string): Promise<number> {
  const path =
    sessionId === undefined
      ? `${userPath(id)}/sessions`
      : `${userPath(id)}/sessions/${encodeURIComponent(sessionId)}`;
  const { ended } = await service(() =>
    apiRequest(path, sessionsEndedSchema, { method: 'delete' }),
  );
  await queryClient.invalidateQueries({ queryKey: sessionsKey(id) });
  return ended;
}

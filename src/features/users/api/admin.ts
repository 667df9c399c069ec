/**
 * The back office's user administration (docs/api.md "Users"): role changes, disable and
 * enable, bulk changes, password reset codes and the sessions of one user. Every call fails with
 * `service: 'privateUsers'`; each change invalidates the user, the users list, the user's recent
 * activity and (where it touches them) the user's sessions.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { tagService } from '../../../api/errors';
import { apiRequest } from '../../../api/http';
import { fetchList, invalidateList } from '../../../api/lists';
import { queryClient } from '../../../api/query';
import {
  activityRowSchema,
  sessionInfoSchema,
  sessionsEndedSchema,
  userBulkResultSchema,
  userRowSchema,
  type Role,
  type UserBulkResult,
  type UserRow,
} from '../../../../contract/schemas';
import { secondFactorRemovedSchema } from '../../../../contract/account-schemas';
import { userQuery } from '../../../api/user-assets';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';

const service = tagService('privateUsers');
/** The users list's endpoint (the /users screen). */
export const USERS_ENDPOINT = endpoint(ENDPOINTS.users);
const sessionsKey = (id: string) => ['users', id, 'sessions'] as const;
const activityKey = (id: string) => ['users', id, 'activity'] as const;

/** How many of a user's latest events their page shows; the activity log has the rest. */
const RECENT_ACTIVITY = 5;

/** What a user did and what was done to their account, newest first (GET /v1/activity). */
export const userActivityQuery = (id: string) =>
  queryOptions({
    queryKey: activityKey(id),
    queryFn: ({ signal }) =>
      fetchList(
        endpoint(ENDPOINTS.activity),
        { limit: RECENT_ACTIVITY, filter: { involves: id } },
        activityRowSchema,
        { signal },
      ),
  });

/** The live sessions of a user (admins). */
export const userSessionsQuery = (id: string) =>
  queryOptions({
    queryKey: sessionsKey(id),
    queryFn: ({ signal }) =>
      service(() =>
        apiRequest(endpoint(ENDPOINTS.userSessions, { id }), z.array(sessionInfoSchema), {
          signal,
        }),
      ),
  });

/** After a change of users: their records, their sessions and the list. */
async function usersChanged(ids: readonly string[]): Promise<void> {
  await Promise.all([
    invalidateList(USERS_ENDPOINT),
    ...ids.flatMap((id) => [
      queryClient.invalidateQueries({ queryKey: userQuery(id).queryKey }),
      queryClient.invalidateQueries({ queryKey: activityKey(id) }),
    ]),
  ]);
}

async function changed(user: UserRow): Promise<UserRow> {
  // A change's answer leaves out what only the user's own read says (two-step sign-in).
  queryClient.setQueryData(userQuery(user.id).queryKey, (old) => ({ ...old, ...user }));
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
    apiRequest(endpoint(ENDPOINTS.user, { id }), userRowSchema, {
      method: 'patch',
      json: { role },
      baseVersion,
    }),
  );
  return changed(user);
}

/** Disables (every session ends, sign-in is refused) or enables a user. */
export async function setUserDisabled(id: string, disabled: boolean): Promise<UserRow> {
  const action = disabled ? 'disable' : 'enable';
  const user = await service(() =>
    apiRequest(endpoint(ENDPOINTS.userAction[action], { id }), userRowSchema, {
      method: 'post',
      json: {},
    }),
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
    apiRequest(endpoint(ENDPOINTS.usersBulk[change.kind]), userBulkResultSchema, {
      method: 'post',
      json,
    }),
  );
  await usersChanged(ids);
  return result;
}

/** Mails the user a code (`reset-password`, or `resend-verification` of an unverified address). */
export async function mailUserCode(
  id: string,
  kind: 'reset-password' | 'resend-verification',
): Promise<unknown> {
  const answer = await service(() =>
    apiRequest(endpoint(ENDPOINTS.userAction[kind], { id }), z.unknown(), {
      method: 'post',
      json: {},
    }),
  );
  await queryClient.invalidateQueries({ queryKey: activityKey(id) });
  return answer;
}

/**
 * Removes a user's two-step sign-in (their authenticator and recovery codes), the way back for
 * someone who lost both; their sessions end. Not for one's own (the account page does that).
 */
export async function resetUserSecondFactor(id: string): Promise<void> {
  await service(() =>
    apiRequest(endpoint(ENDPOINTS.userSecondFactor, { id }), secondFactorRemovedSchema, {
      method: 'delete',
    }),
  );
  await Promise.all(
    [userQuery(id).queryKey, sessionsKey(id), activityKey(id)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

/** Ends one session of a user (`sessionId`) or all of them; answers how many ended. */
export async function endUserSessions(id: string, sessionId?: string): Promise<number> {
  const path =
    sessionId === undefined
      ? endpoint(ENDPOINTS.userSessions, { id })
      : endpoint(ENDPOINTS.userSession, { id, sid: sessionId });
  const { ended } = await service(() =>
    apiRequest(path, sessionsEndedSchema, { method: 'delete' }),
  );
  await Promise.all(
    [sessionsKey(id), activityKey(id)].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
  return ended;
}

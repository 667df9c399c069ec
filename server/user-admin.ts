/**
 * What an administrator does to other users (docs/api.md "Users"): give a role, disable,
 * enable; one user or many, each change one transaction, all or none.
 *
 * Nobody changes their own role or status, and the users changed and the administrator asking
 * are locked together (rows sorted by id, so two changes never wait on each other in opposite
 * order) before anything is read: an administrator who is no longer an active admin by then
 * (demoted or disabled by a change that committed first) is refused. So the last admin can be
 * neither demoted nor disabled: only another active admin could do it, and that one stays. Two
 * admins demoting each other at once: the second waits for the first, finds its actor demoted,
 * and changes nothing.
 *
 * The row locks alone do not cover an admin leaving by deleting their account (it counts the
 * other admins, rows it does not lock): every change that can take an admin away, and every
 * use of an admin's authority that must outlive no demotion (accepting their invitation), first
 * takes one lock, `lockAdmins`, so each sees the others' outcome.
 */
import {
  roleSchema,
  userStatusSchema,
  type Role,
  type UserRow as UserListRow,
} from '../contract/schemas';
import { revokeAllForUser } from './auth/refresh-tokens';
import { announceSessionChange } from './auth/session-check';
import type { Db } from './db';
import { recordUserEvent } from './events';
import { fail } from './http/errors';
import { anyOfFilter, searchFilter, type ListSpec } from './list';
import { isoOrNull, isoString } from './timestamps';

interface UserDbRow {
  id: string;
  email: string | null;
  role: Role;
  verified_at: Date | null;
  created_at: Date;
  version: number;
  disabled_at: Date | null;
  last_sign_in_at: Date | null;
  status: UserListRow['status'];
}

const USER_COLUMNS =
  'u.id, u.email, u.role, u.verified_at, u.created_at, u.version, u.disabled_at, u.last_sign_in_at';

/**
 * A user's status as SQL (`invited` is a pending invitation's, peopleListSpec). Migration 038
 * indexes this very expression (users_status_email_idx): change both together.
 */
const STATUS_SQL = `CASE WHEN u.disabled_at IS NULL THEN 'active' ELSE 'disabled' END`;

/** Single reads of users, and the changes' locks. */
export const userListSpec: ListSpec<UserListRow, UserDbRow> = {
  from: 'users u',
  columns: `${USER_COLUMNS}, ${STATUS_SQL} AS status`,
  orders: {
    email: 'u.email',
    role: 'u.role',
    createdAt: 'u.created_at',
    lastSignInAt: 'u.last_sign_in_at',
  },
  defaultOrder: 'email',
  idColumn: 'u.id',
  filters: {
    search: searchFilter('u.email'),
    role: anyOfFilter('u.role', roleSchema.options),
    verified: {
      values: ['true', 'false'],
      where: (p) => `(u.verified_at IS NOT NULL) = ${p}::boolean`,
    },
    status: anyOfFilter(STATUS_SQL, userStatusSchema.options),
  },
  toRow: (row: UserDbRow) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    verifiedAt: isoOrNull(row.verified_at),
    createdAt: isoString(row.created_at),
    version: row.version,
    status: row.status,
    disabledAt: isoOrNull(row.disabled_at),
    lastSignInAt: isoOrNull(row.last_sign_in_at),
  }),
};

/**
 * The back office's users list (GET /private/v1/users): the users, and the pending invitations
 * as people with the status `invited` (their id is the invitation's; never verified, never
 * signed in). Only a `status` filter naming `invited` lists them, and only to admins
 * (server/routes/users.ts): everyone else looking for users (pickers) finds accounts.
 */
export const peopleListSpec: ListSpec<UserListRow> = {
  ...userListSpec,
  from: `(SELECT ${USER_COLUMNS}, ${STATUS_SQL} AS status FROM users u
    UNION ALL
    SELECT i.id, i.email, i.role, NULL::timestamptz, i.created_at, 0, NULL::timestamptz,
      NULL::timestamptz, 'invited' FROM invitations i
    WHERE i.accepted_at IS NULL AND i.revoked_at IS NULL) u`,
  columns: `${USER_COLUMNS}, u.status`,
  filters: { ...userListSpec.filters, status: anyOfFilter('u.status', userStatusSchema.options) },
};

/** Where the users list leaves invitations out: without a status filter, or for non-admins. */
export const withoutInvitations = "u.status <> 'invited'";

/** A change an administrator makes to users. */
export type UserChange = { kind: 'role'; role: Role } | { kind: 'disable' } | { kind: 'enable' };

/** Refuses a change that names the administrator asking (400). */
export function refuseSelf(actorId: string, ids: readonly string[], change: UserChange): void {
  if (ids.includes(actorId)) {
    const what = change.kind === 'role' ? 'role' : 'account';
    const verb = change.kind === 'role' ? 'change' : change.kind;
    fail(400, 'VALIDATION_ERROR', `You cannot ${verb} your own ${what}`);
  }
}

/**
 * Holds the administrators' lock until the transaction ends; taken before any row lock, so
 * it never waits inside another order.
 */
export async function lockAdmins(tx: Db): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('admins'))");
}

/** Whether an active administrator other than `userId` remains (read under lockAdmins). */
export async function anotherActiveAdmin(tx: Db, userId: string): Promise<boolean> {
  const { rows } = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM users
     WHERE role = 'admin' AND disabled_at IS NULL AND id <> $1`,
    [userId],
  );
  return rows[0]!.count > 0;
}

/**
 * Locks the administrators (lockAdmins), then `actorId` and the users `ids` (sorted) for a
 * change; answers the users in `ids` order. An unknown id is a 404, an actor who is no longer
 * an active admin a 403. The row locks are FOR NO KEY UPDATE, as in users.ts (why there).
 */
export async function lockUsersForChange(
  tx: Db,
  actorId: string,
  ids: readonly string[],
): Promise<UserListRow[]> {
  await lockAdmins(tx);
  const { rows } = await tx.query<UserDbRow>(
    `SELECT ${userListSpec.columns} FROM users u WHERE u.id = ANY($1::text[])
     ORDER BY u.id FOR NO KEY UPDATE`,
    [[...new Set([actorId, ...ids])]],
  );
  const actor = rows.find((row) => row.id === actorId);
  if (actor?.role !== 'admin' || actor.disabled_at !== null) {
    fail(403, 'FORBIDDEN', 'You are no longer an active administrator');
  }
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) fail(404, 'NOT_FOUND', `No users with ids ${missing.join(', ')}`);
  return ids.map((id) => userListSpec.toRow(rows.find((row) => row.id === id)!));
}

/** Whether `change` would change `user`. */
function changes(user: UserListRow, change: UserChange): boolean {
  switch (change.kind) {
    case 'role':
      return user.role !== change.role;
    case 'disable':
      return user.status !== 'disabled';
    case 'enable':
      return user.status === 'disabled';
  }
}

/**
 * Applies `change` to the locked `users` (lockUsersForChange) that it changes; answers every
 * user afterwards and the ids changed. Disabling ends every session of the user at once: its
 * access tokens are refused from the next request on, on every server (server/auth/session-check.ts).
 */
export async function applyUserChange(
  tx: Db,
  users: readonly UserListRow[],
  change: UserChange,
  actorId: string,
  now: Date,
): Promise<{ changed: string[]; users: UserListRow[] }> {
  if (change.kind === 'role') {
    const anonymous = users.filter((user) => user.role === 'anonymous');
    if (change.role === 'anonymous' || anonymous.length > 0) {
      fail(400, 'VALIDATION_ERROR', 'Anonymous accounts have no e-mail: they cannot change role');
    }
  }
  const changed = users.filter((user) => changes(user, change)).map((user) => user.id);
  if (changed.length > 0) {
    const [set, params] =
      change.kind === 'role'
        ? ['role = $2', [change.role]]
        : ['disabled_at = $2', [change.kind === 'disable' ? now : null]];
    await tx.query(`UPDATE users SET ${set} WHERE id = ANY($1::text[])`, [changed, ...params]);
    for (const user of users.filter((each) => changed.includes(each.id))) {
      announceSessionChange(tx, `u:${user.id}`);
      if (change.kind === 'disable') await revokeAllForUser(tx, user.id, now);
      await recordUserAdminEvent(tx, { userId: user.id, change, from: user }, actorId, now);
    }
  }
  const { rows } = await tx.query<UserDbRow>(
    `SELECT ${userListSpec.columns} FROM users u WHERE u.id = ANY($1::text[])`,
    [users.map((user) => user.id)],
  );
  const byId = new Map(rows.map((row) => [row.id, userListSpec.toRow(row)]));
  return { changed, users: users.map((user) => byId.get(user.id)!) };
}

/** An administrator's action on a user, for the event log. */
export type UserAdminAction =
  | { userId: string; change: UserChange; from: UserListRow }
  | { userId: string; action: 'passwordResetSent' | 'verificationSent' | 'secondFactorReset' };

/**
 * THE place where every administrator action on a user becomes an event of the activity log
 * (server/events.ts `recordUserEvent`, only admins see them): role changed, disabled, enabled
 * (applyUserChange, in the change's transaction), password reset or verification code sent. Sessions ended by
 * an administrator record theirs in server/routes/sessions.ts.
 */
export async function recordUserAdminEvent(
  tx: Db,
  action: UserAdminAction,
  actorId: string,
  at: Date,
): Promise<void> {
  const { userId } = action;
  if ('action' in action) {
    await recordUserEvent(tx, { userId, event: action.action, actorId, at });
    return;
  }
  const { change, from } = action;
  if (change.kind === 'role') {
    const data = { changes: { role: { from: from.role, to: change.role } } };
    await recordUserEvent(tx, { userId, event: 'roleChanged', actorId, data, at });
  } else {
    const event = change.kind === 'disable' ? 'disabled' : 'enabled';
    await recordUserEvent(tx, { userId, event, actorId, at });
  }
}

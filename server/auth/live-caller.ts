/**
 * The rule that lets a token's session through (requireAuth), and the same rule read again
 * inside the transaction of a change to the caller's own account.
 *
 * requireAuth checks the session before the route runs; a route that changes the account's
 * address, password, second factor or existence does its work later, after a password hash or
 * a code check. Whatever ends the session in between (an invitation accepted into the account,
 * a password reset, a disable, a logout) would otherwise be overtaken by the change: a stranger
 * whose session was ended by the invitee's accept could still move the account's address to
 * their own mailbox. Those changes lock the user row first, so a change that holds the lock
 * either committed before them or reads the session they ended.
 */
import type { Db } from '../db';
import { fail } from '../http/errors';
import { findUserById, type UserRow } from '../users';
import type { AccessClaims } from './access-token';
import { readSession, type SessionState } from './session-check';

/**
 * Why session `session` no longer lets the token of `claims` through at `now` (ended, expired,
 * user disabled, role changed, or the second factor its rules rest on gone), or undefined while
 * it does. A token refused for what it may do is refreshed by the client, and the new one
 * carries the rules the account has now.
 */
export function refusalOf(
  session: SessionState | undefined,
  claims: AccessClaims,
  now: Date,
): string | undefined {
  if (
    !session ||
    session.revoked ||
    session.disabled ||
    session.userId !== claims.userId ||
    session.expiresAt.getTime() <= now.getTime()
  ) {
    return 'This session has ended: sign in again';
  }
  if (session.role !== claims.role) return 'Your role has changed: refresh the access token';
  if (claims.restsOnSecondFactor && !session.secondFactor) {
    return 'Your two-step sign-in was turned off: refresh the access token';
  }
  return undefined;
}

/**
 * The caller's user row, locked until `tx` ends (FOR NO KEY UPDATE, as users.ts locks), once
 * the caller's session is read again under that lock: 401, as requireAuth answers, when it no
 * longer lets the token through. Call it first in the transaction of a change to one's account.
 */
export async function lockLiveCaller(tx: Db, claims: AccessClaims, now: Date): Promise<UserRow> {
  const user = await findUserById(tx, claims.userId, true);
  if (!user) fail(401, 'UNAUTHORIZED', 'The signed-in user no longer exists');
  const refusal = refusalOf(await readSession(tx, claims.sessionId), claims, now);
  if (refusal) fail(401, 'UNAUTHORIZED', refusal);
  return user;
}

/**
 * Starting a session: a fresh access token plus the first refresh token of a new family,
 * answered in the `authResultSchema` shape.
 */
import type { AuthResult } from '../../src/api/schemas';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { findUserById, markVerified, toWireUser, type UserRow } from '../users';
import { signAccessToken, type AccessClaims, type TokenSettings } from './access-token';
import { revokeAllForUser, startRefreshFamily } from './refresh-tokens';

/** The access-token settings of this server. */
export function tokenSettings(deps: Deps): TokenSettings {
  return {
    secret: deps.config.keys.tokenSigning,
    ttlSeconds: deps.config.accessTokenTtl,
    now: deps.now,
  };
}

/** Signs in `user`: returns the user with a new token pair. */
export async function startSession(deps: Deps, db: Db, user: UserRow): Promise<AuthResult> {
  const refreshToken = await startRefreshFamily(
    db,
    user.id,
    deps.now(),
    deps.config.refreshTokenTtl,
  );
  const token = await signAccessToken(tokenSettings(deps), user);
  return { ...toWireUser(user), token, refreshToken };
}

/**
 * Whether a proof made with `bearer` shows that whoever holds the mailbox also holds the
 * password of `user`: the bearer is a registered session of that account whose token was issued
 * since the password was set. Such tokens come only from a password sign-up or sign-in (or a
 * refresh of one): a code sign-in of an unverified account removes its password.
 */
function provenByPasswordHolder(user: UserRow, bearer: AccessClaims | undefined): boolean {
  if (!bearer || bearer.userId !== user.id || bearer.role === 'anonymous') return false;
  if (user.password_set_at === null) return false;
  // `iat` has whole seconds: compare with the second the password was set in.
  const setSecond = Math.floor(user.password_set_at.getTime() / 1000) * 1000;
  return bearer.issuedAt.getTime() >= setSecond;
}

/**
 * An address proven by a code sent to it, through any flow: marks the user verified. A
 * password set before the address was ever verified was not necessarily set by its owner
 * (anyone can sign up with any address), so unless the proof came from a session of that
 * password's holder (`bearer`, see provenByPasswordHolder), the password is removed and every
 * session of the account is revoked. `passwordRemoved` says so, for the notice to the owner.
 */
export function proveAddress(
  db: Db,
  userId: string,
  now: Date,
  bearer?: AccessClaims,
): Promise<{ user: UserRow; passwordRemoved: boolean }> {
  return db.transaction(async (tx) => {
    const before = await findUserById(tx, userId, true);
    const passwordRemoved =
      before?.verified_at === null &&
      before.password_hash !== null &&
      !provenByPasswordHolder(before, bearer);
    if (passwordRemoved) {
      await tx.query(
        'UPDATE users SET password_hash = NULL, password_set_at = NULL WHERE id = $1',
        [userId],
      );
      await revokeAllForUser(tx, userId, now);
    }
    return { user: await markVerified(tx, userId, now), passwordRemoved };
  });
}

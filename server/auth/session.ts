/**
 * Starting a session: a fresh access token plus the first refresh token of a new family,
 * answered in the `authResultSchema` shape.
 */
import type { AuthResult } from '../../src/api/schemas';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { findUserById, markVerified, toWireUser, type UserRow } from '../users';
import { signAccessToken, type TokenSettings } from './access-token';
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
 * An address proven by a code sent to it: marks the user verified. A password set before the
 * address was ever verified was not necessarily set by its owner (anyone can sign up with any
 * address), so it is removed and every session of the account is revoked. `passwordRemoved`
 * says so, for the notice to the owner.
 */
export function proveAddress(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ user: UserRow; passwordRemoved: boolean }> {
  return db.transaction(async (tx) => {
    const before = await findUserById(tx, userId, true);
    const passwordRemoved = before?.verified_at === null && before.password_hash !== null;
    if (passwordRemoved) {
      await tx.query('UPDATE users SET password_hash = NULL WHERE id = $1', [userId]);
      await revokeAllForUser(tx, userId, now);
    }
    return { user: await markVerified(tx, userId, now), passwordRemoved };
  });
}

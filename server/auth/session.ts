/**
 * Starting a session: a fresh access token plus the first refresh token of a new family,
 * answered in the `authResultSchema` shape.
 */
import type { AuthResult } from '../../src/api/schemas';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { toWireUser, type UserRow } from '../users';
import { signAccessToken, type TokenSettings } from './access-token';
import { startRefreshFamily } from './refresh-tokens';

/** The access-token settings of this server. */
export function tokenSettings(deps: Deps): TokenSettings {
  return { secret: deps.config.jwtSecret, ttlSeconds: deps.config.accessTokenTtl, now: deps.now };
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

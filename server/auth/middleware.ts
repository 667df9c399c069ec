/**
 * Bearer-token middleware. `requireAuth` answers 401 for a missing, expired or tampered token,
 * and for a token whose session has ended (signed out, ended from the sessions list, password
 * reset, user disabled), whose role is no longer the user's, or whose rules rested on a second
 * factor the account no longer has: the client refreshes, which fails for an ended session and
 * gives a token of the rules the account has now otherwise. `requireAbility`
 * answers 403 when the token's rules do not allow the route.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { asActor } from '../db';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import { underIdempotencyKey } from '../http/idempotency';
import { noteCaller } from '../http/request-log';
import type { Action, Subject } from '../../contract/ability';
import { verifyAccessToken, type AccessClaims } from './access-token';
import { refusalOf } from './live-caller';
import { tokenSettings } from './session';

export type AuthEnv = { Variables: { auth: AccessClaims } };

/** Reads the bearer token of `c`: undefined when absent, 401 when present but invalid. */
export async function readBearer(deps: Deps, c: Context): Promise<AccessClaims | undefined> {
  const header = c.req.header('authorization');
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1]) fail(401, 'UNAUTHORIZED', 'Authorization header must be "Bearer <token>"');
  const result = await verifyAccessToken(tokenSettings(deps), match[1]);
  if (!result.ok) {
    fail(401, 'UNAUTHORIZED', result.expired ? 'Access token expired' : 'Invalid access token');
  }
  const { claims } = result;
  const refusal = await sessionRefusal(deps, claims);
  if (refusal) fail(401, 'UNAUTHORIZED', refusal);
  noteCaller(c.req.raw, claims);
  return claims;
}

/**
 * Why the session of a valid token no longer lets it through (ended, user disabled, role or
 * second factor changed), or undefined while it does. Also checked by open event streams.
 */
export async function sessionRefusal(
  deps: Deps,
  claims: AccessClaims,
): Promise<string | undefined> {
  return refusalOf(await deps.sessions.lookup(claims.sessionId), claims, deps.now());
}

/** Requires a valid bearer token and stores its claims as `c.get('auth')`. */
export function requireAuth(deps: Deps): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const claims = await readBearer(deps, c);
    if (!claims) fail(401, 'UNAUTHORIZED', 'Sign in first: this route needs a bearer token');
    c.set('auth', claims);
    await asActor(claims.userId, () => underIdempotencyKey(deps, c, claims.userId, next));
  };
}

/** Requires that the signed-in user's ability allows `action` on `subject` (after requireAuth). */
export function requireAbility(action: Action, subject: Subject): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    if (!c.get('auth').ability.can(action, subject)) {
      fail(403, 'FORBIDDEN', `Your role may not ${action} ${subject}`);
    }
    await next();
  };
}

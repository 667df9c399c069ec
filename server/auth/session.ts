/**
 * Starting a session: a fresh access token plus the first refresh token of a new family (the
 * session, with where it came from), answered in the `authResultSchema` shape; and the list of
 * a user's live sessions.
 */
import type { Context } from 'hono';
import type { SignInResult } from '../../contract/account-schemas';
import type { AuthResult, SessionInfo } from '../../contract/schemas';
import type { Db } from '../db';
import type { Config } from '../config';
import type { Deps } from '../deps';
import { remoteAddress } from '../http/client-address';
import { fail } from '../http/errors';
import { findUserById, markVerified, toWireUser, type UserRow } from '../users';
import {
  signAccessToken,
  type AccessClaims,
  type TokenFactor,
  type TokenSettings,
} from './access-token';
import { revokeAllForUser, startRefreshFamily } from './refresh-tokens';
import { hasSecondFactor, openChallenge } from './second-factor';

/** The access-token settings of this server. */
export function tokenSettings(deps: Deps): TokenSettings {
  return {
    secret: deps.config.keys.tokenSigning,
    ttlSeconds: deps.config.accessTokenTtl,
    now: deps.now,
  };
}

/**
 * What `user`'s second factor does to their next token: with REQUIRE_ADMIN_2FA, an admin without
 * one gets a guest's rules, and an admin with one gets a token that ends when it goes.
 */
export async function tokenFactorOf(
  deps: { config: Pick<Config, 'requireAdminSecondFactor'> },
  db: Db,
  user: UserRow,
): Promise<TokenFactor> {
  if (!deps.config.requireAdminSecondFactor || user.role !== 'admin') return {};
  const held = await hasSecondFactor(db, user.id);
  return { lacksRequiredFactor: !held, restsOnSecondFactor: held };
}

/** Refuses a disabled user a new session or token (403 ACCOUNT_DISABLED). */
export function refuseDisabled(user: Pick<UserRow, 'disabled_at'>): void {
  if (user.disabled_at !== null) {
    fail(403, 'ACCOUNT_DISABLED', 'This account is disabled: ask an administrator');
  }
}

/** User agents are kept for the sessions list, not in full. */
const MAX_USER_AGENT = 512;

/**
 * Signs in `user` from the client of `c`, once the first step (password, code, invitation)
 * passed: the one place every sign-in goes through. An account with a second factor gets the
 * challenge of the second step instead of a session (server/auth/second-factor.ts).
 */
export async function startSession(
  deps: Deps,
  db: Db,
  user: UserRow,
  c: Context,
): Promise<SignInResult> {
  refuseDisabled(user);
  if (await hasSecondFactor(db, user.id)) return openChallenge(deps, user);
  return issueSession(deps, db, user, c);
}

/**
 * Starts the session itself: a new refresh-token family and an access token. Only startSession
 * and the second step of a sign-in (its code checked) call it.
 */
export async function issueSession(
  deps: Deps,
  db: Db,
  user: UserRow,
  c: Context,
): Promise<AuthResult> {
  refuseDisabled(user);
  const { sessionId, refreshToken } = await startRefreshFamily(db, {
    userId: user.id,
    now: deps.now(),
    ttlSeconds: deps.config.refreshTokenTtl,
    origin: {
      clientAddress: remoteAddress(c, deps.config),
      userAgent: c.req.header('user-agent')?.slice(0, MAX_USER_AGENT) ?? null,
    },
  });
  await db.query('UPDATE users SET last_sign_in_at = $2 WHERE id = $1', [user.id, deps.now()]);
  const token = await signAccessToken(
    tokenSettings(deps),
    user,
    sessionId,
    await tokenFactorOf(deps, db, user),
  );
  return { ...toWireUser(user), token, refreshToken };
}

interface SessionRow {
  id: string;
  started_at: Date;
  last_used_at: Date;
  client_address: string | null;
  user_agent: string | null;
}

/** The live sessions of `userId`, most recently used first; `current` marks `currentId`. */
export async function listSessions(
  db: Db,
  userId: string,
  now: Date,
  currentId?: string,
): Promise<SessionInfo[]> {
  const { rows } = await db.query<SessionRow>(
    `SELECT id, started_at, last_used_at, client_address, user_agent FROM sessions
     WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2
     ORDER BY last_used_at DESC, id`,
    [userId, now],
  );
  return rows.map((row) => ({
    id: row.id,
    startedAt: row.started_at.toISOString(),
    lastUsedAt: row.last_used_at.toISOString(),
    clientAddress: row.client_address,
    userAgent: row.user_agent,
    current: row.id === currentId,
  }));
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

/**
 * /v1/auth: sign-up (registered, anonymous, passwordless), login by password or code, token
 * refresh, logout and password re-authentication.
 */
import { Hono } from 'hono';
import {
  emailOnlyBodySchema,
  loginBodySchema,
  logoutBodySchema,
  passwordIdVerificationBodySchema,
  refreshBodySchema,
  signupBodySchema,
  type SignupResult,
} from '../../contract/schemas';
import { signAccessToken } from '../auth/access-token';
import {
  codeRequestHandler,
  sendCode,
  sendPasswordRemovedNotice,
  takeMailAttempt,
} from '../auth/code-mail';
import { lockLiveCaller } from '../auth/live-caller';
import { readBearer, type AuthEnv } from '../auth/middleware';
import { consumeCode } from '../auth/one-time-codes';
import { getDecoyHash, hashPassword, verifyPassword } from '../auth/password';
import { requireAcceptablePassword } from '../auth/password-policy';
import {
  revokeAllForUser,
  revokeFamilyOf,
  rotateRefreshToken,
  type RefreshFailure,
} from '../auth/refresh-tokens';
import { LIMITS, takeAttempt } from '../auth/rate-limit';
import {
  proveAddress,
  refuseDisabled,
  startSession,
  tokenFactorOf,
  tokenSettings,
} from '../auth/session';
import { PG_UNIQUE_VIOLATION, isDbError } from '../db';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import {
  createUser,
  findUserByEmail,
  findUserById,
  toWireUser,
  upgradeAnonymousUser,
  type UserRow,
} from '../users';

const REFRESH_FAILURES: Record<RefreshFailure, { code: string; message: string }> = {
  expired: { code: 'REFRESH_TOKEN_EXPIRED', message: 'Refresh token expired' },
  revoked: { code: 'REFRESH_TOKEN_REVOKED', message: 'Refresh token revoked' },
  not_found: { code: 'REFRESH_TOKEN_NOT_FOUND', message: 'Refresh token not found' },
};

function emailTaken(): never {
  fail(409, 'CONFLICT', 'An account with this e-mail address already exists');
}

/** Routes mounted at /v1/auth, from their declarations (contract/routes.ts). */
export function authRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/auth');

  // Without e-mail: a new anonymous user. With e-mail and password: a registered user; when
  // the caller is signed in as an anonymous user, that user is upgraded in place (same _id,
  // assets and wallets) and its anonymous sessions are revoked.
  on('post', '/v1/auth/signup', signupBodySchema, async (c, body) => {
    const caller = await readBearer(deps, c);
    const now = deps.now();
    const client = clientAddress(c, deps.config);
    if (body.email === undefined) {
      if (body.password !== undefined) {
        fail(400, 'VALIDATION_ERROR', 'email: Required when a password is given');
      }
      await takeAttempt(
        db,
        [{ key: `anonymous-signup:${client}`, limit: LIMITS.anonymousSignupPerClient }],
        now,
      );
      const user = await createUser(db, {
        email: null,
        passwordHash: null,
        role: 'anonymous',
        now,
      });
      return c.json({ data: await startSession(deps, db, user, c) });
    }
    if (body.password === undefined) {
      fail(400, 'VALIDATION_ERROR', 'password: Required when signing up with an e-mail address');
    }
    const { email } = body;
    requireAcceptablePassword(body.password, email);
    // A 409 says the address has an account: sign-ups share the client's look-up budget.
    await takeAttempt(
      db,
      [
        { key: `mail:${client}`, limit: LIMITS.mailPerClient },
        { key: `lookup:${client}`, limit: LIMITS.accountLookupsPerClient },
      ],
      now,
    );
    const passwordHash = await hashPassword(body.password, client);
    let user: UserRow;
    try {
      user = await db.transaction(async (tx) => {
        if (await findUserByEmail(tx, email)) emailTaken();
        if (caller?.role === 'anonymous') {
          // A guest's session that ended since it was checked upgrades nothing (401).
          await lockLiveCaller(tx, caller, now);
          const upgraded = await upgradeAnonymousUser(tx, caller.userId, email, passwordHash, now);
          if (upgraded) {
            await revokeAllForUser(tx, upgraded.id, now);
            return upgraded;
          }
        }
        return createUser(tx, { email, passwordHash, role: 'user', now });
      });
    } catch (error) {
      if (isDbError(error, PG_UNIQUE_VIOLATION)) emailTaken();
      throw error;
    }
    const verificationId = await sendCode(deps, { email, user, purpose: 'verify', client });
    const session = await startSession(deps, db, user, c);
    // A new account (or an upgraded guest, who cannot enrol) has no second factor yet.
    if ('challenge' in session) throw new Error('A new account asked for a second factor');
    const data: SignupResult = { ...session, verificationId };
    return c.json({ data });
  });

  on('post', '/v1/auth/signup/passwordless', emailOnlyBodySchema, async (c, { email }) => {
    const client = clientAddress(c, deps.config);
    await takeMailAttempt(deps, client);
    let user = await findUserByEmail(db, email);
    if (!user) {
      try {
        user = await createUser(db, { email, passwordHash: null, role: 'user', now: deps.now() });
      } catch (error) {
        // A concurrent request created it first: use that account.
        if (!isDbError(error, PG_UNIQUE_VIOLATION)) throw error;
        user = await findUserByEmail(db, email);
      }
    }
    await sendCode(deps, { email, user, purpose: 'login', client });
    return c.json({ data: { sent: true } });
  });

  on('post', '/v1/auth/request-login-code', emailOnlyBodySchema, codeRequestHandler(deps, 'login'));

  on('post', '/v1/auth/login', loginBodySchema, async (c, body) => {
    const now = deps.now();
    let user: UserRow | undefined;
    if ('password' in body) {
      // The attempt is taken before the ~50 ms hash check, so parallel guesses queue on it. A
      // stranger's guesses from one client back off that client: the owner elsewhere is only
      // slowed by a distributed guesser, and then for minutes (docs/api.md "Sessions").
      const address = body.email.toLowerCase();
      const client = clientAddress(c, deps.config);
      const attempt = await takeAttempt(
        db,
        [
          { key: `password:${address}:${client}`, limit: LIMITS.passwordPerAddressClient },
          { key: `password:${address}`, limit: LIMITS.passwordPerAddress },
          { key: `password-client:${client}`, limit: LIMITS.passwordPerClient },
          { key: 'password:*', limit: LIMITS.passwordGlobal },
        ],
        now,
      );
      user = await findUserByEmail(db, body.email);
      // Unknown users are checked against a decoy hash so both failures take equally long.
      const hash = user?.password_hash ?? (await getDecoyHash());
      const ok = await verifyPassword(body.password, hash, client);
      if (!ok || !user?.password_hash) {
        fail(401, 'INVALID_CREDENTIALS', 'Wrong e-mail address or password');
      }
      await attempt.giveBack();
    } else {
      const result = await consumeCode(db, {
        lookup: { email: body.email },
        purpose: 'login',
        code: body.code,
        client: clientAddress(c, deps.config),
        now,
        secret: deps.config.keys.codeHashing,
      });
      if (!result.ok || result.userId === null) {
        fail(401, 'INVALID_CREDENTIALS', 'Invalid or expired sign-in code');
      }
      // The code reached the mailbox, which proves the address belongs to the user. Signing in
      // by code shows nothing about a password, so a password set before the proof goes.
      const proven = await proveAddress(db, result.userId, now);
      if (proven.passwordRemoved) await sendPasswordRemovedNotice(deps, body.email);
      user = proven.user;
    }
    return c.json({ data: await startSession(deps, db, user, c) });
  });

  // `token` (the old access token) is accepted for compatibility; the refresh token alone
  // identifies the session.
  on('post', '/v1/auth/refresh', refreshBodySchema, async (c, { refreshToken }) => {
    const result = await rotateRefreshToken(
      db,
      refreshToken,
      deps.now(),
      deps.config.keys.refreshSuccessor,
    );
    if (!result.ok) {
      const failure = REFRESH_FAILURES[result.reason];
      fail(401, failure.code, failure.message);
    }
    const user = await findUserById(db, result.userId);
    if (!user) fail(401, REFRESH_FAILURES.not_found.code, REFRESH_FAILURES.not_found.message);
    refuseDisabled(user);
    const token = await signAccessToken(
      tokenSettings(deps),
      user,
      result.sessionId,
      await tokenFactorOf(deps, db, user),
    );
    return c.json({ data: { ...toWireUser(user), token, refreshToken: result.refreshToken } });
  });

  on('post', '/v1/auth/logout', logoutBodySchema, async (c, { refreshToken }) => {
    if (!(await revokeFamilyOf(db, refreshToken, deps.now()))) {
      fail(401, REFRESH_FAILURES.not_found.code, REFRESH_FAILURES.not_found.message);
    }
    return c.json({ data: { success: true } });
  });

  // Re-authentication before sensitive actions: confirms the signed-in user's password.
  on(
    'post',
    '/v1/auth/password-id-verification',
    passwordIdVerificationBodySchema,
    async (c, { password }) => {
      const { userId } = c.get('auth');
      const now = deps.now();
      const attempt = await takeAttempt(
        db,
        [{ key: `reauth:${userId}`, limit: LIMITS.reauthPerUser }],
        now,
      );
      const user = await findUserById(db, userId);
      if (!user) fail(401, 'UNAUTHORIZED', 'The signed-in user no longer exists');
      const verified = user.password_hash
        ? await verifyPassword(password, user.password_hash, `user:${userId}`)
        : false;
      if (verified) await attempt.giveBack();
      return c.json({ data: { verified } });
    },
  );

  return app;
}

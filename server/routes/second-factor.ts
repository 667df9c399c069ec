/**
 * Two-step sign-in (docs/api.md "Two-step sign-in"): the second step of a sign-in
 * (/v1/auth/second-factor), one's own authenticator on the account page
 * (/v1/users/me/second-factor) and an administrator's reset of another user's
 * (/private/v1/users/{id}/second-factor), the way back for someone who lost theirs.
 */
import { Hono } from 'hono';
import {
  recoveryCodesRenewBodySchema,
  secondFactorBodySchema,
  secondFactorDisableBodySchema,
  totpConfirmBodySchema,
  totpEnrolmentBodySchema,
} from '../../contract/account-schemas';
import { confirmOwner, confirmPassword } from '../auth/fresh-proof';
import { lockLiveCaller } from '../auth/live-caller';
import type { AuthEnv } from '../auth/middleware';
import { revokeAllForUser } from '../auth/refresh-tokens';
import {
  answerChallenge,
  checkSecondFactorCode,
  confirmEnrolment,
  hasAuthenticator,
  noSecondFactor,
  removeSecondFactor,
  renewRecoveryCodes,
  secondFactorStatus,
  startEnrolment,
} from '../auth/second-factor';
import { issueSession } from '../auth/session';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { recordUserAdminEvent } from '../user-admin';
import { findUserById } from '../users';
import { registeredCaller } from './account';

/** POST /second-factor, mounted at /v1/auth beside the first step. */
export function secondFactorSignInRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/auth');
  on('post', '/v1/auth/second-factor', secondFactorBodySchema, async (c, body) => {
    const client = clientAddress(c, deps.config);
    const answer = body.passkey ? { passkey: body.passkey } : { code: body.code ?? '' };
    const userId = await answerChallenge(deps, body.challenge, answer, client);
    const user = await findUserById(deps.db, userId);
    if (!user) fail(401, 'CHALLENGE_EXPIRED', 'This account no longer exists');
    return c.json({ data: await issueSession(deps, deps.db, user, c) });
  });
  return app;
}

/** Routes mounted at /v1/users/me/second-factor, each from its declaration (contract/routes.ts). */
export function secondFactorAccountRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/users/me/second-factor');
  const path = '/v1/users/me/second-factor';

  on('get', path, undefined, async (c) => {
    const user = await registeredCaller(db, c);
    return c.json({ data: await secondFactorStatus(deps, user) });
  });

  // A new secret, not yet enabled: fresh proof first, the password or a code mailed to the
  // address (a borrowed session cannot lock the owner out), and a proven address (whoever signed
  // up with someone else's address cannot set one up before the owner takes the account back by
  // a code).
  on('post', `${path}/totp`, totpEnrolmentBodySchema, async (c, proof) => {
    const user = await registeredCaller(db, c);
    if (user.verified_at === null) {
      fail(
        400,
        'VALIDATION_ERROR',
        'Verify your e-mail address before setting up two-step sign-in',
      );
    }
    await confirmOwner(deps, c, user, proof);
    return c.json({ data: await startEnrolment(deps, user, c.get('auth')) });
  });

  on('post', `${path}/totp/confirm`, totpConfirmBodySchema, async (c, { code }) => {
    const user = await registeredCaller(db, c);
    return c.json({ data: await confirmEnrolment(deps, user, code, c.get('auth')) });
  });

  // Off with the password, or with a current code (an account that signs in by codes has no
  // password; anyone may prefer the code).
  on('delete', path, secondFactorDisableBodySchema, async (c, { password, code }) => {
    const user = await registeredCaller(db, c);
    if (code !== undefined) await checkSecondFactorCode(deps, user, code);
    else await confirmPassword(deps, user, password, 'password');
    if (user.password_hash === null && code === undefined) {
      fail(400, 'VALIDATION_ERROR', 'code: Required');
    }
    const now = deps.now();
    await db.transaction(async (tx) => {
      await lockLiveCaller(tx, c.get('auth'), now);
      await removeSecondFactor(tx, user.id);
    });
    return c.json({ data: { removed: true } });
  });

  // New recovery codes (the old ones stop working), confirmed as turning the factor off is: with
  // the password or a current code, so a borrowed session cannot take over the owner's way back.
  on('post', `${path}/recovery-codes`, recoveryCodesRenewBodySchema, async (c, body) => {
    const { password, code } = body;
    const user = await registeredCaller(db, c);
    if (!(await hasAuthenticator(db, user.id))) noSecondFactor();
    if (code !== undefined) await checkSecondFactorCode(deps, user, code);
    else if (user.password_hash === null) fail(400, 'VALIDATION_ERROR', 'code: Required');
    else await confirmPassword(deps, user, password, 'password');
    return c.json({ data: await renewRecoveryCodes(deps, c.get('auth')) });
  });

  return app;
}

/** DELETE /{id}/second-factor, mounted at /private/v1/users from its declaration: `manage User`. */
export function secondFactorAdminRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/private/v1/users');

  // The way back for a user who lost their authenticator and recovery codes: their factor goes,
  // and so do their sessions (what was signed in with the old factor stays with it). Never one's
  // own: that needs one's password or code (DELETE /v1/users/me/second-factor).
  on('delete', '/private/v1/users/{id}/second-factor', undefined, async (c) => {
    const id = c.req.param('id')!;
    const actorId = c.get('auth').userId;
    if (id === actorId) {
      fail(400, 'VALIDATION_ERROR', 'Turn your own two-step sign-in off on your account page');
    }
    const user = await findUserById(db, id);
    if (!user) fail(404, 'NOT_FOUND', `No user with id ${id}`);
    const now = deps.now();
    await db.transaction(async (tx) => {
      if (!(await removeSecondFactor(tx, id, { passkeys: true }))) {
        fail(409, 'NO_SECOND_FACTOR', 'This user has no two-step sign-in to reset');
      }
      await revokeAllForUser(tx, id, now);
      await recordUserAdminEvent(tx, { userId: id, action: 'secondFactorReset' }, actorId, now);
    });
    return c.json({ data: { removed: true } });
  });

  return app;
}

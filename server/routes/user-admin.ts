/**
 * An administrator's actions on other users, mounted at /private/v1/users next to the list and
 * the role change (routes/users.ts), all `manage User`: POST /{id}/disable, /{id}/enable,
 * /bulk-disable, /bulk-enable, /bulk-role and /{id}/reset-password. See server/user-admin.ts for
 * the rules (never oneself, the last admin stays).
 */
import { Hono, type Context } from 'hono';
import {
  userBulkBodySchema,
  userBulkRoleBodySchema,
  type UserBulkResult,
} from '../../contract/schemas';
import { sendCode, takeMailAttempt } from '../auth/code-mail';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import {
  applyUserChange,
  lockUsersForChange,
  recordUserAdminEvent,
  refuseSelf,
  type UserChange,
} from '../user-admin';
import { findUserById } from '../users';
import { checkBase, readIfMatch, refuseIfMatch } from '../versions';

/**
 * Routes mounted at /private/v1/users (behind the PrivateApi check), each from its declaration
 * (contract/routes.ts): `manage User`.
 */
export function userAdminRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/private/v1/users');

  // `base`: a single user's If-Match. A user's version counts role changes only, so no other
  // change conflicts with one since; a version that never existed is a 412.
  const change = (
    actorId: string,
    ids: string[],
    what: UserChange,
    base?: number,
  ): Promise<UserBulkResult> => {
    const unique = [...new Set(ids)];
    refuseSelf(actorId, unique, what);
    return db.transaction(async (tx) => {
      const users = await lockUsersForChange(tx, actorId, unique);
      for (const user of users) await checkBase(tx, 'user', user, base, {});
      return applyUserChange(tx, users, what, actorId, deps.now());
    });
  };

  // Disabling ends every session at once; sign-in and refresh answer 403 ACCOUNT_DISABLED.
  for (const kind of ['disable', 'enable'] as const) {
    on('post', `/private/v1/users/{id}/${kind}`, undefined, async (c) => {
      const base = readIfMatch(c);
      const { users } = await change(c.get('auth').userId, [c.req.param('id')!], { kind }, base);
      return c.json({ data: users[0] });
    });
    on('post', `/private/v1/users/bulk-${kind}`, userBulkBodySchema, async (c, { ids }) => {
      refuseIfMatch(c);
      return c.json({ data: await change(c.get('auth').userId, ids, { kind }) });
    });
  }

  on('post', '/private/v1/users/bulk-role', userBulkRoleBodySchema, async (c, { ids, role }) => {
    refuseIfMatch(c);
    return c.json({ data: await change(c.get('auth').userId, ids, { kind: 'role', role }) });
  });

  // Mails the user a code, as the public calls would (the same code, mail and limits per client),
  // and records that an administrator did: a password reset code (the user sets the new password
  // themselves), or a verification code again while the address is not verified.
  const mailCode =
    (purpose: 'reset' | 'verify', action: 'passwordResetSent' | 'verificationSent') =>
    async (c: Context<AuthEnv>) => {
      const user = await findUserById(db, c.req.param('id') ?? '');
      if (!user) fail(404, 'NOT_FOUND', `No user with id ${c.req.param('id')}`);
      const { email } = user;
      if (!email) fail(400, 'VALIDATION_ERROR', 'Anonymous accounts have no e-mail address');
      if (purpose === 'verify' && user.verified_at) {
        fail(409, 'CONFLICT', `${email} is verified already`);
      }
      const client = clientAddress(c, deps.config);
      await takeMailAttempt(deps, client);
      const { userId: actorId } = c.get('auth');
      // The code, its mail, the event and the kept answer commit together: a retry after a
      // lost acknowledgement gets that answer and mails nothing more.
      await db.transaction(async (tx) => {
        await sendCode({ ...deps, db: tx }, { email, user, purpose, client });
        await recordUserAdminEvent(tx, { userId: user.id, action }, actorId, deps.now());
        await keepAnswer(tx, c, c.json({ data: { sent: true } }));
      });
      return c.json({ data: { sent: true } });
    };
  on(
    'post',
    '/private/v1/users/{id}/reset-password',
    undefined,
    mailCode('reset', 'passwordResetSent'),
  );
  on(
    'post',
    '/private/v1/users/{id}/resend-verification',
    undefined,
    mailCode('verify', 'verificationSent'),
  );

  return app;
}

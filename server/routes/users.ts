/**
 * /v1/users: password reset by code, e-mail verification, e-mail lookup and the signed-in user.
 * /private/v1/users: the back office's user list and role changes.
 */
import { Hono } from 'hono';
import {
  emailOnlyBodySchema,
  emailSchema,
  passwordByCodeBodySchema,
  userRoleBodySchema,
  verifyBodySchema,
} from '../../contract/schemas';
import {
  codeRequestHandler,
  sendCode,
  sendPasswordRemovedNotice,
  takeMailAttempt,
} from '../auth/code-mail';
import { readBearer, type AuthEnv } from '../auth/middleware';
import { consumeCode, failCode } from '../auth/one-time-codes';
import { hashPassword } from '../auth/password';
import { requireAcceptablePassword } from '../auth/password-policy';
import { LIMITS, takeAttempt } from '../auth/rate-limit';
import { revokeAllForUser } from '../auth/refresh-tokens';
import { hasSecondFactor } from '../auth/second-factor';
import { proveAddress } from '../auth/session';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { readParam } from '../http/validate';
import { findById, parseListQuery, runList } from '../list';
import {
  applyUserChange,
  lockUsersForChange,
  peopleListSpec,
  refuseSelf,
  userListSpec,
  withoutInvitations,
} from '../user-admin';
import { findUserByEmail, findUserById, markVerified, setPassword, toWireUser } from '../users';
import { changeOf, checkBase, readIfMatch, setVersionTag } from '../versions';

/** Routes mounted at /v1/users, from their declarations (contract/routes.ts). */
export function userRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/users');

  on('post', '/v1/users/reset-password', emailOnlyBodySchema, codeRequestHandler(deps, 'reset'));

  // A new password ends every session of the account: whoever knew the old one is signed out.
  on('patch', '/v1/users/password-by-code', passwordByCodeBodySchema, async (c, body) => {
    const now = deps.now();
    // Refused before the code is looked at, so a weak password costs no guess.
    requireAcceptablePassword(body.password, body.email);
    // Checked on its own (not in the transaction below) so a wrong guess stays counted.
    const code = await consumeCode(db, {
      lookup: { email: body.email },
      purpose: 'reset',
      code: body.code,
      client: clientAddress(c, deps.config),
      now,
      secret: deps.config.keys.codeHashing,
    });
    if (!code.ok) failCode(code.reason);
    const { userId } = code;
    if (userId === null) failCode('invalid');
    const passwordHash = await hashPassword(body.password);
    const user = await db.transaction(async (tx) => {
      await setPassword(tx, userId, passwordHash, now);
      await revokeAllForUser(tx, userId, now);
      // The code reached the mailbox, which proves the address belongs to the user.
      return markVerified(tx, userId, now);
    });
    return c.json({ data: toWireUser(user) });
  });

  // { email } (re)sends a verification code; { verificationId, code } completes verification.
  on('post', '/v1/users/verify', verifyBodySchema, async (c, body) => {
    const client = clientAddress(c, deps.config);
    if ('email' in body) {
      await takeMailAttempt(deps, client);
      const user = await findUserByEmail(db, body.email);
      const verificationId = await sendCode(deps, {
        email: body.email,
        user,
        purpose: 'verify',
        client,
      });
      return c.json({ data: { verificationId } });
    }
    // Read first, so a bad token is a 401 that costs no guess.
    const bearer = await readBearer(deps, c);
    const now = deps.now();
    const result = await consumeCode(db, {
      lookup: { id: body.verificationId },
      purpose: 'verify',
      code: body.code,
      client,
      now,
      secret: deps.config.keys.codeHashing,
    });
    if (!result.ok) failCode(result.reason);
    if (result.userId === null) failCode('invalid');
    // A proof from anyone but the password's holder removes a password set before it.
    const proven = await proveAddress(db, result.userId, now, bearer);
    if (proven.passwordRemoved && proven.user.email) {
      await sendPasswordRemovedNotice(deps, proven.user.email);
    }
    return c.json({ data: toWireUser(proven.user) });
  });

  // Says whether an address has an account (the spec's call): limited per client, shared with
  // sign-up's 409, so nobody can sweep a list of addresses.
  on('get', '/v1/users/email/{email}', undefined, async (c) => {
    const email = readParam(emailSchema, c.req.param('email'), 'email');
    await takeAttempt(
      db,
      [
        {
          key: `lookup:${clientAddress(c, deps.config)}`,
          limit: LIMITS.accountLookupsPerClient,
        },
      ],
      deps.now(),
    );
    return c.json({ data: { exists: (await findUserByEmail(db, email)) !== undefined } });
  });

  on('get', '/v1/users/me', undefined, async (c) => {
    const user = await findUserById(db, c.get('auth').userId);
    if (!user) fail(401, 'UNAUTHORIZED', 'The signed-in user no longer exists');
    return c.json({ data: toWireUser(user) });
  });

  return app;
}

/**
 * Routes mounted at /private/v1/users (behind the PrivateApi check), each from its declaration
 * (contract/routes.ts).
 */
export function adminUserRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/private/v1/users');

  // Find users by e-mail (e.g. to assign them assets); an admin asking for `invited` also gets
  // the pending invitations (server/user-admin.ts peopleListSpec).
  on('get', '/private/v1/users', undefined, async (c) => {
    const query = parseListQuery(peopleListSpec, c.req.queries());
    const invited =
      query.filters.status?.includes('invited') && c.get('auth').ability.can('manage', 'User');
    const scope = () => (invited ? [] : [withoutInvitations]);
    return c.json(await runList(db, peopleListSpec, query, scope));
  });

  // Whether two-step sign-in is on is for those who may reset it: to others it would only say
  // which accounts a stolen password opens alone.
  on('get', '/private/v1/users/{id}', undefined, async (c) => {
    const data = await findById(db, userListSpec, c.req.param('id')!, 'user');
    setVersionTag(c, data);
    if (!c.get('auth').ability.can('manage', 'User')) return c.json({ data });
    return c.json({ data: { ...data, secondFactor: await hasSecondFactor(db, data.id) } });
  });

  // Roles are an admin's to give (`manage User`), never one's own, and the last admin keeps
  // theirs (server/user-admin.ts). The new role applies from the user's next request: tokens of
  // the old role are refused (401), so clients refresh. With If-Match, a role someone else
  // changed since that version is a 409.
  on('patch', '/private/v1/users/{id}', userRoleBodySchema, async (c, { role }) => {
    const id = c.req.param('id')!;
    const base = readIfMatch(c);
    const change = { kind: 'role', role } as const;
    const actorId = c.get('auth').userId;
    refuseSelf(actorId, [id], change);
    const data = await db.transaction(async (tx) => {
      const users = await lockUsersForChange(tx, actorId, [id]);
      await checkBase(tx, 'user', users[0]!, base, changeOf('role', users[0]!.role, role));
      return (await applyUserChange(tx, users, change, actorId, deps.now())).users[0]!;
    });
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

/**
 * /v1/users: password reset by code, e-mail verification, e-mail lookup and the signed-in user.
 * /private/v1/users: the back office's user list and role changes.
 */
import { Hono } from 'hono';
import {
  emailSchema,
  passwordByCodeBodySchema,
  roleSchema,
  userRoleBodySchema,
  verifyBodySchema,
  type Role,
  type UserRow as UserListRow,
} from '../../src/api/schemas';
import { codeRequestHandler, sendCode, takeMailAttempt } from '../auth/code-mail';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import { consumeCode, failCode } from '../auth/one-time-codes';
import { hashPassword } from '../auth/password';
import { revokeAllForUser } from '../auth/refresh-tokens';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { fail } from '../http/errors';
import { readBody, readParam } from '../http/validate';
import {
  anyOfFilter,
  findById,
  isoString,
  listHandler,
  searchFilter,
  type ListSpec,
} from '../list';
import { findUserByEmail, findUserById, markVerified, setPassword, toWireUser } from '../users';
import { changeOf, checkBase, readIfMatch, setVersionTag } from '../versions';

/** Routes mounted at /v1/users. */
export function userRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();

  app.post('/reset-password', codeRequestHandler(deps, 'reset'));

  // A new password ends every session of the account: whoever knew the old one is signed out.
  app.patch('/password-by-code', async (c) => {
    const body = await readBody(c, passwordByCodeBodySchema);
    const now = deps.now();
    // Checked on its own (not in the transaction below) so a wrong guess stays counted.
    const code = await consumeCode(db, {
      lookup: { email: body.email },
      purpose: 'reset',
      code: body.code,
      now,
      secret: deps.config.keys.codeHashing,
    });
    if (!code.ok) failCode(code.reason);
    const { userId } = code;
    if (userId === null) failCode('invalid');
    const passwordHash = await hashPassword(body.password);
    const user = await db.transaction(async (tx) => {
      await setPassword(tx, userId, passwordHash);
      await revokeAllForUser(tx, userId, now);
      // The code reached the mailbox, which proves the address belongs to the user.
      return markVerified(tx, userId, now);
    });
    return c.json({ data: toWireUser(user) });
  });

  // { email } (re)sends a verification code; { verificationId, code } completes verification.
  app.post('/verify', async (c) => {
    const body = await readBody(c, verifyBodySchema);
    if ('email' in body) {
      await takeMailAttempt(deps, clientAddress(c, deps.config));
      const verificationId = await sendCode(
        deps,
        body.email,
        await findUserByEmail(db, body.email),
        'verify',
      );
      return c.json({ data: { verificationId } });
    }
    const result = await consumeCode(db, {
      lookup: { id: body.verificationId },
      purpose: 'verify',
      code: body.code,
      now: deps.now(),
      secret: deps.config.keys.codeHashing,
    });
    if (!result.ok) failCode(result.reason);
    if (result.userId === null) failCode('invalid');
    return c.json({ data: toWireUser(await markVerified(db, result.userId, deps.now())) });
  });

  app.get('/email/:email', async (c) => {
    const email = readParam(emailSchema, c.req.param('email'), 'email');
    return c.json({ data: { exists: (await findUserByEmail(db, email)) !== undefined } });
  });

  app.get('/me', requireAuth(deps), async (c) => {
    const user = await findUserById(db, c.get('auth').userId);
    if (!user) fail(401, 'UNAUTHORIZED', 'The signed-in user no longer exists');
    return c.json({ data: toWireUser(user) });
  });

  return app;
}

interface UserDbRow {
  id: string;
  email: string | null;
  role: Role;
  verified_at: Date | null;
  created_at: Date;
  version: number;
}

const userListSpec: ListSpec<UserListRow> = {
  from: 'users u',
  columns: 'u.id, u.email, u.role, u.verified_at, u.created_at, u.version',
  orders: { email: 'u.email', role: 'u.role', createdAt: 'u.created_at' },
  defaultOrder: 'email',
  idColumn: 'u.id',
  filters: { search: searchFilter('u.email'), role: anyOfFilter('u.role', roleSchema.options) },
  toRow: (row: UserDbRow) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    verifiedAt: row.verified_at ? isoString(row.verified_at) : null,
    createdAt: isoString(row.created_at),
    version: row.version,
  }),
};

/** Routes mounted at /private/v1/users (behind the PrivateApi check). */
export function adminUserRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps));

  // Find users by e-mail (e.g. to assign them assets).
  app.get('/', requireAbility('read', 'User'), listHandler(db, userListSpec));

  app.get('/:id', requireAbility('read', 'User'), async (c) => {
    const data = await findById(db, userListSpec, c.req.param('id'), 'user');
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Roles are an admin's to give (`manage User`), never one's own: an admin cannot lock the
  // last admin out by accident, and nobody can promote themselves. The new role applies from
  // the user's next token refresh (within ACCESS_TOKEN_TTL).
  // With If-Match, a role someone else changed since that version is a 409.
  app.patch('/:id', requireAbility('manage', 'User'), async (c) => {
    const id = c.req.param('id');
    const base = readIfMatch(c);
    const { role } = await readBody(c, userRoleBodySchema);
    if (id === c.get('auth').userId)
      fail(400, 'VALIDATION_ERROR', 'You cannot change your own role');
    const data = await db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [id]);
      const user = await findById(tx, userListSpec, id, 'user');
      if (user.role === 'anonymous' || role === 'anonymous') {
        fail(400, 'VALIDATION_ERROR', 'Anonymous accounts have no e-mail: they cannot change role');
      }
      await checkBase(tx, 'user', user, base, changeOf('role', user.role, role));
      const { rows } = await tx.query<UserDbRow>(
        `UPDATE users u SET role = $2 WHERE id = $1 RETURNING ${userListSpec.columns}`,
        [id, role],
      );
      return userListSpec.toRow(rows[0] as never);
    });
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

/**
 * /v1/users/me: the signed-in user's own account (docs/api.md "Your account"): change the
 * e-mail address (it counts once a code mailed to the new address comes back), change the
 * password (the other sessions end) and delete the account (its sessions end, its records go as
 * documented), each confirmed by fresh proof of the owner (auth/fresh-proof.ts: the current
 * password, or a code mailed to the address of an account without one). A guest turns into a
 * registered user with the spec's sign-up call (POST /v1/auth/signup with the guest's bearer),
 * not here.
 */
import { Hono, type Context } from 'hono';
import {
  accountDeleteBodySchema,
  emailChangeBodySchema,
  emailChangeConfirmBodySchema,
  passwordChangeBodySchema,
} from '../../contract/account-schemas';
import { sendCode } from '../auth/code-mail';
import { confirmOwner, proofMethodOf, sendProofCode } from '../auth/fresh-proof';
import type { AuthEnv } from '../auth/middleware';
import { lockLiveCaller } from '../auth/live-caller';
import { addressOfCode, consumeCode, failCode } from '../auth/one-time-codes';
import { hashPassword } from '../auth/password';
import { requireAcceptablePassword } from '../auth/password-policy';
import { LIMITS, takeAttempt } from '../auth/rate-limit';
import { revokeAllForUser, revokeSessionsOf } from '../auth/refresh-tokens';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from '../db';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { declaredRoutes } from '../http/declared';
import { forgetAddressesOf, recordUserEvent } from '../events';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { queueMail } from '../mail-outbox';
import { anotherActiveAdmin, lockAdmins } from '../user-admin';
import {
  deleteUser,
  findUserByEmail,
  findUserById,
  setEmail,
  setPassword,
  toWireUser,
  type UserRow,
} from '../users';

function emailTaken(): never {
  fail(409, 'CONFLICT', 'An account with this e-mail address already exists');
}

/** The caller's user record; a guest (no e-mail) is refused what needs an address. */
export async function registeredCaller(db: Db, c: Context<AuthEnv>): Promise<UserRow> {
  const user = await findUserById(db, c.get('auth').userId);
  if (!user) fail(401, 'UNAUTHORIZED', 'The signed-in user no longer exists');
  if (user.email === null) {
    fail(400, 'VALIDATION_ERROR', 'A guest account has no e-mail address: create an account first');
  }
  return user;
}

/**
 * Routes mounted at /v1/users/me (beside GET /v1/users/me of routes/users.ts), from their
 * declarations (contract/routes.ts).
 */
export function accountRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/users/me');

  on('get', '/v1/users/me/proof', undefined, async (c) => {
    const user = await findUserById(db, c.get('auth').userId);
    if (!user) fail(401, 'UNAUTHORIZED', 'The signed-in user no longer exists');
    return c.json({ data: { method: proofMethodOf(user), email: user.email } });
  });

  on('post', '/v1/users/me/proof-code', undefined, async (c) => {
    await sendProofCode(deps, c, await registeredCaller(db, c));
    return c.json({ data: { sent: true } });
  });

  // Mails a code to the new address; nothing changes until it comes back (below).
  on('post', '/v1/users/me/email', emailChangeBodySchema, async (c, body) => {
    const user = await registeredCaller(db, c);
    await confirmOwner(deps, c, user, body);
    if (body.email.toLowerCase() === user.email?.toLowerCase()) {
      fail(400, 'VALIDATION_ERROR', 'email: This is already your e-mail address');
    }
    const client = clientAddress(c, deps.config);
    // A 409 says the address has an account: it shares sign-up's look-up budget.
    await takeAttempt(
      db,
      [
        { key: `mail:${client}`, limit: LIMITS.mailPerClient },
        { key: `lookup:${client}`, limit: LIMITS.accountLookupsPerClient },
      ],
      deps.now(),
    );
    if (await findUserByEmail(db, body.email)) emailTaken();
    // The code, its mail and the kept answer commit together: a retry after a lost
    // acknowledgement gets that answer and mails no second code.
    const verificationId = await db.transaction(async (tx) => {
      const id = await sendCode(
        { ...deps, db: tx },
        { email: body.email, user, purpose: 'email', client },
      );
      await keepAnswer(tx, c, c.json({ data: { verificationId: id } }));
      return id;
    });
    return c.json({ data: { verificationId } });
  });

  on('post', '/v1/users/me/email/confirm', emailChangeConfirmBodySchema, async (c, body) => {
    const user = await registeredCaller(db, c);
    const now = deps.now();
    const result = await consumeCode(db, {
      lookup: { id: body.verificationId },
      purpose: 'email',
      code: body.code,
      client: clientAddress(c, deps.config),
      now,
      secret: deps.config.keys.codeHashing,
      // A code for another account's change is no code of this one.
      beforeUse: (_tx, userId) => {
        if (userId !== user.id) failCode('invalid');
        return Promise.resolve();
      },
    });
    if (!result.ok) failCode(result.reason);
    const changed = await db
      .transaction(async (tx) => {
        // The session is read again under the row lock: an accepted invitation, a reset or a
        // disable that ended it meanwhile wins, or the address would follow a stranger's code.
        const current = await lockLiveCaller(tx, c.get('auth'), now);
        const email = await addressOfCode(tx, body.verificationId);
        if (!(await setEmail(tx, user.id, email, now))) {
          fail(401, 'UNAUTHORIZED', 'The signed-in user no longer exists');
        }
        // Administrators see it in the activity log (the user's own change: they are the actor).
        await recordUserEvent(tx, {
          userId: user.id,
          event: 'emailChanged',
          actorId: user.id,
          data: { changes: { email: { from: current.email, to: email } } },
          at: now,
        });
        const after = (await findUserById(tx, user.id))!;
        // The old address hears of it: whoever took over a session cannot move the account
        // quietly. Queued with the change and its kept answer: a retry after a lost
        // acknowledgement gets that answer (its code is used up) and the notice goes out once.
        await queueMail(
          { ...deps, db: tx },
          {
            to: current.email!,
            kind: 'notice',
            subject: 'The e-mail address of your Avatar Studio account was changed',
            text:
              `The account that used this address now signs in as ${after.email}.\n` +
              'If you did not change it, ask an administrator to restore your access.',
          },
        );
        await keepAnswer(tx, c, c.json({ data: toWireUser(after) }));
        return after;
      })
      .catch((error: unknown) => {
        if (isDbError(error, PG_UNIQUE_VIOLATION)) emailTaken();
        throw error;
      });
    return c.json({ data: toWireUser(changed) });
  });

  // Every other session ends: whoever knew the old password is signed out.
  on('put', '/v1/users/me/password', passwordChangeBodySchema, async (c, body) => {
    const { sessionId } = c.get('auth');
    const user = await registeredCaller(db, c);
    requireAcceptablePassword(body.password, user.email);
    const proof = { password: body.currentPassword, code: body.code };
    await confirmOwner(deps, c, user, proof, 'currentPassword');
    const passwordHash = await hashPassword(body.password, `user:${user.id}`);
    const now = deps.now();
    const updated = await db.transaction(async (tx) => {
      await lockLiveCaller(tx, c.get('auth'), now);
      const row = await setPassword(tx, user.id, passwordHash, now);
      await revokeSessionsOf(tx, user.id, now, { except: sessionId });
      return row;
    });
    return c.json({ data: toWireUser(updated) });
  });

  // The user row goes with what cascades from it (sessions, codes, assignments); references
  // that outlive it are set to null or keep a bare id no record names, and the log forgets its
  // addresses (docs/api.md "Your account").
  on('delete', '/v1/users/me', accountDeleteBodySchema, async (c, body) => {
    const { userId } = c.get('auth');
    const user = await findUserById(db, userId);
    if (!user) fail(401, 'UNAUTHORIZED', 'The signed-in user no longer exists');
    await confirmOwner(deps, c, user, body);
    const now = deps.now();
    await db.transaction(async (tx) => {
      // Serializes with other admins leaving, being demoted or disabled, so two cannot both be
      // "not the last"; the role is read again under it (a promotion may have committed since).
      await lockAdmins(tx);
      const current = await lockLiveCaller(tx, c.get('auth'), now);
      if (current.role === 'admin' && !(await anotherActiveAdmin(tx, userId))) {
        fail(409, 'LAST_ADMIN', 'You are the last administrator: make someone else one first');
      }
      await revokeAllForUser(tx, userId, now);
      await deleteUser(tx, userId);
      // The address read under the lock: one changed since the password check is forgotten too.
      await forgetAddressesOf(tx, userId, current.email);
      await recordUserEvent(tx, { userId, event: 'deleted', actorId: userId, at: now });
    });
    return c.json({ data: { deleted: true } });
  });

  return app;
}

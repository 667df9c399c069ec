/**
 * /v1/users: password reset by code, e-mail verification, e-mail lookup and the signed-in user.
 */
import { Hono } from 'hono';
import {
  emailSchema,
  passwordByCodeBodySchema,
  emailOnlyBodySchema,
  verifyBodySchema,
} from '../../src/api/schemas';
import { sendCode } from '../auth/code-mail';
import { requireAuth, type AuthEnv } from '../auth/middleware';
import { consumeCode, failCode, type CodeFailure } from '../auth/one-time-codes';
import { hashPassword } from '../auth/password';
import { revokeAllForUser } from '../auth/refresh-tokens';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import { readBody, readParam } from '../http/validate';
import {
  findUserByEmail,
  findUserById,
  markVerified,
  setPassword,
  toWireUser,
  type UserRow,
} from '../users';

/** Routes mounted at /v1/users. */
export function userRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();

  app.post('/reset-password', async (c) => {
    const { email } = await readBody(c, emailOnlyBodySchema);
    await sendCode(deps, email, await findUserByEmail(db, email), 'reset');
    return c.json({ data: { sent: true } });
  });

  // A new password ends every session of the account: whoever knew the old one is signed out.
  app.patch('/password-by-code', async (c) => {
    const body = await readBody(c, passwordByCodeBodySchema);
    const passwordHash = await hashPassword(body.password);
    const now = deps.now();
    type Outcome = { ok: false; reason: CodeFailure } | { ok: true; user: UserRow };
    const result = await db.transaction(async (tx): Promise<Outcome> => {
      const code = await consumeCode(tx, {
        lookup: { email: body.email },
        purpose: 'reset',
        code: body.code,
        now,
        secret: deps.config.jwtSecret,
      });
      if (!code.ok) return code;
      if (code.userId === null) return { ok: false, reason: 'invalid' };
      await setPassword(tx, code.userId, passwordHash);
      await revokeAllForUser(tx, code.userId, now);
      // The code reached the mailbox, which proves the address belongs to the user.
      return { ok: true, user: await markVerified(tx, code.userId, now) };
    });
    // Returned rather than thrown inside the transaction so a counted wrong attempt commits.
    if (!result.ok) failCode(result.reason);
    return c.json({ data: toWireUser(result.user) });
  });

  // { email } (re)sends a verification code; { verificationId, code } completes verification.
  app.post('/verify', async (c) => {
    const body = await readBody(c, verifyBodySchema);
    if ('email' in body) {
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
      secret: deps.config.jwtSecret,
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

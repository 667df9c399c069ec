/**
 * Passkeys (server/auth/passkeys.ts): one's own under /v1/users/me/passkeys, and the sign-in with
 * one under /v1/auth/passkey, each from its declaration (contract/routes.ts). Adding and removing
 * one decides who can sign in, so both ask for fresh proof (server/auth/fresh-proof.ts).
 */
import { Hono } from 'hono';
import {
  passkeyCreateBodySchema,
  passkeyDeleteBodySchema,
  passkeyOptionsBodySchema,
  passkeyRenameBodySchema,
  passkeySignInBodySchema,
} from '../../contract/passkey-schemas';
import { confirmOwner } from '../auth/fresh-proof';
import type { AuthEnv } from '../auth/middleware';
import {
  addPasskey,
  deletePasskey,
  listPasskeys,
  registrationCeremony,
  renamePasskey,
  signInCeremony,
  signInWithPasskey,
} from '../auth/passkeys';
import { LIMITS, takeAttempt } from '../auth/rate-limit';
import { issueSession } from '../auth/session';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { findUserById } from '../users';
import { registeredCaller } from './account';

/** POST /v1/auth/passkey/options and POST /v1/auth/passkey, mounted at /v1/auth. */
export function passkeySignInRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/auth');

  on('post', '/v1/auth/passkey/options', undefined, async (c) =>
    c.json({ data: await signInCeremony(deps) }),
  );

  // A user-verified passkey is two factors on its own: the session comes without a second step.
  on('post', '/v1/auth/passkey', passkeySignInBodySchema, async (c, body) => {
    // Failed answers back off the client as wrong passwords do.
    const client = clientAddress(c, deps.config);
    const attempt = await takeAttempt(
      deps.db,
      [{ key: `passkey:${client}`, limit: LIMITS.passwordPerClient }],
      deps.now(),
    );
    const userId = await signInWithPasskey(deps, body);
    await attempt.giveBack();
    const user = await findUserById(deps.db, userId);
    if (!user) fail(401, 'PASSKEY_UNKNOWN', 'This passkey is not one of an account here');
    return c.json({ data: await issueSession(deps, deps.db, user, c) });
  });

  return app;
}

/** Routes mounted at /v1/users/me/passkeys. */
export function passkeyAccountRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/users/me/passkeys');
  const path = '/v1/users/me/passkeys';

  on('get', path, undefined, async (c) =>
    c.json({ data: await listPasskeys(db, c.get('auth').userId) }),
  );

  // As for an authenticator: a proven address, and fresh proof of the owner.
  on('post', `${path}/options`, passkeyOptionsBodySchema, async (c, proof) => {
    const user = await registeredCaller(db, c);
    if (user.verified_at === null) {
      fail(400, 'VALIDATION_ERROR', 'Verify your e-mail address before adding a passkey');
    }
    await confirmOwner(deps, c, user, proof);
    return c.json({ data: await registrationCeremony(deps, user) });
  });

  on('post', path, passkeyCreateBodySchema, async (c, body) => {
    const user = await registeredCaller(db, c);
    return c.json({ data: await addPasskey(deps, user, c.get('auth'), body) });
  });

  on('patch', `${path}/{id}`, passkeyRenameBodySchema, async (c, { name }) => {
    const { userId } = c.get('auth');
    return c.json({ data: await renamePasskey(db, userId, c.req.param('id')!, name) });
  });

  on('delete', `${path}/{id}`, passkeyDeleteBodySchema, async (c, proof) => {
    const user = await registeredCaller(db, c);
    await confirmOwner(deps, c, user, proof);
    return c.json({ data: await deletePasskey(deps, c.get('auth'), c.req.param('id')!) });
  });

  return app;
}

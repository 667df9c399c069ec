/**
 * Sessions (sign-ins) of a user, to list and end: /v1/users/me/sessions for one's own, and
 * /private/v1/users/{id}/sessions for an administrator (`manage User`). Ending a session ends
 * its refresh token and, on every server at once, its access tokens (server/auth/middleware.ts).
 */
import { Hono } from 'hono';
import { z } from 'zod/mini';
import type { SessionInfo } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import { revokeSessionsOf } from '../auth/refresh-tokens';
import { listSessions } from '../auth/session';
import type { Deps } from '../deps';
import { recordUserEvent } from '../events';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { readParam } from '../http/validate';
import { findUserById } from '../users';

const allSchema = z.optional(z.enum(['true', 'false']));

function ended(count: number) {
  return { data: { ended: count } };
}

function noSession(id: string): never {
  fail(404, 'NOT_FOUND', `No live session with id ${id}`);
}

/**
 * Routes mounted at /v1/users/me/sessions, each from its declaration (contract/routes.ts): the
 * signed-in user's own sessions.
 */
export function sessionRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/users/me/sessions');

  on('get', '/v1/users/me/sessions', undefined, async (c) => {
    const { userId, sessionId } = c.get('auth');
    const data: SessionInfo[] = await listSessions(db, userId, deps.now(), sessionId);
    return c.json({ data });
  });

  // Every other session; with ?all=true this one too (signing out everywhere).
  on('delete', '/v1/users/me/sessions', undefined, async (c) => {
    const all = readParam(allSchema, c.req.query('all'), 'all') === 'true';
    const { userId, sessionId } = c.get('auth');
    const pick = all ? {} : { except: sessionId };
    return c.json(ended(await revokeSessionsOf(db, userId, deps.now(), pick)));
  });

  // Only one's own: another user's session id answers the same 404 as an unknown one.
  on('delete', '/v1/users/me/sessions/{id}', undefined, async (c) => {
    const id = c.req.param('id')!;
    const count = await revokeSessionsOf(db, c.get('auth').userId, deps.now(), { only: id });
    if (count === 0) noSession(id);
    return c.json(ended(count));
  });

  return app;
}

/**
 * Routes mounted at /private/v1/users (behind the PrivateApi check), each from its declaration:
 * any user's sessions, for `manage User`.
 */
export function adminSessionRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/private/v1/users');

  const userIdOf = async (id: string) => {
    if (!(await findUserById(db, id))) fail(404, 'NOT_FOUND', `No user with id ${id}`);
    return id;
  };

  on('get', '/private/v1/users/{id}/sessions', undefined, async (c) => {
    const userId = await userIdOf(c.req.param('id')!);
    const data = await listSessions(db, userId, deps.now(), c.get('auth').sessionId);
    return c.json({ data });
  });

  // Ends sessions and, when some ended, records `user.sessions-ended.v1` in the same transaction.
  const endSessions = (actorId: string, userId: string, only?: string) =>
    db.transaction(async (tx) => {
      const at = deps.now();
      const count = await revokeSessionsOf(tx, userId, at, only === undefined ? {} : { only });
      if (count > 0) {
        const data = { ended: count, ...(only === undefined ? {} : { sessionId: only }) };
        await recordUserEvent(tx, { userId, event: 'sessionsEnded', actorId, data, at });
      }
      return count;
    });

  on('delete', '/private/v1/users/{id}/sessions', undefined, async (c) => {
    const userId = await userIdOf(c.req.param('id')!);
    return c.json(ended(await endSessions(c.get('auth').userId, userId)));
  });

  on('delete', '/private/v1/users/{id}/sessions/{sid}', undefined, async (c) => {
    const userId = await userIdOf(c.req.param('id')!);
    const sid = c.req.param('sid')!;
    const count = await endSessions(c.get('auth').userId, userId, sid);
    if (count === 0) noSession(sid);
    return c.json(ended(count));
  });

  return app;
}

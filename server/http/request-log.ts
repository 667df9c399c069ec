/**
 * One log line per request: its id, method, route pattern, status, duration and, once signed
 * in, the caller's user id and role. Never the path or the query as sent: an address may
 * carry an e-mail (`/users/email/{email}`) or a token (`?token=` of an invitation page).
 *
 * The id is the caller's X-Request-Id when it is a plain token (a proxy's or a client's, so
 * one request can be followed across them), else a new one; either is answered back.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { log, withLogContext } from '../log';

/** Ids a log line and a header may carry as they are. */
const SANE_ID = /^[A-Za-z0-9._-]{1,128}$/;

const callers = new WeakMap<Request, { userId: string; role: string }>();

/** Names the signed-in caller of `request` on its log line (any route that read a token). */
export function noteCaller(request: Request, caller: { userId: string; role: string }): void {
  callers.set(request, { userId: caller.userId, role: caller.role });
}

/** Tells `onRequest` about each request once it is answered (metrics). */
export interface RequestSummary {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

export function requestLog(onRequest?: (summary: RequestSummary) => void): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const sent = c.req.header('x-request-id');
    const reqId = sent !== undefined && SANE_ID.test(sent) ? sent : randomUUID();
    await withLogContext({ reqId }, next);
    c.res.headers.set('X-Request-Id', reqId);
    const seconds = (performance.now() - started) / 1000;
    // The pattern that answered: the handler's, or the middleware that refused (401).
    const route = routePath(c) || '*';
    const caller = callers.get(c.req.raw);
    log.info(
      {
        reqId,
        method: c.req.method,
        route,
        status: c.res.status,
        durationMs: Math.round(seconds * 1e4) / 10,
        ...caller,
      },
      'request',
    );
    onRequest?.({ method: c.req.method, route, status: c.res.status, seconds });
  };
}

/**
 * `Event-Position` on every authenticated read: a seq of the live event stream up to which
 * everything is committed before the read began, so the read shows all of it. A client whose
 * stream is not open yet starts the stream after the lowest position it read (Last-Event-ID),
 * and misses no change saved between its first reads and its stream (src/api/read-positions.ts).
 *
 * Taken before the route runs: a position taken after could name a change the read did not
 * see. The event bus knows one for free once it listens; before that (no stream open on this
 * server) the table is asked. Only for requests with credentials, and only on answers that
 * passed the route's authentication: a stranger learns nothing of how busy the platform is.
 */
import type { MiddlewareHandler } from 'hono';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { latestEventSeq } from '../events';
import { EVENT_POSITION_HEADER } from '../../contract/paths';

export function eventPosition(deps: Pick<Deps, 'db' | 'events'>): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const { method } = c.req;
    if ((method !== 'GET' && method !== 'HEAD') || !c.req.header('authorization')) return next();
    const position =
      deps.events.position() ?? (await latestEventSeq(deps.db).catch(() => undefined));
    await next();
    if (position !== undefined && c.res.ok && c.get('auth') !== undefined) {
      c.res.headers.set(EVENT_POSITION_HEADER, String(position));
    }
  };
}

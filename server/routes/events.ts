/**
 * GET /v1/events: the live event stream (server/README.md "Live events"). The access token
 * comes as a bearer header like everywhere else: the browser reads the stream with fetch, so
 * no token has to travel in a URL (where logs and history keep it) and no stream ticket is
 * needed. Where to resume comes from `Last-Event-ID` (what EventSource sends) or, for clients
 * that cannot set headers, `?lastEventId=`.
 */
import { Hono } from 'hono';
import { z } from 'zod/mini';
import { requireAuth, sessionRefusal, type AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { openEventStream } from '../event-stream';
import { fail } from '../http/errors';

/** Open streams one user may hold on one server (a tab each); more is a runaway client. */
export const MAX_STREAMS_PER_USER = 20;

const lastEventIdSchema = z.optional(
  z.pipe(z.string().check(z.regex(/^\d{1,15}$/)), z.transform(Number)),
);

export function eventRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const openPerUser = new Map<string, number>();

  app.get('/', requireAuth(deps), (c) => {
    const claims = c.get('auth');
    const { userId, ability, expiresAt } = claims;
    const raw = c.req.header('last-event-id') || c.req.query('lastEventId') || undefined;
    const after = lastEventIdSchema.safeParse(raw);
    if (!after.success) {
      fail(400, 'VALIDATION_ERROR', 'Last-Event-ID must be the id of an event of this stream');
    }
    const open = openPerUser.get(userId) ?? 0;
    if (open >= MAX_STREAMS_PER_USER) {
      fail(429, 'RATE_LIMITED', `At most ${MAX_STREAMS_PER_USER} open event streams per user`);
    }
    openPerUser.set(userId, open + 1);
    // On Node, the response itself: a client that stopped reading is cut off there.
    const outgoing = (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing;
    const body = openEventStream({
      db: deps.db,
      bus: deps.events,
      ability,
      after: after.data,
      expiresAt,
      now: deps.now,
      limits: deps.config.events,
      abort: outgoing && (() => outgoing.destroy()),
      isLive: async () => (await sessionRefusal(deps, claims)) === undefined,
      onClose: () => {
        const left = (openPerUser.get(userId) ?? 1) - 1;
        if (left > 0) openPerUser.set(userId, left);
        else openPerUser.delete(userId);
      },
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // nginx and similar proxies would otherwise buffer the stream.
        'x-accel-buffering': 'no',
      },
    });
  });

  return app;
}

/**
 * GET /v1/events: the live event stream (docs/api.md "Live events"). The access token
 * comes as a bearer header like everywhere else: the browser reads the stream with fetch, so
 * no token has to travel in a URL (where logs and history keep it) and no stream ticket is
 * needed. Where to resume comes from `Last-Event-ID` (what EventSource sends) or, for clients
 * that cannot set headers, `?lastEventId=`.
 */
import { Hono } from 'hono';
import { z } from 'zod/mini';
import { sessionRefusal, type AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { openEventStream } from '../event-stream';
import { clientAddress } from '../http/client-address';
import { errorResponse, fail } from '../http/errors';
import { rateLimitRefusals } from '../metrics';

/**
 * Open streams one user may hold on one server: a tab each, and a browser keeps at most six
 * connections to a server over HTTP/1.1 anyway; more is a runaway client.
 */
export const MAX_STREAMS_PER_USER = 10;
/** Open streams of one client address (an office behind one NAT, a host) on one server. */
export const MAX_STREAMS_PER_CLIENT = 50;
/** What a refused stream's Retry-After says: streams end at the latest with their token. */
const RETRY_AFTER_S = 30;

/**
 * Streams one user, and one client address, may open each minute. Opening costs the server
 * the sign-in check, a subscription and a read of the log, so opening and closing in a loop
 * (a few accounts manage a hundred a second) stalls every other request. A tab opens one when it
 * loads, when its token expires (every ACCESS_TOKEN_TTL, 15 minutes by default) and after a
 * break, backing off from 0.6 s doubled to about 10 s while the breaks come quickly: at most
 * 20 in the minute a server keeps failing, and a few tabs stay under the user's 60. An
 * address's 120 is more than its 50 open streams all reconnecting after a restart.
 */
export const OPENS_PER_MINUTE_PER_USER = 60;
export const OPENS_PER_MINUTE_PER_CLIENT = 120;

/** How many streams each key (a user, a client) holds; taken before a stream opens. */
function openCounts() {
  const open = new Map<string, number>();
  return {
    full: (key: string, max: number) => (open.get(key) ?? 0) >= max,
    take: (key: string) => open.set(key, (open.get(key) ?? 0) + 1),
    give: (key: string) => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    },
  };
}

/**
 * Resumes with a Last-Event-ID that may replay missed events, per user and per client address
 * each minute: a tab resumes when its connection breaks or its token expires, a few times an
 * hour. Past them a resume gets `reset` (the client reads its screens again) instead of a
 * replay, which costs the server a page read and a frame per missed event.
 */
export const REPLAYS_PER_MINUTE_PER_USER = 30;
export const REPLAYS_PER_MINUTE_PER_CLIENT = 60;
const MINUTE_MS = 60_000;

/** Counts per key in the current minute (all of them forgotten at the next), up to a maximum. */
function minuteBudget(now: () => Date) {
  let minute = 0;
  const used = new Map<string, number>();
  const current = () => {
    const at = Math.floor(now().getTime() / MINUTE_MS);
    if (at !== minute) {
      minute = at;
      used.clear();
    }
    return used;
  };
  return {
    left: (key: string, max: number) => (current().get(key) ?? 0) < max,
    take: (key: string) => current().set(key, (current().get(key) ?? 0) + 1),
    /** Whole seconds until the next minute, when every count starts again. */
    secondsLeft: () => Math.ceil((MINUTE_MS - (now().getTime() % MINUTE_MS)) / 1000),
  };
}

const lastEventIdSchema = z.optional(
  z.pipe(z.string().check(z.regex(/^\d{1,15}$/)), z.transform(Number)),
);

export function eventRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const perUser = openCounts();
  const perClient = openCounts();
  const replays = minuteBudget(deps.now);
  // Per process, like the open streams: it is this process's time that opening costs, and a
  // shared count would add a database write to every open, the cost it is meant to bound.
  const opens = minuteBudget(deps.now);

  // From its declaration (contract/routes.ts), which keeps guests out.
  declaredRoutes(app, deps, '/v1/events')('get', '/v1/events', undefined, (c) => {
    const claims = c.get('auth');
    const { userId, ability, expiresAt } = claims;
    const raw = c.req.header('last-event-id') || c.req.query('lastEventId') || undefined;
    const after = lastEventIdSchema.safeParse(raw);
    if (!after.success) {
      fail(400, 'VALIDATION_ERROR', 'Last-Event-ID must be the id of an event of this stream');
    }
    const client = clientAddress(c, deps.config);
    const userKey = `user:${userId}`;
    const clientKey = `client:${client}`;
    // A stopping server opens no stream: the client's retry reaches a server that stays.
    if (deps.stopping?.aborted) {
      const answer = errorResponse(c, 503, 'SERVICE_UNAVAILABLE', 'The server is stopping');
      answer.headers.set('retry-after', '1');
      return answer;
    }
    // Counted and taken in one synchronous step, so a parallel burst cannot pass a stale count.
    // The first name is the limit's in rate_limit_refusals_total.
    const refusal = (): [limit: string, message: string, retryAfterS: number] | undefined => {
      if (perUser.full(userId, MAX_STREAMS_PER_USER)) {
        return [
          'eventStreamsPerUser',
          `At most ${MAX_STREAMS_PER_USER} open event streams per user`,
          RETRY_AFTER_S,
        ];
      }
      if (perClient.full(client, MAX_STREAMS_PER_CLIENT)) {
        return [
          'eventStreamsPerClient',
          `At most ${MAX_STREAMS_PER_CLIENT} open event streams from one network`,
          RETRY_AFTER_S,
        ];
      }
      if (!opens.left(userKey, OPENS_PER_MINUTE_PER_USER)) {
        return [
          'eventStreamOpensPerUser',
          `At most ${OPENS_PER_MINUTE_PER_USER} event streams a minute per user`,
          opens.secondsLeft(),
        ];
      }
      if (!opens.left(clientKey, OPENS_PER_MINUTE_PER_CLIENT)) {
        return [
          'eventStreamOpensPerClient',
          `At most ${OPENS_PER_MINUTE_PER_CLIENT} event streams a minute from one network`,
          opens.secondsLeft(),
        ];
      }
      return undefined;
    };
    const refused = refusal();
    if (refused) {
      const [limit, message, retryAfterS] = refused;
      rateLimitRefusals.inc({ limit });
      const answer = errorResponse(c, 429, 'RATE_LIMITED', message);
      answer.headers.set('retry-after', String(retryAfterS));
      return answer;
    }
    perUser.take(userId);
    perClient.take(client);
    opens.take(userKey);
    opens.take(clientKey);
    let { replayLimit } = deps.config.events;
    if (after.data !== undefined) {
      if (
        replays.left(userKey, REPLAYS_PER_MINUTE_PER_USER) &&
        replays.left(clientKey, REPLAYS_PER_MINUTE_PER_CLIENT)
      ) {
        replays.take(userKey);
        replays.take(clientKey);
      } else {
        // Any missed event makes it a `reset`: nothing is read but the count of one.
        replayLimit = 0;
      }
    }
    // On Node, the response itself: a client that stopped reading is cut off there.
    const outgoing = (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing;
    const body = openEventStream({
      db: deps.db,
      bus: deps.events,
      ability,
      after: after.data,
      expiresAt,
      now: deps.now,
      limits: { ...deps.config.events, replayLimit },
      abort: outgoing && (() => outgoing.destroy()),
      isLive: async () => (await sessionRefusal(deps, claims)) === undefined,
      onClose: () => {
        perUser.give(userId);
        perClient.give(client);
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

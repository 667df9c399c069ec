/**
 * A per-client request budget, checked in the node request listener before the app runs: a
 * client past it gets 429 from a prebuilt answer, with no routing, no middleware, no database
 * and no log line of its own. Without it a flood of requests from one address that the app
 * refuses anyway (wrong passwords, code guesses) still costs each of them the app's work, and
 * every other client's requests wait behind them on the event loop.
 *
 * A refusal is held for a second before it is sent (see HOLD_MS), so a flood that waits for each
 * answer slows to the pace of its connections.
 *
 * A token bucket per client (`clientKey`: an IPv4 address, an IPv6 /64), refilled at `rate`
 * requests a second up to `burst`. The buckets live in a bounded map: a bucket that has refilled
 * is the same as none and is dropped, and past `maxClients` the least recently seen client goes,
 * so a stranger with many addresses cannot grow it without bound.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { Config } from '../config';
import { log } from '../log';
import { rateLimitRefusals } from '../metrics';
import { addressOf, clientKey } from './client-address';

/**
 * How long a client's budget lasts from full: the burst is this many seconds of `rate`. A cold
 * page load fits in it; a flood gets no more than it through to the app before it is held back.
 */
const BURST_SECONDS = 4;
/** Clients remembered at most (a bucket is a few dozen bytes). */
const MAX_CLIENTS = 100_000;
/**
 * How long a refusal is held before it is sent. A flood sends its next request when the last one
 * is answered: held, each of its connections sends one a second instead of as many as the server
 * can refuse, and those refusals no longer crowd other clients' requests on the event loop.
 */
const HOLD_MS = 1000;
/** Refusals held at once for one client, and for all; past either, a refusal is sent at once. */
const HOLD_PER_CLIENT = 256;
const HOLD_TOTAL = 4096;
/** At most one summary line of the refusals in this long. */
const SUMMARY_MS = 60_000;
/** Clients counted apart in a summary; past them only the total grows. */
const SUMMARY_KEPT = 10_000;
/** Clients named in the summary, the busiest first. */
const SUMMARY_CLIENTS = 5;

export interface RequestBudget {
  /** Takes one request from `client`'s budget: 0 if it may go on, else the seconds to wait. */
  take(client: string): number;
  /** Clients with a bucket now. */
  readonly size: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** @internal Exported for tests; the server makes its budget with `requestBudgetOf`. */
export function createRequestBudget(options: {
  /** Requests a second a client may keep sending. */
  rate: number;
  /** Requests a client may send at once, from a full budget. */
  burst: number;
  maxClients?: number;
  now?: () => number;
}): RequestBudget {
  const { rate, burst, maxClients = MAX_CLIENTS, now = () => performance.now() } = options;
  const perMs = rate / 1000;
  const buckets = new Map<string, Bucket>();
  let sweptAt = -Infinity;

  const makeRoom = (at: number) => {
    // A full sweep at most once a second: a flood of new addresses costs one pass a second.
    if (at - sweptAt >= 1000) {
      sweptAt = at;
      for (const [key, bucket] of buckets) {
        if (bucket.tokens + (at - bucket.at) * perMs >= burst) buckets.delete(key);
      }
    }
    // Map keeps insertion order and a bucket is moved to the end when used: the first ones
    // are the clients seen least recently.
    for (const key of buckets.keys()) {
      if (buckets.size < maxClients) break;
      buckets.delete(key);
    }
  };

  return {
    take(client) {
      const at = now();
      let bucket = buckets.get(client);
      if (bucket) {
        bucket.tokens = Math.min(burst, bucket.tokens + (at - bucket.at) * perMs);
        bucket.at = at;
        buckets.delete(client);
      } else {
        if (buckets.size >= maxClients) makeRoom(at);
        bucket = { tokens: burst, at };
      }
      buckets.set(client, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
    },
    get size() {
      return buckets.size;
    },
  };
}

/** The budget `config` asks for, or undefined when CLIENT_REQUEST_RATE is 0. */
export function requestBudgetOf(
  config: Pick<Config, 'clientRequestRate'>,
): RequestBudget | undefined {
  const rate = config.clientRequestRate;
  return rate > 0 ? createRequestBudget({ rate, burst: rate * BURST_SECONDS }) : undefined;
}

const REFUSAL = Buffer.from(
  JSON.stringify({
    status: 429,
    code: 'TOO_MANY_REQUESTS',
    message: 'Too many requests from this network; wait a moment and try again',
  }),
);
const REFUSAL_HEADERS = {
  'content-type': 'application/json',
  'content-length': String(REFUSAL.length),
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/**
 * `listener` behind a request budget per client. Each refusal is counted in
 * `rate_limit_refusals_total{limit="clientRequests"}`; the log gets at most one line a minute
 * saying how many were refused and from whom.
 */
function budgetRequests(
  listener: RequestListener,
  budget: RequestBudget,
  config: Pick<Config, 'trustProxy'>,
): RequestListener {
  const refusals = rateLimitRefusals.labels({ limit: 'clientRequests' });
  const summary = summarise();
  const held = new Map<string, number>();
  let heldTotal = 0;
  /** Sends `send` after HOLD_MS while `client` and everyone are under their holds, else now. */
  const hold = (client: string, res: ServerResponse, send: () => void) => {
    const mine = held.get(client) ?? 0;
    if (mine >= HOLD_PER_CLIENT || heldTotal >= HOLD_TOTAL) {
      send();
      return;
    }
    held.set(client, mine + 1);
    heldTotal += 1;
    const release = () => {
      clearTimeout(timer);
      res.off('close', release);
      heldTotal -= 1;
      const left = (held.get(client) ?? 1) - 1;
      if (left > 0) held.set(client, left);
      else held.delete(client);
    };
    const timer = setTimeout(() => {
      release();
      send();
    }, HOLD_MS);
    // A client that gives up frees its place at once.
    res.on('close', release);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const forwarded = req.headers['x-forwarded-for'];
    const client = clientKey(
      addressOf(
        Array.isArray(forwarded) ? forwarded.join(',') : forwarded,
        config,
        () => req.socket.remoteAddress,
      ),
    );
    const wait = budget.take(client);
    if (wait === 0) {
      listener(req, res);
      return;
    }
    refusals.inc();
    summary(client);
    // A body the refusal does not read is not drained over a kept-alive connection: it closes.
    const body =
      req.headers['transfer-encoding'] !== undefined ||
      (req.headers['content-length'] ?? '0') !== '0';
    hold(client, res, () => {
      res.writeHead(429, {
        ...REFUSAL_HEADERS,
        'retry-after': String(wait),
        ...(body ? { connection: 'close' } : {}),
      });
      res.end(REFUSAL);
    });
  };
}

/** `createServer` with every request listener behind `budget`. */
export function budgetedServer(
  budget: RequestBudget,
  config: Pick<Config, 'trustProxy'>,
): typeof createServer {
  return ((options: ServerOptions, listener: RequestListener) =>
    createServer(options, budgetRequests(listener, budget, config))) as typeof createServer;
}

/** Counts refusals by client and logs them at most once a minute, the busiest clients named. */
function summarise(): (client: string) => void {
  let byClient = new Map<string, number>();
  let total = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const busiest = [...byClient]
      .sort((a, b) => b[1] - a[1])
      .slice(0, SUMMARY_CLIENTS)
      .map(([client, count]) => `${client} (${count})`);
    const clients = byClient.size;
    log.warn(
      { limit: 'clientRequests', refused: total, clients, busiest },
      `Refused ${total} requests over the per-client budget (CLIENT_REQUEST_RATE) from ${clients} clients in the last minute: ${busiest.join(', ')}${clients > busiest.length ? ', …' : ''}`,
    );
    byClient = new Map();
    total = 0;
  };
  return (client) => {
    total += 1;
    // Counted per client up to a bound; past it, only the total grows.
    const count = byClient.get(client);
    if (count !== undefined) byClient.set(client, count + 1);
    else if (byClient.size < SUMMARY_KEPT) byClient.set(client, 1);
    if (!timer) {
      timer = setTimeout(flush, SUMMARY_MS);
      timer.unref();
    }
  };
}

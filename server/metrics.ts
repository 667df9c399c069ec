/**
 * Prometheus metrics (prom-client) of this process, served at GET /metrics to the operator
 * alone (METRICS_TOKEN; server/routes/metrics.ts). Counters and histograms are recorded where
 * the work happens; the mail outbox and the morph queue are read when the route is scraped.
 *
 * Labels take bounded values only: route patterns (never addresses), methods, statuses, limit
 * names, outcomes.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Deps } from './deps';

export const metrics = new Registry();
// Memory, CPU, handles and event-loop lag (nodejs_eventloop_lag_*).
collectDefaultMetrics({ register: metrics });

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'Requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metrics],
});

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer a request (to the first byte of a stream), by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metrics],
});

export const rateLimitRefusals = new Counter({
  name: 'rate_limit_refusals_total',
  help: 'Attempts refused with 429, by limit',
  labelNames: ['limit'] as const,
  registers: [metrics],
});

export const eventStreamClients = new Gauge({
  name: 'event_stream_clients',
  help: 'Live event streams open on this process',
  registers: [metrics],
});

export const eventStreamReplayed = new Histogram({
  name: 'event_stream_replay_events',
  help: 'Events a resumed stream replayed',
  buckets: [0, 1, 10, 100, 1000, 10_000],
  registers: [metrics],
});

export const mailOutboxDepth = new Gauge({
  name: 'mail_outbox_depth',
  help: 'Mails waiting in the outbox (read when scraped)',
  registers: [metrics],
});

export const mailOutboxAge = new Gauge({
  name: 'mail_outbox_oldest_age_seconds',
  help: 'Age of the oldest mail waiting in the outbox, 0 when empty (read when scraped)',
  registers: [metrics],
});

export const morphQueueDepth = new Gauge({
  name: 'morph_queue_depth',
  help: 'Morph queue entries by status, queued and processing (read when scraped)',
  labelNames: ['status'] as const,
  registers: [metrics],
});

export const morphJobDuration = new Histogram({
  name: 'morph_job_duration_seconds',
  help: 'Time a morph job took on this process',
  buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [metrics],
});

export const deliveryDerivations = new Histogram({
  name: 'delivery_derivation_duration_seconds',
  help: 'Time to derive a delivery version, by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [metrics],
});

export const dbQueryDuration = new Histogram({
  name: 'db_query_duration_seconds',
  help: "Time a database statement took (waiting for a connection included), by the statement's first keyword",
  labelNames: ['statement'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metrics],
});

/** Keywords a statement may start with; anything else is counted as `other`. */
const STATEMENT_KEYWORDS = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'with',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'lock',
  'create',
  'alter',
  'drop',
  'listen',
  'unlisten',
  'notify',
  'set',
  'show',
  'explain',
  'analyze',
  'vacuum',
  'truncate',
  'copy',
]);

/**
 * The label of a statement: its first keyword, lower case (never the SQL text, which may hold
 * values and would make a label per query).
 */
export function statementLabel(sql: string): string {
  const keyword = /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toLowerCase();
  return keyword !== undefined && STATEMENT_KEYWORDS.has(keyword) ? keyword : 'other';
}

/** The counts of a PostgreSQL connection pool (pg's Pool has them). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

const pools = new Set<PoolCounts>();

/** Counts `pool` in db_pool_clients until the function answered is called (the pool ended). */
export function watchPool(pool: PoolCounts): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

new Gauge({
  name: 'db_pool_clients',
  help: 'PostgreSQL pool: connections open (total), idle, the most it opens (max), and queries waiting for one (waiting); absent on PGlite',
  labelNames: ['state'] as const,
  registers: [metrics],
  collect() {
    this.reset();
    if (pools.size === 0) return;
    let total = 0;
    let idle = 0;
    let waiting = 0;
    let max = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
      max += pool.options.max ?? 0;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'max' }, max);
    this.set({ state: 'waiting' }, waiting);
  },
});

export const dbPoolRefusals = new Counter({
  name: 'db_pool_refusals_total',
  help: 'Requests answered 503 because every pooled PostgreSQL connection stayed in use for the whole connect timeout while the database answered',
  registers: [metrics],
});

/** Seconds since `started` (a performance.now() reading). */
export const secondsSince = (started: number) => (performance.now() - started) / 1000;

/**
 * Sets the gauges read at scrape time: the event stream's clients, the outbox and the morph
 * queue (one indexed read each; the morph count stops at 10,000).
 */
export async function readQueues({ db, events }: Pick<Deps, 'db' | 'events'>) {
  eventStreamClients.set(events.subscribers());
  const [outbox, morphs] = await Promise.all([
    db.query<{ depth: number; age: number | null }>(
      `SELECT count(*)::int AS depth,
              extract(epoch FROM now() - min(created_at))::float8 AS age
         FROM mail_outbox`,
    ),
    db.query<{ status: string; depth: number }>(
      `SELECT status, count(*)::int AS depth FROM (
         SELECT status FROM morph_queue WHERE status IN ('queued', 'processing') LIMIT 10000
       ) AS waiting GROUP BY status`,
    ),
  ]);
  mailOutboxDepth.set(outbox.rows[0]?.depth ?? 0);
  mailOutboxAge.set(Math.max(outbox.rows[0]?.age ?? 0, 0));
  for (const status of ['queued', 'processing']) {
    morphQueueDepth.set({ status }, morphs.rows.find((row) => row.status === status)?.depth ?? 0);
  }
}

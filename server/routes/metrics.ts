/**
 * GET /metrics (Prometheus text format) for the operator: mounted only when METRICS_TOKEN is
 * set, and answered only to `Authorization: Bearer <METRICS_TOKEN>`. Everyone else gets a 401
 * before anything is read, so a stranger's scrape costs no query.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { errorResponse } from '../http/errors';
import {
  eventStreamClients,
  mailOutboxAge,
  mailOutboxDepth,
  metrics,
  morphQueueDepth,
} from '../metrics';

const digest = (value: string) => createHash('sha256').update(value).digest();

export function metricsRoutes(deps: Deps, token: string) {
  const expected = digest(`Bearer ${token}`);
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '');
  on('get', '/metrics', undefined, async (c) => {
    // Digests of equal length, compared in constant time.
    if (!timingSafeEqual(digest(c.req.header('authorization') ?? ''), expected)) {
      c.header('WWW-Authenticate', 'Bearer');
      return errorResponse(c, 401, 'UNAUTHORIZED', 'The metrics need the operator token');
    }
    await readQueues(deps);
    c.header('Content-Type', metrics.contentType);
    return c.body(await metrics.metrics());
  });
  return app;
}

/** The outbox and the morph queue, one indexed read each; the morph count stops at 10,000. */
async function readQueues({ db, events }: Deps) {
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

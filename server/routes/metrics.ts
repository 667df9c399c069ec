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
import { metrics, readQueues } from '../metrics';

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

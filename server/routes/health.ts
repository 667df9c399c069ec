/**
 * GET /healthz (liveness: the process answers and reaches its database) and GET /readyz
 * (readiness: server/readiness.ts), for load balancers and orchestrators.
 */
import { Hono } from 'hono';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { createReadiness } from '../readiness';
import { log } from '../log';

/** Routes mounted at the root, from their declarations (contract/routes.ts). */
export function healthRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '');
  on('get', '/healthz', undefined, async (c) => {
    try {
      await deps.db.query('SELECT 1');
      return c.json({ status: 'ok' });
    } catch (error) {
      log.error({ err: error }, 'Health check failed');
      return c.json({ status: 'unavailable' }, 503);
    }
  });

  const readiness = createReadiness({
    ...deps,
    onFailure: (check, error) =>
      log.warn({ err: error, check }, `Readiness: the ${check} check failed`),
  });
  on('get', '/readyz', undefined, async (c) => {
    c.header('Cache-Control', 'no-store');
    // Before any check: a proxy stops sending new requests here at its next probe.
    if (deps.leaving?.aborted || deps.stopping?.aborted) {
      return c.json({ status: 'stopping' }, 503);
    }
    const answer = await readiness();
    return c.json(answer, answer.status === 'ready' ? 200 : 503);
  });
  return app;
}

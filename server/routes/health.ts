/**
 * GET /healthz (liveness: the process answers and reaches its database) and GET /readyz
 * (readiness: server/readiness.ts), for load balancers and orchestrators.
 */
import { Hono } from 'hono';
import type { Deps } from '../deps';
import { createReadiness } from '../readiness';

export function healthRoutes(deps: Deps) {
  const app = new Hono();
  app.get('/healthz', async (c) => {
    try {
      await deps.db.query('SELECT 1');
      return c.json({ status: 'ok' });
    } catch (error) {
      console.error('Health check failed:', error);
      return c.json({ status: 'unavailable' }, 503);
    }
  });

  const readiness = createReadiness({
    ...deps,
    onFailure: (check, error) => console.warn(`Readiness: the ${check} check failed:`, error),
  });
  app.get('/readyz', async (c) => {
    const answer = await readiness();
    c.header('Cache-Control', 'no-store');
    return c.json(answer, answer.status === 'ready' ? 200 : 503);
  });
  return app;
}

/** GET /v1/dashboard: the dashboard as the caller's role may see it (server/dashboard-store.ts). */
import { Hono } from 'hono';
import type { AuthEnv } from '../auth/middleware';
import { readDashboard } from '../dashboard-store';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';

/** Routes mounted at /v1/dashboard, from their declaration (contract/routes.ts). */
export function dashboardRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/dashboard');
  on('get', '/v1/dashboard', undefined, async (c) => {
    const ability = c.get('auth').ability;
    const data = await readDashboard(deps.db, deps.now(), (action, subject) =>
      ability.can(action, subject),
    );
    return c.json({ data });
  });
  return app;
}

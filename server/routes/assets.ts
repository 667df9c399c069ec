/**
 * Asset routes shared by /v1/assets and /private/v1/assets (the private mount is gated by the
 * PrivateApi ability in app.ts).
 */
import { Hono } from 'hono';
import type { CountByType } from '../../src/api/schemas';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';

/** Routes mounted at /v1/assets and /private/v1/assets. */
export function assetRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();

  app.get('/countByType', requireAuth(deps), requireAbility('read', 'Asset'), async (c) => {
    const { rows } = await deps.db.query<{ type: string; count: number }>(
      'SELECT type, count(*)::int AS count FROM assets GROUP BY type ORDER BY type',
    );
    const data: CountByType = rows.map(({ type, count }) => ({ type, count }));
    return c.json({ data });
  });

  return app;
}

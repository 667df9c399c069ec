/**
 * GET /v1/services: which optional model services are configured (server/config.ts), so the
 * app can choose its way before calling them: without an icon renderer it renders icons in the
 * browser, and without a texture predictor it says why "Predict texture" is unavailable. It
 * also says how many days the Trash keeps what is deleted, for the delete dialogs.
 */
import { Hono } from 'hono';
import type { Services } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';

export function serviceRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/services');
  on('get', '/v1/services', undefined, (c) => {
    const data: Services = {
      iconRenderer: deps.config.iconRendererUrl !== undefined,
      texturePredictor: deps.config.texturePredictorUrl !== undefined,
      trashRetentionDays: deps.config.trashRetentionDays,
    };
    return c.json({ data });
  });
  return app;
}

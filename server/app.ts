/**
 * The reference platform API as a Hono app: `createApp` wires routes to their dependencies.
 * Tests call it with an in-memory database and a fake clock; server/main.ts serves it.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requireAbility, requireAuth, type AuthEnv } from './auth/middleware';
import type { Deps } from './deps';
import { errorResponse, onError } from './http/errors';
import { assetRoutes } from './routes/assets';
import { authRoutes } from './routes/auth';
import { devRoutes } from './routes/dev';
import { userRoutes } from './routes/users';
import { mountSpa } from './static';

/** JSON bodies of this API are small; anything bigger is refused before it is read. */
const MAX_BODY_BYTES = 1024 * 1024;

export type AppDeps = Omit<Deps, 'now'> & Partial<Pick<Deps, 'now'>>;

/** Builds the API (plus the SPA from config.staticDir when it has an index.html). */
export function createApp(input: AppDeps) {
  const deps: Deps = { ...input, now: input.now ?? (() => new Date()) };
  const app = new Hono<AuthEnv>();
  app.onError(onError);
  app.notFound((c) =>
    errorResponse(c, 404, 'NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`),
  );
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => errorResponse(c, 413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'),
    }),
  );

  app.get('/healthz', async (c) => {
    try {
      await deps.db.query('SELECT 1');
      return c.json({ status: 'ok' });
    } catch (error) {
      console.error('Health check failed:', error);
      return c.json({ status: 'unavailable' }, 503);
    }
  });

  app.route('/v1/auth', authRoutes(deps));
  app.route('/v1/users', userRoutes(deps));
  app.route('/v1/assets', assetRoutes(deps));

  // Everything under /private/v1 is for roles with the PrivateApi ability (admin, developer).
  app.use('/private/v1/*', requireAuth(deps), requireAbility('access', 'PrivateApi'));
  app.route('/private/v1/assets', assetRoutes(deps));

  if (deps.config.nodeEnv !== 'production' && deps.mailbox) {
    app.route('/dev', devRoutes(deps.mailbox));
  }
  mountSpa(app, deps.config.staticDir);
  return app;
}

/**
 * The reference platform API as a Hono app: `createApp` wires routes to their dependencies.
 * Tests call it with an in-memory database and a fake clock; server/main.ts serves it.
 */
import { join } from 'node:path';
import { Hono, type MiddlewareHandler } from 'hono';
import { except } from 'hono/combine';
import { bodyLimit } from 'hono/body-limit';
import { compressJson } from './http/compress-json';
import { requireAbility, requireAuth, type AuthEnv } from './auth/middleware';
import { createSessionCheck } from './auth/session-check';
import type { Deps } from './deps';
import { createEventBus } from './event-bus';
import { errorResponse, fail, onError } from './http/errors';
import { eventPosition } from './http/event-position';
import { methodNotAllowed } from './http/method-not-allowed';
import { requestLog } from './http/request-log';
import { httpDuration, httpRequests } from './metrics';
import { securityHeaders } from './http/security-headers';
import {
  applicationAssetRoutes,
  applicationMorphedAssetRoutes,
  applicationRoutes,
} from './routes/applications';
import { accountRoutes } from './routes/account';
import { assetApplicationRoutes } from './routes/asset-applications';
import { assetBulkRoutes } from './routes/asset-bulk';
import { assetRoutes } from './routes/assets';
import { authRoutes } from './routes/auth';
import { cageMeshRoutes } from './routes/cage-meshes';
import { devRoutes } from './routes/dev';
import { eventRoutes } from './routes/events';
import { fileRoutes, storedFileInfoRoutes } from './routes/files';
import { healthRoutes } from './routes/health';
import { metricsRoutes } from './routes/metrics';
import { adminInvitationRoutes, invitationRoutes } from './routes/invitations';
import { morphGenerateRoutes, morphQueueRoutes, morphedAssetRoutes } from './routes/morphs';
import { openApiRoutes } from './routes/openapi';
import { serviceRoutes } from './routes/services';
import { adminSessionRoutes, sessionRoutes } from './routes/sessions';
import { tagRoutes } from './routes/tags';
import { deleteRoutes, restoreRoutes, trashRoutes } from './routes/trash';
import { adminBulkJobRoutes, bulkJobRoutes } from './routes/bulk-jobs';
import { passkeyAccountRoutes, passkeySignInRoutes } from './routes/passkeys';
import { savedViewRoutes } from './routes/saved-views';
import { activityRoutes } from './routes/activity';
import { dashboardRoutes } from './routes/dashboard';
import { uploadRoutes } from './routes/uploads';
import { userAssetRoutes } from './routes/user-assets';
import { assetUserRoutes } from './routes/asset-users';
import { userAdminRoutes } from './routes/user-admin';
import { adminUserRoutes, userRoutes } from './routes/users';
import {
  secondFactorAccountRoutes,
  secondFactorAdminRoutes,
  secondFactorSignInRoutes,
} from './routes/second-factor';
import { mountSpa, spaFiles } from './static';
import { createLocalStorage } from './storage';
import { traceRequests } from './tracing';

/** JSON bodies of this API are small; anything bigger is refused before it is read. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Where files are uploaded (raw bytes, not JSON). */
const UPLOADS_PATH = '/v1/uploads/';

/**
 * Deps with defaults: the real clock, file storage under DATA_DIR/files, an event bus and a
 * session check on `db` (they listen only once a stream opens or a token is checked; whoever
 * runs a server on PostgreSQL passes its own and closes them before the database).
 */
export type AppDeps = Omit<Deps, 'now' | 'storage' | 'events' | 'sessions'> &
  Partial<Pick<Deps, 'now' | 'storage' | 'events' | 'sessions'>> & {
    /** Sees every answer as sent: the tests check each against the document (server/test-answers.ts). */
    answerCheck?: MiddlewareHandler;
  };

/** The kinds deleted and restored by the Trash's routes alone, by their mount. */
const TRASHED_BY_THE_TRASH = [
  ['cage-meshes', 'cage-mesh'],
  ['applications', 'application'],
  ['morphed-assets', 'morphed-asset'],
] as const;

/** Builds the API (plus the SPA from config.staticDir when it has an index.html). */
export function createApp(input: AppDeps) {
  const deps: Deps = {
    ...input,
    now: input.now ?? (() => new Date()),
    storage: input.storage ?? createLocalStorage(join(input.config.dataDir, 'files')),
    events: input.events ?? createEventBus(input.db),
    sessions: input.sessions ?? createSessionCheck(input.db),
  };
  const app = new Hono<AuthEnv>();
  if (input.answerCheck) app.use('*', input.answerCheck);
  app.use('*', traceRequests());
  app.use(
    '*',
    requestLog(({ method, route, status, seconds }) => {
      const labels = { method, route, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    }),
  );
  const spa = spaFiles(deps.config.staticDir);
  app.use(
    '*',
    securityHeaders(deps.config, () => spa.current()?.inlineScripts ?? []),
  );
  app.use('*', compressJson());
  app.onError(onError);
  app.notFound((c) =>
    errorResponse(c, 404, 'NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`),
  );
  app.use('*', methodNotAllowed(app));
  // Uploads stream their bytes to storage under their own per-kind limits (routes/uploads.ts);
  // the JSON limit would buffer them. No GET or HEAD handler reads a body: skipping the check
  // for them spares building a whole Request per read (about 0.1 ms, a tenth of a static file's
  // serving time).
  app.use(
    '*',
    except(
      (c) =>
        c.req.path.startsWith(UPLOADS_PATH) || c.req.method === 'GET' || c.req.method === 'HEAD',
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: (c) => errorResponse(c, 413, 'PAYLOAD_TOO_LARGE', 'The request body is too large'),
      }),
    ),
  );

  // PostgreSQL text cannot hold NUL, so a %00 in a path or query value is refused up front.
  app.use('*', async (c, next) => {
    if (c.req.url.includes('%00')) fail(400, 'VALIDATION_ERROR', 'The URL must not contain %00');
    await next();
  });

  // Where in the live stream each read was taken (not on the stream itself).
  const readPosition = except('/v1/events', eventPosition(deps));
  app.use('/v1/*', readPosition);
  app.use('/private/v1/*', readPosition);

  app.route('/', healthRoutes(deps));
  if (deps.config.metricsToken) app.route('/', metricsRoutes(deps, deps.config.metricsToken));

  if (deps.config.apiDocs) app.route('/v1', openApiRoutes(deps));
  app.route('/v1/auth', authRoutes(deps));
  app.route('/v1/auth', secondFactorSignInRoutes(deps));
  app.route('/v1/auth', passkeySignInRoutes(deps));
  app.route('/v1/users/me/second-factor', secondFactorAccountRoutes(deps));
  app.route('/v1/users/me/passkeys', passkeyAccountRoutes(deps));
  app.route('/v1/users/me/sessions', sessionRoutes(deps));
  app.route('/v1/users/me', accountRoutes(deps));
  app.route('/v1/invitations', invitationRoutes(deps));
  app.route('/v1/users', userRoutes(deps));
  app.route('/v1/tags', tagRoutes(deps));
  app.route('/v1/tags', restoreRoutes(deps, 'tag', '/v1/tags'));
  app.route('/v1/trash', trashRoutes(deps));
  app.route('/v1/bulk-jobs', bulkJobRoutes(deps));
  app.route('/v1/cage-meshes', cageMeshRoutes(deps));
  app.route('/v1/user-assets', userAssetRoutes(deps));
  app.route('/v1/morphed-assets', morphGenerateRoutes(deps));
  app.route('/v1/uploads', uploadRoutes(deps));
  app.route('/v1/files', storedFileInfoRoutes(deps));
  app.route('/v1/services', serviceRoutes(deps));
  app.route('/v1/events', eventRoutes(deps));
  app.route('/v1/activity', activityRoutes(deps));
  app.route('/v1/dashboard', dashboardRoutes(deps));
  app.route('/v1/saved-views', savedViewRoutes(deps));
  app.route('/files', fileRoutes(deps));

  // Everything under /private/v1 is for roles with the PrivateApi ability (admin, developer).
  app.use('/private/v1/*', requireAuth(deps), requireAbility('access', 'PrivateApi'));
  app.route('/private/v1/cage-meshes', cageMeshRoutes(deps, { createOnly: true }));
  app.route('/private/v1/morphed-assets', morphedAssetRoutes(deps));
  app.route('/private/v1/user-assets', userAssetRoutes(deps, { manage: true }));
  app.route('/private/v1/asset-users', assetUserRoutes(deps));
  app.route('/private/v1/users', adminUserRoutes(deps));
  app.route('/private/v1/users', adminSessionRoutes(deps));
  app.route('/private/v1/users', userAdminRoutes(deps));
  app.route('/private/v1/users', secondFactorAdminRoutes(deps));
  app.route('/private/v1/invitations', adminInvitationRoutes(deps));
  app.route('/private/v1/bulk-jobs', adminBulkJobRoutes(deps));
  // The same handlers on both mounts.
  for (const prefix of ['/v1', '/private/v1']) {
    app.route(`${prefix}/assets`, assetRoutes(deps, { privateApi: prefix === '/private/v1' }));
    app.route(`${prefix}/assets`, assetApplicationRoutes(deps, `${prefix}/assets`));
    app.route(`${prefix}/assets`, assetBulkRoutes(deps, `${prefix}/assets`));
    app.route(`${prefix}/assets`, restoreRoutes(deps, 'asset', `${prefix}/assets`));
    for (const [path, routes] of [
      ['applications', applicationRoutes],
      ['application-assets', applicationAssetRoutes],
      ['application-morphed-assets', applicationMorphedAssetRoutes],
    ] as const) {
      app.route(`${prefix}/${path}`, routes(deps, `${prefix}/${path}`));
    }
    app.route(
      `${prefix}/morphed-asset-queue`,
      morphQueueRoutes(deps, `${prefix}/morphed-asset-queue`),
    );
    // Kinds whose delete and restore are the Trash's own routes (docs/api.md "Trash").
    for (const [path, kind] of TRASHED_BY_THE_TRASH) {
      const mount = `${prefix}/${path}`;
      app.route(mount, deleteRoutes(deps, kind, mount));
      app.route(mount, restoreRoutes(deps, kind, mount));
    }
  }

  if (deps.config.nodeEnv !== 'production' && deps.mailbox) {
    app.route('/dev', devRoutes(deps, deps.mailbox));
  }
  mountSpa(app, spa, {
    sourceMaps: deps.config.nodeEnv !== 'production',
    publicUrl: deps.config.publicUrl,
  });
  return app;
}

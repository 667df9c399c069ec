/**
 * Bulk jobs (server/bulk-jobs.ts), mounted at /v1/bulk-jobs: POST queues one, GET lists the
 * caller's recent ones, GET /{id} reads one, POST /{id}/cancel cancels it. There each caller
 * sees and cancels only their own jobs (another's is a 404). Under /private/v1/bulk-jobs admins
 * see everyone's and cancel any: a job changes rows every user sees, so someone must be able
 * to stop it.
 */
import { Hono } from 'hono';
import { bulkJobCreateBodySchema } from '../../contract/bulk-jobs';
import type { AuthEnv } from '../auth/middleware';
import {
  cancelBulkJob,
  createBulkJob,
  getAnyonesBulkJob,
  getBulkJob,
  listBulkJobs,
  listEveryonesBulkJobs,
} from '../bulk-jobs';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { keepAnswer } from '../http/idempotency';

/**
 * Routes mounted at /v1/bulk-jobs, each from its declaration (contract/routes.ts): whoever may
 * change or delete assets (the actions' own abilities are checked per action).
 */
export function bulkJobRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/bulk-jobs');

  on('post', '/v1/bulk-jobs', bulkJobCreateBodySchema, async (c, body) => {
    const { userId, ability } = c.get('auth');
    const data = await createBulkJob(deps, { userId, ability }, body, (tx, job) =>
      keepAnswer(tx, c, c.json({ data: job })),
    );
    return c.json({ data });
  });

  on('get', '/v1/bulk-jobs', undefined, async (c) =>
    c.json({ data: await listBulkJobs(deps.db, c.get('auth').userId) }),
  );

  on('get', '/v1/bulk-jobs/{id}', undefined, async (c) =>
    c.json({ data: await getBulkJob(deps.db, c.get('auth').userId, c.req.param('id')!) }),
  );

  on('post', '/v1/bulk-jobs/{id}/cancel', undefined, async (c) =>
    c.json({ data: await cancelBulkJob(deps, c.get('auth').userId, c.req.param('id')!) }),
  );

  return app;
}

/** Routes mounted at /private/v1/bulk-jobs, for admins: every user's jobs, and cancelling any. */
export function adminBulkJobRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/private/v1/bulk-jobs');

  on('get', '/private/v1/bulk-jobs', undefined, async (c) =>
    c.json({ data: await listEveryonesBulkJobs(deps.db) }),
  );

  on('post', '/private/v1/bulk-jobs/{id}/cancel', undefined, async (c) => {
    const id = c.req.param('id')!;
    await cancelBulkJob(deps, c.get('auth').userId, id, { anyone: true });
    return c.json({ data: await getAnyonesBulkJob(deps.db, id) });
  });

  return app;
}

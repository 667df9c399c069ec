/**
 * Bulk jobs (server/bulk-jobs.ts), mounted at /v1/bulk-jobs: POST queues one, GET lists the
 * caller's recent ones, GET /{id} reads one, POST /{id}/cancel cancels it. Each caller sees and
 * cancels only their own jobs (another's is a 404, admins included): a job's filter and
 * progress are the business of whoever started it, and the rows it changes are seen by
 * everyone through the lists and the live stream.
 */
import { Hono } from 'hono';
import { bulkJobCreateBodySchema } from '../../contract/bulk-jobs';
import { requireAuth, type AuthEnv } from '../auth/middleware';
import { cancelBulkJob, createBulkJob, getBulkJob, listBulkJobs } from '../bulk-jobs';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { readBody } from '../http/validate';

/** Routes mounted at /v1/bulk-jobs. */
export function bulkJobRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps));
  // Whoever may change or delete assets (the actions' own abilities are checked per action).
  app.use('*', async (c, next) => {
    const { ability } = c.get('auth');
    if (!ability.can('update', 'Asset') && !ability.can('delete', 'Asset')) {
      fail(403, 'FORBIDDEN', 'Your role may not change assets');
    }
    await next();
  });

  app.post('/', async (c) => {
    const body = await readBody(c, bulkJobCreateBodySchema);
    const { userId, ability } = c.get('auth');
    const data = await createBulkJob(deps, { userId, ability }, body, (tx, job) =>
      keepAnswer(tx, c, c.json({ data: job })),
    );
    return c.json({ data });
  });

  app.get('/', async (c) => c.json({ data: await listBulkJobs(deps.db, c.get('auth').userId) }));

  app.get('/:id', async (c) =>
    c.json({ data: await getBulkJob(deps.db, c.get('auth').userId, c.req.param('id')) }),
  );

  app.post('/:id/cancel', async (c) =>
    c.json({ data: await cancelBulkJob(deps, c.get('auth').userId, c.req.param('id')) }),
  );

  return app;
}

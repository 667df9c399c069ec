/**
 * Morphed assets and their generation queue: /v1/morphed-asset-queue (also private),
 * POST /v1/morphed-assets/generate and /private/v1/morphed-assets. Statuses are
 * `morphStatusSchema`; server/morph-queue-store.ts keeps them and server/morph-worker.ts does
 * the work (docs/api.md "Morph queue").
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod/mini';
import { morphGenerateBodySchema } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { listHandler } from '../list';
import { morphedListSpec, morphStatuses, queueListSpec, queueMorphs } from '../morph-queue-store';

const MAX_STATUS_IDS = 100;

/** `?ids=a&ids=b` or `?ids=a,b`: 1 to 100 queue entry ids, nothing else. */
function readIds(c: Context): string[] {
  const { ids = [], ...rest } = c.req.queries();
  const unknown = Object.keys(rest);
  if (unknown.length > 0) fail(400, 'VALIDATION_ERROR', `${unknown[0]}: Unknown parameter`);
  const list = [...new Set(ids.flatMap((value) => value.split(',')).filter(Boolean))];
  if (list.length === 0) fail(400, 'VALIDATION_ERROR', 'ids: Required');
  if (list.length > MAX_STATUS_IDS) fail(400, 'VALIDATION_ERROR', 'ids: At most 100 ids');
  return list;
}

/**
 * Routes mounted at `mount`, /v1/morphed-asset-queue or /private/v1/morphed-asset-queue, from
 * their declarations (contract/routes.ts).
 */
export function morphQueueRoutes(deps: Deps, mount: string) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, mount);

  on('get', mount, undefined, listHandler(db, queueListSpec));
  on('get', `${mount}/status`, undefined, morphStatusHandler(deps));

  return app;
}

/** The statuses of the given queue entries (unknown ids are left out). */
function morphStatusHandler(deps: Deps) {
  return async (c: Context<AuthEnv>) => c.json({ data: await morphStatuses(deps.db, readIds(c)) });
}

/**
 * POST …/generate: queues one entry per body asset (the source fitted onto that body) and
 * records morphQueueEntryCreated on the source asset; the worker picks the entries up.
 */
function generateHandler(deps: Deps) {
  return async (c: Context<AuthEnv>, body: z.infer<typeof morphGenerateBodySchema>) => {
    const { sourceAssetId } = body;
    const bodyAssetIds = [...new Set(body.bodyAssetIds)];
    if (bodyAssetIds.includes(sourceAssetId)) {
      fail(400, 'VALIDATION_ERROR', 'bodyAssetIds: An asset cannot be morphed onto itself');
    }
    const { userId } = c.get('auth');
    const data = await deps.db.transaction(async (tx) => {
      const entries = await queueMorphs(tx, { sourceAssetId, bodyAssetIds }, userId, deps.now);
      await keepAnswer(tx, c, c.json({ data: entries }));
      return entries;
    });
    return c.json({ data });
  };
}

/** Routes mounted at /v1/morphed-assets: generation only (the lists are private). */
export function morphGenerateRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/morphed-assets');
  on('post', '/v1/morphed-assets/generate', morphGenerateBodySchema, generateHandler(deps));
  return app;
}

/** Routes mounted at /private/v1/morphed-assets, from their declarations (contract/routes.ts). */
export function morphedAssetRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const mount = '/private/v1/morphed-assets';
  const on = declaredRoutes(app, deps, mount);

  on('post', `${mount}/generate`, morphGenerateBodySchema, generateHandler(deps));

  on('get', mount, undefined, listHandler(db, morphedListSpec));
  // The generation status of queue entries, as on /v1/morphed-asset-queue/status.
  on('get', `${mount}/status`, undefined, morphStatusHandler(deps));

  return app;
}

/**
 * /v1/cage-meshes (and POST /private/v1/cage-meshes): the body meshes assets are fitted to
 * (server/cage-mesh-store.ts). A cage mesh is linked to no asset (docs/api.md "Cage meshes").
 */
import { Hono } from 'hono';
import { cageMeshCreateBodySchema, cageMeshPatchBodySchema } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import { cageMeshListSpec, getCageMesh, insertCageMesh, updateCageMesh } from '../cage-mesh-store';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { holdFileReferences } from '../file-sweeper';
import { keepAnswer } from '../http/idempotency';
import { listHandler } from '../list';
import { readIfMatch, setVersionTag } from '../versions';

/**
 * Routes mounted at /v1/cage-meshes, each from its declaration (contract/routes.ts);
 * `{ createOnly: true }`: its create alone, at /private/v1/cage-meshes.
 */
export function cageMeshRoutes(deps: Deps, options: { createOnly?: boolean } = {}) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const mount = options.createOnly ? '/private/v1/cage-meshes' : '/v1/cage-meshes';
  const on = declaredRoutes(app, deps, mount);

  on('post', mount, cageMeshCreateBodySchema, async (c, body) => {
    const data = await db.transaction(async (tx) => {
      await holdFileReferences(tx);
      const cageMesh = await insertCageMesh(
        tx,
        deps.storage,
        body,
        c.get('auth').userId,
        deps.now(),
      );
      await keepAnswer(tx, c, c.json({ data: cageMesh }));
      return cageMesh;
    });
    return c.json({ data });
  });
  if (options.createOnly) return app;

  on('get', mount, undefined, listHandler(db, cageMeshListSpec));

  on('get', `${mount}/{id}`, undefined, async (c) => {
    const data = await getCageMesh(db, c.req.param('id')!);
    setVersionTag(c, data);
    return c.json({ data });
  });

  on('patch', `${mount}/{id}`, cageMeshPatchBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const data = await db.transaction(async (tx) => {
      await holdFileReferences(tx);
      return updateCageMesh(tx, deps.storage, id, body, c.get('auth').userId, deps.now(), base);
    });
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

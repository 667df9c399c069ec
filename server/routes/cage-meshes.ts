/**
 * /v1/cage-meshes (and POST /private/v1/cage-meshes): the body meshes assets are fitted to.
 * Creating or changing one records `asset.cage-mesh-updated.v1` in the same transaction; a cage
 * mesh is linked to no asset (docs/api.md "Cage meshes"), so the event names the cage mesh.
 */
import { Hono } from 'hono';
import {
  cageMeshCreateBodySchema,
  cageMeshPatchBodySchema,
  genderSchema,
  type CageMesh,
  type Gender,
} from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { recordCageMeshEvent } from '../events';
import { holdFileReferences } from '../file-sweeper';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { newId } from '../ids';
import { anyOfFilter, findById, listHandler, searchFilter, type ListSpec } from '../list';
import { isoString } from '../timestamps';
import { storedFileFor } from '../asset-store';
import { checkBase, readIfMatch, setVersionTag } from '../versions';

interface CageMeshDbRow {
  id: string;
  name: string;
  gender: Gender;
  body_type: string | null;
  model_url: string | null;
  created_at: Date;
  updated_at: Date;
  version: number;
}

const cageMeshListSpec: ListSpec<CageMesh> = {
  from: 'cage_meshes m',
  columns: `m.id, m.name, m.gender, m.body_type, m.model_url, m.created_at, m.updated_at,
    m.version`,
  orders: { name: 'm.name', createdAt: 'm.created_at', updatedAt: 'm.updated_at' },
  defaultOrder: 'name',
  idColumn: 'm.id',
  filters: {
    search: searchFilter('m.name'),
    gender: anyOfFilter('m.gender', genderSchema.options),
  },
  toRow: (row: CageMeshDbRow) => ({
    id: row.id,
    name: row.name,
    gender: row.gender,
    bodyType: row.body_type,
    modelUrl: row.model_url,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
    version: row.version,
  }),
};

/** `modelUrl` must be a GLB stored on this server (`/files/<key>` of an upload); else 400. */
async function checkModelUrl(deps: Deps, modelUrl: string | null | undefined) {
  if (typeof modelUrl !== 'string') return;
  const file = await storedFileFor(deps.storage, 'modelUrl', modelUrl, 'model');
  if (file.contentType !== 'model/gltf-binary') {
    fail(400, 'VALIDATION_ERROR', 'modelUrl: Expected a GLB (model/gltf-binary)');
  }
}

function getCageMesh(db: Db, id: string): Promise<CageMesh> {
  return findById(db, cageMeshListSpec, id, 'cage mesh');
}

/** The fields of a cage mesh a body may change. */
const EDITABLE = ['name', 'gender', 'bodyType', 'modelUrl'] as const;

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
    const id = newId();
    const at = deps.now();
    const data = await db.transaction(async (tx) => {
      await holdFileReferences(tx);
      await checkModelUrl(deps, body.modelUrl);
      await tx.query(
        `INSERT INTO cage_meshes (id, name, gender, body_type, model_url, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [id, body.name, body.gender, body.bodyType ?? null, body.modelUrl ?? null, at],
      );
      const cageMesh = await getCageMesh(tx, id);
      await recordCageMeshEvent(tx, {
        cageMeshId: id,
        actorId: c.get('auth').userId,
        data: { created: true, cageMesh },
        at,
      });
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

  // Only the fields present in the body change; `null` clears bodyType or modelUrl. A change
  // records `cage-mesh-updated` with the changed fields and the cage mesh after it; a body that
  // changes nothing writes and records nothing.
  on('patch', `${mount}/{id}`, cageMeshPatchBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const at = deps.now();
    const data = await db.transaction(async (tx) => {
      await holdFileReferences(tx);
      await tx.query('SELECT 1 FROM cage_meshes WHERE id = $1 FOR UPDATE', [id]);
      const current = await getCageMesh(tx, id);
      await checkModelUrl(deps, body.modelUrl);
      const next = {
        name: body.name ?? current.name,
        gender: body.gender ?? current.gender,
        bodyType: body.bodyType === undefined ? current.bodyType : body.bodyType,
        modelUrl: body.modelUrl === undefined ? current.modelUrl : body.modelUrl,
      };
      const changed = EDITABLE.filter((field) => next[field] !== current[field]);
      const changes = Object.fromEntries(
        changed.map((field) => [field, { from: current[field], to: next[field] }]),
      );
      await checkBase(tx, 'cage-mesh', current, base, changes);
      if (changed.length === 0) return current;
      await tx.query(
        `UPDATE cage_meshes SET name = $2, gender = $3, body_type = $4, model_url = $5,
           updated_at = $6 WHERE id = $1`,
        [id, next.name, next.gender, next.bodyType, next.modelUrl, at],
      );
      const cageMesh = await getCageMesh(tx, id);
      await recordCageMeshEvent(tx, {
        cageMeshId: id,
        actorId: c.get('auth').userId,
        data: { changes, cageMesh },
        at,
      });
      return cageMesh;
    });
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

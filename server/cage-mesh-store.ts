/**
 * The cage meshes' store: the body meshes assets are fitted to, their list, and creating or
 * changing one, which records `asset.cage-mesh-updated.v1` in the same transaction (a cage mesh
 * is linked to no asset, so the event names the cage mesh).
 */
import type { z } from 'zod/mini';
import {
  genderSchema,
  type CageMesh,
  type cageMeshCreateBodySchema,
  type cageMeshPatchBodySchema,
  type Gender,
} from '../contract/schemas';
import { storedFileFor } from './asset-store';
import type { Db } from './db';
import { recordCageMeshEvent } from './events';
import { newId } from './ids';
import { anyOfFilter, findById, searchFilter, type ListSpec } from './list';
import { fail } from './http/errors';
import type { Storage } from './storage';
import { isoString } from './timestamps';
import { checkBase } from './versions';

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

export const cageMeshListSpec: ListSpec<CageMesh> = {
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

type CageMeshCreateBody = z.infer<typeof cageMeshCreateBodySchema>;
type CageMeshPatchBody = z.infer<typeof cageMeshPatchBodySchema>;

/** `modelUrl` must be a GLB stored on this server (`/files/<key>` of an upload); else 400. */
async function checkModelUrl(storage: Storage, modelUrl: string | null | undefined) {
  if (typeof modelUrl !== 'string') return;
  const file = await storedFileFor(storage, 'modelUrl', modelUrl, 'model');
  if (file.contentType !== 'model/gltf-binary') {
    fail(400, 'VALIDATION_ERROR', 'modelUrl: Expected a GLB (model/gltf-binary)');
  }
}

export function getCageMesh(db: Db, id: string): Promise<CageMesh> {
  return findById(db, cageMeshListSpec, id, 'cage mesh');
}

/** The fields of a cage mesh a body may change. */
const EDITABLE = ['name', 'gender', 'bodyType', 'modelUrl'] as const;

/**
 * A new cage mesh, its creation recorded by `actorId`; its model must be a stored GLB. Call it
 * holding the file references (server/file-sweeper.ts `holdFileReferences`).
 */
export async function insertCageMesh(
  tx: Db,
  storage: Storage,
  body: CageMeshCreateBody,
  actorId: string,
  at: Date,
): Promise<CageMesh> {
  await checkModelUrl(storage, body.modelUrl);
  const id = newId();
  await tx.query(
    `INSERT INTO cage_meshes (id, name, gender, body_type, model_url, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)`,
    [id, body.name, body.gender, body.bodyType ?? null, body.modelUrl ?? null, at],
  );
  const cageMesh = await getCageMesh(tx, id);
  await recordCageMeshEvent(tx, { cageMeshId: id, actorId, data: { created: true, cageMesh }, at });
  return cageMesh;
}

/**
 * Changes the fields present in `body` (`null` clears bodyType or modelUrl) and records
 * `cage-mesh-updated` with the changed fields and the cage mesh after it; a body that changes
 * nothing writes and records nothing. With a `base` version (If-Match), a field someone else
 * changed since is a 409. Call it holding the file references, as `insertCageMesh`.
 */
export async function updateCageMesh(
  tx: Db,
  storage: Storage,
  id: string,
  body: CageMeshPatchBody,
  actorId: string,
  at: Date,
  base?: number,
): Promise<CageMesh> {
  await tx.query('SELECT 1 FROM cage_meshes WHERE id = $1 FOR UPDATE', [id]);
  const current = await getCageMesh(tx, id);
  await checkModelUrl(storage, body.modelUrl);
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
  await recordCageMeshEvent(tx, { cageMeshId: id, actorId, data: { changes, cageMesh }, at });
  return cageMesh;
}

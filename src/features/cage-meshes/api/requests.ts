/**
 * Cage mesh endpoints (spec §7 "Cage meshes and tags"), the cached cage mesh and what a save
 * refreshes (changes go through mutations.ts). Public calls fail with `service: 'cageMeshes'`,
 * the private create with `service: 'privateCageMeshes'`.
 */
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod/mini';
import { tagService } from '../../../api/errors';
import { apiRequest } from '../../../api/http';
import { endpoint, ENDPOINTS, type ApiScope } from '../../../../contract/paths';
import { invalidateList } from '../../../api/lists';
import { queryClient } from '../../../api/query';
import {
  cageMeshCreateBodySchema,
  cageMeshPatchBodySchema,
  cageMeshSchema,
  type CageMesh,
} from '../../../../contract/schemas';

export type CageMeshCreateBody = z.input<typeof cageMeshCreateBodySchema>;
export type CageMeshPatchBody = z.input<typeof cageMeshPatchBodySchema>;

const cageMeshesService = tagService('cageMeshes');
const privateCageMeshesService = tagService('privateCageMeshes');
const path = (id: string) => endpoint(ENDPOINTS.cageMesh, { id });

/** One cage mesh. */
export function getCageMesh(
  id: string,
  { signal }: { signal?: AbortSignal } = {},
): Promise<CageMesh> {
  return cageMeshesService(() =>
    apiRequest(path(id), cageMeshSchema, signal === undefined ? {} : { signal }),
  );
}

/** Creates a cage mesh under `v1/` or (scope `private`) `private/v1/`. */
export function createCageMesh(
  body: CageMeshCreateBody,
  { scope = 'public' }: { scope?: ApiScope } = {},
): Promise<CageMesh> {
  const service = scope === 'private' ? privateCageMeshesService : cageMeshesService;
  return service(() =>
    apiRequest(endpoint(ENDPOINTS.cageMeshes, {}, scope), cageMeshSchema, {
      method: 'post',
      json: body,
    }),
  );
}

/** Changes some fields of a cage mesh; `baseVersion` as the asset's (features/assets updateAsset). */
export function updateCageMesh(
  id: string,
  body: CageMeshPatchBody,
  baseVersion?: number,
): Promise<CageMesh> {
  const options = { method: 'patch', json: body, baseVersion } as const;
  return cageMeshesService(() => apiRequest(path(id), cageMeshSchema, options));
}

/** One cage mesh (its page). */
export const cageMeshQuery = (id: string) =>
  queryOptions({
    queryKey: ['cage-meshes', id] as const,
    queryFn: ({ signal }) => getCageMesh(id, { signal }),
  });

/** After a create or save: the answer is the cached record and the cage mesh list is read again. */
export async function cageMeshSaved(mesh: CageMesh): Promise<void> {
  queryClient.setQueryData(cageMeshQuery(mesh.id).queryKey, mesh);
  await invalidateList(endpoint(ENDPOINTS.cageMeshes));
}

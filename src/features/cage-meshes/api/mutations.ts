/**
 * The cage mesh's changes (see src/api/mutations.ts for the rule): each sends its request, then
 * the answer becomes the cached record and the list is read again (cageMeshSaved).
 */
import { change } from '../../../api/mutations';
import type { ApiScope } from '../../../../contract/paths';
import {
  cageMeshSaved,
  createCageMesh,
  updateCageMesh,
  type CageMeshCreateBody,
  type CageMeshPatchBody,
} from './requests';

/** Creates a cage mesh under `v1/` or (scope `private`) `private/v1/`. */
export const addCageMesh = (body: CageMeshCreateBody, { scope }: { scope?: ApiScope } = {}) =>
  change(createCageMesh(body, { scope }), cageMeshSaved);

/** Changes some fields of a cage mesh (see updateCageMesh for `baseVersion`). */
export const saveCageMesh = (id: string, body: CageMeshPatchBody, baseVersion?: number) =>
  change(updateCageMesh(id, body, baseVersion), cageMeshSaved);

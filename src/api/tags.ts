/** Tag endpoints (spec §7 "Cage meshes and tags"). Every failure carries `service: 'tags'`. */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { invalidateLists } from './lists';
import { queryClient } from './query';
import {
  assetSchema,
  tagRowSchema,
  tagSchema,
  type Asset,
  type Tag,
  type TagRow,
} from '../../contract/schemas';

const tagsService = tagService('tags');
const path = (tagId: string) => endpoint(ENDPOINTS.tag, { tagId });

/** One tag by id (404 once it is deleted). */
export function getTag(tagId: string): Promise<TagRow> {
  return tagsService(() => apiRequest(path(tagId), tagRowSchema));
}

/** One tag by id, cached; read again when tags change (tagsChanged). */
export const tagQuery = (tagId: string) =>
  queryOptions({ queryKey: ['tags', tagId], queryFn: () => getTag(tagId) });

/** Creates a tag. */
export function createTag(name: string): Promise<Tag> {
  return tagsService(() =>
    apiRequest(endpoint(ENDPOINTS.tags), tagSchema, { method: 'post', json: { name } }),
  );
}

/**
 * Renames a tag. Based on `baseVersion` (If-Match), a name someone else changed since answers
 * 409 EDIT_CONFLICT; without it the last rename wins.
 */
export function renameTag(tagId: string, name: string, baseVersion?: number): Promise<TagRow> {
  const options = { method: 'put', json: { name }, baseVersion } as const;
  return tagsService(() => apiRequest(path(tagId), tagRowSchema, options));
}

/** Deletes a tag (and takes it off every asset). */
export function deleteTag(tagId: string): Promise<unknown> {
  return tagsService(() => apiRequest(path(tagId), z.unknown(), { method: 'delete' }));
}

/** Puts a tag on an asset; answers the asset with its tags. */
export function setTag(assetId: string, tagId: string): Promise<Asset> {
  return tagsService(() =>
    apiRequest(endpoint(ENDPOINTS.tagSet), assetSchema, {
      method: 'post',
      json: { assetId, tagId },
    }),
  );
}

/** Takes a tag off an asset; answers the asset with its tags. */
export function removeTag(assetId: string, tagId: string): Promise<Asset> {
  return tagsService(() =>
    apiRequest(endpoint(ENDPOINTS.tagRemove), assetSchema, {
      method: 'post',
      json: { assetId, tagId },
    }),
  );
}

/**
 * After a tag was created, renamed or deleted: the tag lists and pickers are read again, and
 * so is every asset read (assets carry their tags' names).
 */
export async function tagsChanged(): Promise<void> {
  await Promise.all([
    invalidateLists(() => true),
    queryClient.invalidateQueries({ queryKey: ['assets'] }),
    queryClient.invalidateQueries({ queryKey: ['tags'] }),
  ]);
}

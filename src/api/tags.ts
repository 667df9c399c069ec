/** Tag endpoints (spec §7 "Cage meshes and tags"). Every failure carries `service: 'tags'`. */
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiRequest } from './http';
import { tagSchema, type Tag } from './schemas';

const tagsService = tagService('tags');
const path = (tagId: string) => `v1/tags/${encodeURIComponent(tagId)}`;

/** Creates a tag. */
export function createTag(name: string): Promise<Tag> {
  return tagsService(apiRequest('v1/tags', tagSchema, { method: 'post', json: { name } }));
}

/** Renames a tag. */
export function renameTag(tagId: string, name: string): Promise<Tag> {
  return tagsService(apiRequest(path(tagId), tagSchema, { method: 'put', json: { name } }));
}

/** Deletes a tag (and takes it off every asset). */
export function deleteTag(tagId: string): Promise<unknown> {
  return tagsService(apiRequest(path(tagId), z.unknown(), { method: 'delete' }));
}

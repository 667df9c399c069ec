/**
 * The Trash (docs/api.md "Trash"): deleted assets, tags, cage meshes, applications and
 * morphed assets wait there until they are restored or deleted for ever. Every failure carries
 * `service: 'trash'`.
 */
import { tagService } from './errors';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { invalidateLists } from './lists';
import { queryClient } from './query';
import { trashResultSchema, type TrashKind, type TrashRef } from '../../contract/schemas';

const trashService = tagService('trash');

/**
 * After a record goes to the Trash or comes back: every list, record and count is read again.
 * A cage mesh's or an application's page is left when it is deleted, so its record is read at
 * the next visit, not while the page is still leaving (that read would be a 404).
 */
async function trashChanged(): Promise<void> {
  await Promise.all([
    invalidateLists(() => true),
    ...['assets', 'tags', 'asset-counts'].map((key) =>
      queryClient.invalidateQueries({ queryKey: [key] }),
    ),
    ...['cage-meshes', 'applications'].map((key) =>
      queryClient.invalidateQueries({ queryKey: [key], refetchType: 'none' }),
    ),
  ]);
}

/** A change of the Trash (`json` to `endpoint`); then the cache follows. */
function change(endpoint: string, json: object): Promise<TrashRef[]> {
  return trashService(async () => {
    const result = await apiRequest(endpoint, trashResultSchema, { method: 'post', json });
    await trashChanged();
    return result.items;
  });
}

/** The kinds whose delete is the Trash's own (assets and tags have theirs), by their bulk delete. */
const DELETED_AT = {
  'cage-mesh': ENDPOINTS.cageMeshesBulkDelete,
  application: ENDPOINTS.applicationsBulkDelete,
  'morphed-asset': ENDPOINTS.morphedAssetsBulkDelete,
} as const satisfies Partial<Record<TrashKind, string>>;
export type TrashedKind = keyof typeof DELETED_AT;

/** Moves records of one kind to the Trash, all or none; answers what went. */
export const moveToTrash = (kind: TrashedKind, ids: string[]) =>
  change(endpoint(DELETED_AT[kind]), { ids });

/** Brings records back from the Trash as they were, all or none. */
export const restoreFromTrash = (items: TrashRef[]) =>
  change(endpoint(ENDPOINTS.trashRestore), { items });

/** Deletes records in the Trash for ever (their files go with them), all or none. */
export const deleteForEver = (items: TrashRef[]) =>
  change(endpoint(ENDPOINTS.trashDelete), { items });

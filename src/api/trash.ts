/**
 * The Trash (server/README.md "Trash"): deleted assets and tags wait there until they are
 * restored or deleted for ever. Every failure carries `service: 'trash'`.
 */
import { tagService } from './errors';
import { apiRequest } from './http';
import { invalidateLists } from './lists';
import { queryClient } from './query';
import { trashResultSchema, type TrashRef } from './schemas';

const trashService = tagService('trash');

/** After a restore or a delete for ever: every list, asset, tag and count is read again. */
async function trashChanged(): Promise<void> {
  await Promise.all([
    invalidateLists(() => true),
    queryClient.invalidateQueries({ queryKey: ['assets'] }),
    queryClient.invalidateQueries({ queryKey: ['tags'] }),
    queryClient.invalidateQueries({ queryKey: ['asset-counts'] }),
  ]);
}

function change(action: 'bulk-restore' | 'bulk-delete', items: TrashRef[]): Promise<TrashRef[]> {
  return trashService(async () => {
    const result = await apiRequest(`v1/trash/${action}`, trashResultSchema, {
      method: 'post',
      json: { items },
    });
    await trashChanged();
    return result.items;
  });
}

/** Brings records back from the Trash as they were, all or none. */
export const restoreFromTrash = (items: TrashRef[]) => change('bulk-restore', items);

/** Deletes records in the Trash for ever (their files go with them), all or none. */
export const deleteForEver = (items: TrashRef[]) => change('bulk-delete', items);

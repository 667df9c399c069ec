/**
 * Saved views (docs/api.md "Saved views"): the signed-in user's named filter, sort and columns
 * of a list, and any view opened by its link. Each change brings the cache up to date itself.
 * Every failure carries `service: 'saved-views'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import {
  savedViewSchema,
  type SavedView,
  type SavedViewCreateBody,
  type SavedViewList,
  type SavedViewPatchBody,
} from '../../contract/saved-views';
import { tagService } from './errors';
import { apiRequest } from './http';
import { queryClient } from './query';

const service = tagService('saved-views');
const path = (id: string) => endpoint(ENDPOINTS.savedView, { id });

const keys = {
  mine: (list: SavedViewList) => ['saved-views', 'mine', list] as const,
  one: (id: string) => ['saved-views', 'one', id] as const,
};

/** The signed-in user's views of `list`, by name. */
export const savedViewsQuery = (list: SavedViewList) =>
  queryOptions({
    queryKey: keys.mine(list),
    queryFn: () =>
      service(() =>
        apiRequest(endpoint(ENDPOINTS.savedViews), z.array(savedViewSchema), {
          searchParams: { list },
        }),
      ),
  });

/** One view by id: the user's own or one shared by link (404 when gone or not for this role). */
export const savedViewQuery = (id: string) =>
  queryOptions({
    queryKey: keys.one(id),
    queryFn: () => service(() => apiRequest(path(id), savedViewSchema)),
    // A missing view stays missing: asking again would only delay saying so.
    retry: false,
  });

async function viewsChanged(view: SavedView, gone = false): Promise<void> {
  if (gone) queryClient.removeQueries({ queryKey: keys.one(view.id) });
  else queryClient.setQueryData(keys.one(view.id), view);
  await queryClient.invalidateQueries({ queryKey: keys.mine(view.list) });
}

/** Saves a view of a list (a name the user has on that list already answers 409). */
export async function saveView(body: SavedViewCreateBody): Promise<SavedView> {
  const view = await service(() =>
    apiRequest(endpoint(ENDPOINTS.savedViews), savedViewSchema, { method: 'post', json: body }),
  );
  await viewsChanged(view);
  return view;
}

/** Renames a view or changes what it shows; based on `view.version` (a stale one answers 412). */
export async function changeView(view: SavedView, body: SavedViewPatchBody): Promise<SavedView> {
  const changed = await service(() =>
    apiRequest(path(view.id), savedViewSchema, {
      method: 'patch',
      json: body,
      baseVersion: view.version,
    }),
  );
  await viewsChanged(changed);
  return changed;
}

/** Deletes a view; answers it as it was (Undo saves it again). */
export async function deleteView(view: SavedView): Promise<SavedView> {
  const gone = await service(() =>
    apiRequest(path(view.id), savedViewSchema, { method: 'delete' }),
  );
  await viewsChanged(gone, true);
  return gone;
}

/**
 * User asset endpoints (spec §7 "User assets"). The public read fails with
 * `service: 'userAssets'`; the private calls (admins and developers) with
 * `service: 'privateUserAssets'`.
 */
import { queryOptions } from '@tanstack/react-query';
import { tagService } from './errors';
import { apiRequest } from './http';
import { fetchList, listPageQuery } from './lists';
import { endpoint, ENDPOINTS, type ApiScope } from '../../contract/paths';
import {
  userAssetsResultSchema,
  userRowSchema,
  type UserAssetsResult,
} from '../../contract/schemas';

const services = {
  public: tagService('userAssets'),
  private: tagService('privateUserAssets'),
} as const;
const usersService = tagService('privateUsers');
const path = (userId: string, scope: ApiScope = 'public') =>
  endpoint(ENDPOINTS.userAssets, { userId }, scope);

/** Assigns assets to a user (private). */
export function addUserAssets(userId: string, assetIds: string[]): Promise<UserAssetsResult> {
  return services.private(() =>
    apiRequest(path(userId, 'private'), userAssetsResultSchema, {
      method: 'post',
      json: { assetIds },
    }),
  );
}

/** Takes assets away from a user (private). */
export function removeUserAssets(userId: string, assetIds: string[]): Promise<UserAssetsResult> {
  return services.private(() =>
    apiRequest(path(userId, 'private'), userAssetsResultSchema, {
      method: 'delete',
      json: { assetIds },
    }),
  );
}

/** One user, for the screens that name them (GET private/v1/users/{id}); unknown ids fail 404. */
export const userQuery = (id: string) =>
  queryOptions({
    queryKey: ['users', id] as const,
    queryFn: ({ signal }) =>
      usersService(() => apiRequest(endpoint(ENDPOINTS.user, { id }), userRowSchema, { signal })),
  });

/** Holders per page on the asset page. */
const ASSET_HOLDERS_PAGE_SIZE = 10;

/** The users holding an asset, newest assignment first (private; admins and developers). */
export function assetHoldersQuery(assetId: string, page: number) {
  const path = endpoint(ENDPOINTS.assetUsers, { assetId });
  const query = { page, limit: ASSET_HOLDERS_PAGE_SIZE };
  // A list page like the others (its changes invalidate it as one), with its rows typed.
  return queryOptions({
    ...listPageQuery(path, query, userRowSchema),
    queryFn: ({ signal }) => fetchList(path, query, userRowSchema, { signal }),
  });
}

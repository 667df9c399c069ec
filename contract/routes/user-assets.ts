/** Assets assigned to users, and an asset's holders. */
import {
  assetSchema,
  userAssetsBodySchema,
  userAssetsResultSchema,
  userRowSchema,
} from '../schemas';
import { assetHolderList, listQuery, userAssetList } from '../list-params';
import { bearer, ok, list, PRIVATE, type Route } from './route';

/** A user's assets; assigning and unassigning (private). */
export const userAssetRoutes: Route[] = [
  bearer(
    'get',
    '/v1/user-assets/{userId}',
    'User assets',
    "A user's assets (own, or anyone's with read UserAsset)",
    [],
    { query: listQuery(userAssetList), answer: list(assetSchema), errors: [403] },
  ),
  bearer('get', '/private/v1/user-assets/{userId}', 'User assets', "A user's assets", [PRIVATE], {
    query: listQuery(userAssetList),
    answer: list(assetSchema),
  }),
  bearer(
    'get',
    '/private/v1/asset-users/{assetId}',
    'User assets',
    "An asset's holders (newest assignment first)",
    [PRIVATE, ['read', 'UserAsset'], ['read', 'User']],
    { query: listQuery(assetHolderList), answer: list(userRowSchema) },
  ),
  bearer(
    'post',
    '/private/v1/user-assets/{userId}',
    'User assets',
    'Assign assets',
    [PRIVATE, ['update', 'UserAsset']],
    { body: userAssetsBodySchema, answer: ok(userAssetsResultSchema) },
  ),
  bearer(
    'delete',
    '/private/v1/user-assets/{userId}',
    'User assets',
    'Unassign assets',
    [PRIVATE, ['update', 'UserAsset']],
    { body: userAssetsBodySchema, answer: ok(userAssetsResultSchema) },
  ),
];

/** User asset endpoints (spec §7 "User assets"). Failures carry `service: 'userAssets'`. */
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiRequest } from './http';

const userAssetsService = tagService('userAssets');
const privatePath = (userId: string) => `private/v1/user-assets/${encodeURIComponent(userId)}`;

/** Assigns assets to a user (admins). */
export function addUserAssets(userId: string, assetIds: string[]): Promise<unknown> {
  return userAssetsService(
    apiRequest(privatePath(userId), z.unknown(), { method: 'post', json: { assetIds } }),
  );
}

/** Takes assets away from a user (admins). */
export function removeUserAssets(userId: string, assetIds: string[]): Promise<unknown> {
  return userAssetsService(
    apiRequest(privatePath(userId), z.unknown(), { method: 'delete', json: { assetIds } }),
  );
}

/** Asset endpoints (spec §7 "Assets"). Every failure carries `service: 'assets'`. */
import type { SearchParamsOption } from 'ky';
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiRequest } from './http';
import { assetSchema, countByTypeSchema, type Asset, type CountByType } from './schemas';

const assetsService = tagService('assets');
const path = (id: string) => `v1/assets/${encodeURIComponent(id)}`;

/** How many assets exist per type, optionally filtered by query parameters. */
export function countByType(query?: SearchParamsOption): Promise<CountByType> {
  return assetsService(
    apiRequest('v1/assets/countByType', countByTypeSchema, {
      ...(query === undefined ? {} : { searchParams: query }),
    }),
  );
}

/** Locks an asset: nobody can edit it until it is unlocked. */
export function lockAsset(id: string): Promise<Asset> {
  return assetsService(apiRequest(`${path(id)}/lock`, assetSchema, { method: 'put', json: {} }));
}

/** Unlocks an asset. */
export function unlockAsset(id: string): Promise<Asset> {
  return assetsService(apiRequest(`${path(id)}/unlock`, assetSchema, { method: 'put', json: {} }));
}

/** Deletes an asset. */
export function deleteAsset(id: string): Promise<unknown> {
  return assetsService(apiRequest(path(id), z.unknown(), { method: 'delete' }));
}

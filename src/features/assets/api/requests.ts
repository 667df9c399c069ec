/**
 * Asset endpoints (spec §7 "Assets"): the asset itself, alone and in bulk, its files' checks and
 * its changelog. Where it is placed is placements.ts; its cached reads and what each change
 * refreshes, cache.ts (changes go through mutations.ts). Each call exists under `v1/` and
 * `private/v1/` (choose with `scope`) unless it says otherwise. Every failure carries
 * `service: 'assets'`.
 */
import type { SearchParamsOption } from 'ky';
import { z } from 'zod/mini';
import { tagService } from '../../../api/errors';
import { apiList, apiRequest } from '../../../api/http';
import { endpoint, ENDPOINTS, type ApiScope } from '../../../../contract/paths';
import {
  assetBulkChangeResultSchema,
  assetBulkDeleteResultSchema,
  assetEventSchema,
  assetSchema,
  countByTypeSchema,
  listResponseSchema,
  validationReportSchema,
  type Asset,
  type AssetBulkChangeResult,
  type AssetCreateBody,
  type AssetEvent,
  type AssetLockBody,
  type AssetPatchBody,
  type CountByType,
  type Pagination,
  type UploadResult,
  type ValidationReport,
  uploadResultSchema,
} from '../../../../contract/schemas';

export type { ApiScope };

export interface ScopeOption {
  /** Default `public`. */
  scope?: ApiScope;
}

/** A page of rows as list endpoints answer it. */
export interface Page<R> {
  data: R[];
  pagination: Pagination;
}

const assetsService = tagService('assets');
const query = (searchParams: SearchParamsOption | undefined) =>
  searchParams === undefined ? {} : { searchParams };

/** How many assets exist per type, optionally filtered (the asset list's filters). */
export function countByType(
  searchParams?: SearchParamsOption,
  { scope }: ScopeOption = {},
): Promise<CountByType> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetCounts, {}, scope), countByTypeSchema, query(searchParams)),
  );
}

/** One asset. */
export function getAsset(
  id: string,
  { scope, signal }: ScopeOption & { signal?: AbortSignal } = {},
): Promise<Asset> {
  return assetsService(() =>
    apiRequest(
      endpoint(ENDPOINTS.asset, { id }, scope),
      assetSchema,
      signal === undefined ? {} : { signal },
    ),
  );
}

/** Creates an asset; file addresses are the `url`s uploads answered with. */
export function createAsset(body: AssetCreateBody, { scope }: ScopeOption = {}): Promise<Asset> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assets, {}, scope), assetSchema, { method: 'post', json: body }),
  );
}

/** Creates an asset copied from a template asset (private only). */
export function createAssetFromTemplate(body: {
  templateId: string;
  name?: string;
}): Promise<Asset> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetFromTemplate), assetSchema, { method: 'post', json: body }),
  );
}

/**
 * Changes some fields of an asset (send only the changed ones); a locked asset answers 409
 * ASSET_LOCKED. Based on `baseVersion`, fields changed since by someone else answer 409
 * EDIT_CONFLICT.
 */
export function updateAsset(
  id: string,
  body: AssetPatchBody,
  { scope, baseVersion }: ScopeOption & { baseVersion?: number } = {},
): Promise<Asset> {
  const options = { method: 'patch', json: body, baseVersion } as const;
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.asset, { id }, scope), assetSchema, options),
  );
}

/** Deletes an asset (a locked one answers 409). */
export function deleteAsset(id: string, { scope }: ScopeOption = {}): Promise<unknown> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.asset, { id }, scope), z.unknown(), { method: 'delete' }),
  );
}

/** Deletes several assets together, or none (a locked one answers 409 naming them). */
export function bulkDeleteAssets(ids: string[]): Promise<string[]> {
  return assetsService(async () => {
    const { deleted } = await apiRequest(
      endpoint(ENDPOINTS.assetsBulkDelete),
      assetBulkDeleteResultSchema,
      {
        method: 'post',
        json: { ids },
      },
    );
    return deleted;
  });
}

/** A bulk change of assets (all or none); answers every asset it changed, as stored. */
function bulkChange(
  action: keyof typeof ENDPOINTS.assetsBulk,
  json: object,
): Promise<AssetBulkChangeResult> {
  return assetsService(async () => {
    return apiRequest(endpoint(ENDPOINTS.assetsBulk[action]), assetBulkChangeResultSchema, {
      method: 'post',
      json,
    });
  });
}

/** Locks several assets together; `changed` names those that were not locked yet. */
export function bulkLockAssets(ids: string[], body: AssetLockBody = {}) {
  return bulkChange('lock', { ...body, ids });
}

/** Unlocks several assets together; `changed` names those that were locked. */
export function bulkUnlockAssets(ids: string[], body: AssetLockBody = {}) {
  return bulkChange('unlock', { ...body, ids });
}

/**
 * Puts one tag on several assets, or on none: a locked one answers 409 naming every locked
 * asset. `changed` names those that did not have it yet.
 */
export function bulkSetTag(ids: string[], tagId: string) {
  return bulkChange('setTag', { ids, tagId });
}

/** Takes one tag off several assets, or off none (like bulkSetTag); `changed` had it. */
export function bulkRemoveTag(ids: string[], tagId: string) {
  return bulkChange('removeTag', { ids, tagId });
}

/**
 * Locks an asset: nobody can edit it until it is unlocked. The body is sent as given; the
 * server records its `reason` in the asset's `locked` event.
 */
export function lockAsset(
  id: string,
  body: AssetLockBody = {},
  { scope }: ScopeOption = {},
): Promise<Asset> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetLock, { id }, scope), assetSchema, {
      method: 'put',
      json: body,
    }),
  );
}

/** Unlocks an asset; the body is sent as given (its `reason` is recorded like lock's). */
export function unlockAsset(
  id: string,
  body: AssetLockBody = {},
  { scope }: ScopeOption = {},
): Promise<Asset> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetUnlock, { id }, scope), assetSchema, {
      method: 'put',
      json: body,
    }),
  );
}

/** Renders the asset's icon from its model (the server may answer 501 when not configured). */
export function generateIconFromModel(id: string, { scope }: ScopeOption = {}): Promise<Asset> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetIcon, { id }, scope), assetSchema, {
      method: 'post',
      json: {},
    }),
  );
}

/**
 * Predicts a base colour texture for a stored model and answers it as a stored file (the
 * server answers 501 where no predictor is configured).
 */
export function predictTexture(
  body: { modelUrl: string },
  { scope }: ScopeOption = {},
): Promise<UploadResult> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetTexture, {}, scope), uploadResultSchema, {
      method: 'post',
      json: body,
    }),
  );
}

/** Runs the Khronos glTF validator on a stored model. */
export function validateAsset(
  body: { modelUrl: string },
  { scope }: ScopeOption = {},
): Promise<ValidationReport> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetValidate, {}, scope), validationReportSchema, {
      method: 'post',
      json: body,
    }),
  );
}

const changelogPageSchema = listResponseSchema(assetEventSchema);

/** One page of the asset's back-office changelog, newest first. */
export function assetChangelog(
  id: string,
  { page = 1, limit = 20, scope }: ScopeOption & { page?: number; limit?: number } = {},
): Promise<Page<AssetEvent>> {
  return assetsService(() =>
    apiList(endpoint(ENDPOINTS.assetChangelog, { id }, scope), changelogPageSchema, {
      searchParams: { page, limit },
    }),
  );
}

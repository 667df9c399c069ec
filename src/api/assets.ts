/**
 * Asset endpoints (spec §7 "Assets"): the asset itself, its files' checks, its applications,
 * its changelog and the application export. Each call exists under `v1/` and `private/v1/`
 * (choose with `scope`) unless it says otherwise. Every failure carries `service: 'assets'`.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { SearchParamsOption } from 'ky';
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiList, apiRequest, httpClient } from './http';
import { endpoint, ENDPOINTS, type ApiScope } from '../../contract/paths';
import type { ListQuery } from '../../contract/list-query';
import { encodeListQuery, invalidateLists } from './lists';
import { queryClient } from './query';
import {
  applicationAssetSchema,
  assetApplicationSchema,
  assetBulkChangeResultSchema,
  assetBulkDeleteResultSchema,
  assetEventSchema,
  assetSchema,
  countByTypeSchema,
  listResponseSchema,
  validationReportSchema,
  type ApplicationAsset,
  type Asset,
  type AssetApplication,
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
} from '../../contract/schemas';

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
    await Promise.all(deleted.map((id) => assetDeleted(id)));
    return deleted;
  });
}

/** A bulk change of assets (all or none), then the cache takes every asset it answered. */
function bulkChange(
  action: keyof typeof ENDPOINTS.assetsBulk,
  json: object,
): Promise<AssetBulkChangeResult> {
  return assetsService(async () => {
    const result = await apiRequest(
      endpoint(ENDPOINTS.assetsBulk[action]),
      assetBulkChangeResultSchema,
      {
        method: 'post',
        json,
      },
    );
    await Promise.all(result.assets.map((asset) => assetUpdated(asset)));
    return result;
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

const applicationPageSchema = listResponseSchema(assetApplicationSchema);

/** The applications the asset is placed in, with their names. */
export function assetApplications(
  id: string,
  list: ListQuery = {},
  { scope }: ScopeOption = {},
): Promise<Page<AssetApplication>> {
  return assetsService(() =>
    apiList(endpoint(ENDPOINTS.assetApplications, { id }, scope), applicationPageSchema, {
      searchParams: encodeListQuery(list),
    }),
  );
}

/** Where an asset sits in an application: its 1-based position (default: last). */
export interface AssetApplicationBody {
  applicationId: string;
  position?: number;
}

/** Adds the asset to an application. */
export function addAssetToApplication(
  id: string,
  body: AssetApplicationBody,
  { scope }: ScopeOption = {},
): Promise<AssetApplication> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetApplications, { id }, scope), assetApplicationSchema, {
      method: 'post',
      json: body,
    }),
  );
}

/**
 * Moves the asset within an application. Based on `baseVersion` (the entry's version), a
 * position someone else changed since answers 409 EDIT_CONFLICT.
 */
export function updateAssetApplication(
  id: string,
  body: Required<AssetApplicationBody>,
  { scope, baseVersion }: ScopeOption & { baseVersion?: number } = {},
): Promise<AssetApplication> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetApplications, { id }, scope), assetApplicationSchema, {
      method: 'patch',
      json: body,
      baseVersion,
    }),
  );
}

/** Takes the asset out of an application. */
export function removeAssetFromApplication(
  id: string,
  body: { applicationId: string },
  { scope }: ScopeOption = {},
): Promise<unknown> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.assetApplications, { id }, scope), z.unknown(), {
      method: 'delete',
      json: body,
    }),
  );
}

/** Copies the parent asset's current fields onto an application asset. */
export function syncWithParent(
  applicationAssetId: string,
  { scope }: ScopeOption = {},
): Promise<ApplicationAsset> {
  return assetsService(() =>
    apiRequest(
      endpoint(ENDPOINTS.applicationAssetSync, { id: applicationAssetId }, scope),
      applicationAssetSchema,
      { method: 'post', json: {} },
    ),
  );
}

/** A downloaded file and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** `attachment; filename="x.json"` (or RFC 5987 `filename*=UTF-8''x.json`) -> `x.json`. */
export function filenameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed escape: fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/** Downloads every asset of an application as one file (GET `assets/export/{applicationId}`). */
export function exportApplicationAssets(
  applicationId: string,
  { scope }: ScopeOption = {},
): Promise<DownloadedFile> {
  return assetsService(async () => {
    const response = await httpClient()(endpoint(ENDPOINTS.assetExport, { applicationId }, scope), {
      headers: { accept: '*/*' },
    });
    return {
      blob: await response.blob(),
      filename: filenameOf(
        response.headers.get('content-disposition'),
        `assets-${applicationId}.json`,
      ),
    };
  });
}

// Queries and what each change refreshes. Every cached read of one asset sits under
// `['assets', id]`, so "this asset changed" is one prefix.

/** Cache keys of asset reads. */
const assetKeys = {
  /** Prefix of everything read about one asset. */
  all: (id: string) => ['assets', id] as const,
  record: (id: string, scope: ApiScope) => ['assets', id, scope] as const,
  changelog: (id: string) => ['assets', id, 'changelog'] as const,
  applications: (id: string) => ['assets', id, 'applications'] as const,
  counts: ['asset-counts'] as const,
};

/** One asset (the page, the template of a new asset). */
export const assetQuery = (id: string, { scope = 'public' }: ScopeOption = {}) =>
  queryOptions({
    queryKey: assetKeys.record(id, scope),
    queryFn: ({ signal }) => getAsset(id, { scope, signal }),
  });

/** Changelog entries per "Load more". */
const CHANGELOG_PAGE_SIZE = 10;

/** The asset's back-office changelog, newest first, one page per "Load more". */
export const assetChangelogQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: assetKeys.changelog(id),
    queryFn: ({ pageParam }) => assetChangelog(id, { page: pageParam, limit: CHANGELOG_PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.pagination.hasNextPage ? pages.length + 1 : undefined),
  });

/** The applications holding the asset (the asset page shows up to 100). */
export const assetApplicationsQuery = (id: string) =>
  queryOptions({
    queryKey: assetKeys.applications(id),
    queryFn: async () => (await assetApplications(id, { limit: 100 })).data,
  });

/** How many assets exist per type (the dashboard). */
export const assetCountsQuery = () =>
  queryOptions({ queryKey: assetKeys.counts, queryFn: () => countByType() });

/** Lists whose rows are assets or show an asset's fields. */
const showsAssets = (endpoint: string) =>
  /(^|\/)(assets|application-assets|user-assets|morphed-assets)(\/|\?|$)/.test(endpoint);

/** Reads of one asset other than its record: stale now, read again while on screen. */
const invalidateDerived = (id: string) =>
  queryClient.invalidateQueries({
    queryKey: assetKeys.all(id),
    predicate: ({ queryKey }) => queryKey[2] !== 'public' && queryKey[2] !== 'private',
  });

/**
 * After a change answered with the stored asset (save, lock, tags, icon): the answer becomes
 * the cached record, and the changelog and the lists showing assets are read again.
 */
export async function assetUpdated(asset: Asset): Promise<void> {
  queryClient.setQueryData(assetKeys.record(asset.id, 'public'), asset);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: assetKeys.record(asset.id, 'private') }),
    invalidateDerived(asset.id),
    invalidateLists(showsAssets),
  ]);
}

/** After a new asset: lists and counts are read again; its page opens with the answer. */
export async function assetCreated(asset: Asset): Promise<void> {
  queryClient.setQueryData(assetKeys.record(asset.id, 'public'), asset);
  await Promise.all([
    invalidateLists(showsAssets),
    queryClient.invalidateQueries({ queryKey: assetKeys.counts }),
  ]);
}

/**
 * After a delete: lists and counts are read again, and the asset's own reads go. The page still
 * showing it keeps its data until it leaves; coming back reads again (and finds it gone).
 */
export async function assetDeleted(id: string): Promise<void> {
  queryClient.removeQueries({ queryKey: assetKeys.all(id), type: 'inactive' });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: assetKeys.all(id), refetchType: 'none' }),
    invalidateLists(showsAssets),
    queryClient.invalidateQueries({ queryKey: assetKeys.counts }),
  ]);
}

/**
 * After a change recorded on the asset that does not answer with it (applications, users,
 * morph jobs): its applications and changelog are read again, and the lists of `endpoints`.
 */
export async function assetRelationsChanged(
  id: string,
  shows: (endpoint: string) => boolean = showsAssets,
): Promise<void> {
  await Promise.all([invalidateDerived(id), invalidateLists(shows)]);
}

/** After a change of where asset `id` is placed: its applications and changelog, and the application lists. */
export const placementsChanged = (id: string) =>
  assetRelationsChanged(id, (path) => path.startsWith(endpoint(ENDPOINTS.applicationAssets)));

/**
 * Asset endpoints (spec §7 "Assets"): the asset itself, its files' checks, its applications,
 * its changelog and the application export. Each call exists under `v1/` and `private/v1/`
 * (choose with `scope`) unless it says otherwise. Every failure carries `service: 'assets'`.
 */
import type { SearchParamsOption } from 'ky';
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiList, apiRequest, httpClient } from './http';
import type { ListQuery } from './list-query';
import { encodeListQuery } from './lists';
import {
  applicationAssetSchema,
  applicationMorphedAssetSchema,
  assetApplicationSchema,
  assetEventSchema,
  assetSchema,
  countByTypeSchema,
  listResponseSchema,
  validationReportSchema,
  type ApplicationAsset,
  type ApplicationMorphedAsset,
  type Asset,
  type AssetApplication,
  type AssetCreateBody,
  type AssetEvent,
  type AssetPatchBody,
  type CountByType,
  type Pagination,
  type UploadResult,
  type ValidationReport,
  uploadResultSchema,
} from './schemas';

/** Which mount a call goes to: `v1/` (public) or `private/v1/` (admins and developers). */
export type ApiScope = 'public' | 'private';

export interface ScopeOption {
  /** Default `public`. */
  scope?: ApiScope;
}

/** The path prefix of a scope. */
export const apiBase = (scope: ApiScope = 'public') => (scope === 'private' ? 'private/v1' : 'v1');

/** A page of rows as list endpoints answer it. */
export interface Page<R> {
  data: R[];
  pagination: Pagination;
}

const assetsService = tagService('assets');
const root = (scope?: ApiScope) => `${apiBase(scope)}/assets`;
const path = (id: string, scope?: ApiScope) => `${root(scope)}/${encodeURIComponent(id)}`;
const query = (searchParams: SearchParamsOption | undefined) =>
  searchParams === undefined ? {} : { searchParams };

const assetPageSchema = listResponseSchema(assetSchema);

/** One page of assets (filters, order, page and limit as on the list screens). */
export function listAssets(
  list: ListQuery = {},
  { scope }: ScopeOption = {},
): Promise<Page<Asset>> {
  return assetsService(() =>
    apiList(root(scope), assetPageSchema, { searchParams: encodeListQuery(list) }),
  );
}

/** The assets the caller may use (authorized), may change (editable), or gets by default. */
export function listAssetsFor(
  kind: 'authorized' | 'editable' | 'authorize-default',
  list: ListQuery = {},
  { scope }: ScopeOption = {},
): Promise<Page<Asset>> {
  return assetsService(() =>
    apiList(`${root(scope)}/${kind}`, assetPageSchema, { searchParams: encodeListQuery(list) }),
  );
}

/** How many assets exist per type, optionally filtered by query parameters. */
export function countByType(
  searchParams?: SearchParamsOption,
  { scope }: ScopeOption = {},
): Promise<CountByType> {
  return assetsService(() =>
    apiRequest(`${root(scope)}/countByType`, countByTypeSchema, query(searchParams)),
  );
}

/** One asset. */
export function getAsset(
  id: string,
  { scope, signal }: ScopeOption & { signal?: AbortSignal } = {},
): Promise<Asset> {
  return assetsService(() =>
    apiRequest(path(id, scope), assetSchema, signal === undefined ? {} : { signal }),
  );
}

/** Creates an asset; file addresses are the `url`s uploads answered with. */
export function createAsset(body: AssetCreateBody, { scope }: ScopeOption = {}): Promise<Asset> {
  return assetsService(() => apiRequest(root(scope), assetSchema, { method: 'post', json: body }));
}

/** Creates an asset copied from a template asset (private only). */
export function createAssetFromTemplate(body: {
  templateId: string;
  name?: string;
}): Promise<Asset> {
  return assetsService(() =>
    apiRequest('private/v1/assets/using-template', assetSchema, { method: 'post', json: body }),
  );
}

/** Changes some fields of an asset; a locked asset answers 409 ASSET_LOCKED. */
export function updateAsset(
  id: string,
  body: AssetPatchBody,
  { scope }: ScopeOption = {},
): Promise<Asset> {
  return assetsService(() =>
    apiRequest(path(id, scope), assetSchema, { method: 'patch', json: body }),
  );
}

/** Deletes an asset (a locked one answers 409). */
export function deleteAsset(id: string, { scope }: ScopeOption = {}): Promise<unknown> {
  return assetsService(() => apiRequest(path(id, scope), z.unknown(), { method: 'delete' }));
}

/** Locks an asset: nobody can edit it until it is unlocked. */
export function lockAsset(id: string, { scope }: ScopeOption = {}): Promise<Asset> {
  return assetsService(() =>
    apiRequest(`${path(id, scope)}/lock`, assetSchema, { method: 'put', json: {} }),
  );
}

/** Unlocks an asset. */
export function unlockAsset(id: string, { scope }: ScopeOption = {}): Promise<Asset> {
  return assetsService(() =>
    apiRequest(`${path(id, scope)}/unlock`, assetSchema, { method: 'put', json: {} }),
  );
}

/** Renders the asset's icon from its model (the server may answer 501 when not configured). */
export function generateIconFromModel(id: string, { scope }: ScopeOption = {}): Promise<Asset> {
  return assetsService(() =>
    apiRequest(`${path(id, scope)}/generate-icon-from-model`, assetSchema, {
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
    apiRequest(`${root(scope)}/predict-texture`, uploadResultSchema, {
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
    apiRequest(`${root(scope)}/validate`, validationReportSchema, { method: 'post', json: body }),
  );
}

const changelogPageSchema = listResponseSchema(assetEventSchema);

/** One page of the asset's back-office changelog, newest first. */
export function assetChangelog(
  id: string,
  { page = 1, limit = 20, scope }: ScopeOption & { page?: number; limit?: number } = {},
): Promise<Page<AssetEvent>> {
  return assetsService(() =>
    apiList(`${path(id, scope)}/backoffice-changelog`, changelogPageSchema, {
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
    apiList(`${path(id, scope)}/application`, applicationPageSchema, {
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
    apiRequest(`${path(id, scope)}/application`, assetApplicationSchema, {
      method: 'post',
      json: body,
    }),
  );
}

/** Moves the asset within an application. */
export function updateAssetApplication(
  id: string,
  body: Required<AssetApplicationBody>,
  { scope }: ScopeOption = {},
): Promise<AssetApplication> {
  return assetsService(() =>
    apiRequest(`${path(id, scope)}/application`, assetApplicationSchema, {
      method: 'patch',
      json: body,
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
    apiRequest(`${path(id, scope)}/application`, z.unknown(), { method: 'delete', json: body }),
  );
}

/** Copies the parent asset's current fields onto an application asset. */
export function syncWithParent(
  applicationAssetId: string,
  { scope }: ScopeOption = {},
): Promise<ApplicationAsset> {
  return assetsService(() =>
    apiRequest(
      `${apiBase(scope)}/application-assets/${encodeURIComponent(applicationAssetId)}/sync-with-parent`,
      applicationAssetSchema,
      { method: 'post', json: {} },
    ),
  );
}

/** Places morphed assets in an application. */
export function addApplicationMorphedAssets(
  body: { applicationId: string; morphedAssetIds: string[] },
  { scope }: ScopeOption = {},
): Promise<ApplicationMorphedAsset[]> {
  return assetsService(() =>
    apiRequest(
      `${apiBase(scope)}/application-morphed-assets`,
      z.array(applicationMorphedAssetSchema),
      {
        method: 'post',
        json: body,
      },
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
    const response = await httpClient()(
      `${root(scope)}/export/${encodeURIComponent(applicationId)}`,
      { headers: { accept: '*/*' } },
    );
    return {
      blob: await response.blob(),
      filename: filenameOf(
        response.headers.get('content-disposition'),
        `assets-${applicationId}.json`,
      ),
    };
  });
}

/**
 * Where assets are placed (spec §7 "Assets"): the applications holding an asset, adding,
 * moving and removing it, copying the parent's fields onto an application asset, and the
 * export of an application's assets. Every failure carries `service: 'assets'`.
 */
import { z } from 'zod/mini';
import { tagService } from '../../../api/errors';
import { apiList, apiRequest, httpClient } from '../../../api/http';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import type { ListQuery } from '../../../../contract/list-query';
import { encodeListQuery } from '../../../api/lists';
import {
  applicationAssetSchema,
  assetApplicationSchema,
  listResponseSchema,
  type ApplicationAsset,
  type AssetApplication,
} from '../../../../contract/schemas';
import type { Page, ScopeOption } from './requests';

const assetsService = tagService('assets');

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

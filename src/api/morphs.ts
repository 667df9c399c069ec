/**
 * Morph endpoints (spec §7 "Assets": morphed assets and their queue). They belong to the asset
 * service, so every failure carries `service: 'assets'`. The queue's statuses are
 * queued -> processing -> completed | failed (see morphStatusSchema).
 */
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiRequest } from './http';
import { endpoint, ENDPOINTS, type ApiScope } from '../../contract/paths';
import {
  applicationMorphedAssetSchema,
  morphGenerateResultSchema,
  morphStatusListSchema,
  type ApplicationMorphedAsset,
  type MorphQueueEntry,
  type MorphStatusList,
} from '../../contract/schemas';

const assetsService = tagService('assets');
const statusQuery = (ids: readonly string[]) => new URLSearchParams(ids.map((id) => ['ids', id]));

/**
 * Queues one morph job per body asset: the source asset fitted onto each body
 * (`v1/morphed-assets/generate`, or `private/v1/morphed-assets/generate` with scope private).
 */
export function generateMorphedAssets(
  body: { sourceAssetId: string; bodyAssetIds: string[] },
  { scope }: { scope?: ApiScope } = {},
): Promise<MorphQueueEntry[]> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.morphGenerate, {}, scope), morphGenerateResultSchema, {
      method: 'post',
      json: body,
    }),
  );
}

/** The status of queue entries (`v1/morphed-asset-queue/status?ids=`); unknown ids are left out. */
export function morphQueueStatus(
  ids: readonly string[],
  { scope, signal }: { scope?: ApiScope; signal?: AbortSignal } = {},
): Promise<MorphStatusList> {
  return assetsService(() =>
    apiRequest(endpoint(ENDPOINTS.morphQueueStatus, {}, scope), morphStatusListSchema, {
      searchParams: statusQuery(ids),
      ...(signal === undefined ? {} : { signal }),
    }),
  );
}

/**
 * Places morphed assets in an application (`v1/application-morphed-assets`), all or none: one
 * already there answers 409 CONFLICT and places nothing.
 */
export function placeMorphedAssets(
  applicationId: string,
  morphedAssetIds: readonly string[],
): Promise<ApplicationMorphedAsset[]> {
  return assetsService(() =>
    apiRequest(
      endpoint(ENDPOINTS.applicationMorphedAssets),
      z.array(applicationMorphedAssetSchema),
      {
        method: 'post',
        json: { applicationId, morphedAssetIds },
      },
    ),
  );
}

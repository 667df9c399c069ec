/**
 * The asset's changes, one function per change (see src/api/mutations.ts for the rule): each
 * sends its request, then brings the cache up to date with what it changed (cache.ts), and
 * answers what the request answered. A failed request leaves the cache as it was.
 */
import {
  assetCreated,
  assetDeleted,
  assetRelationsChanged,
  assetsAssigned,
  assetUpdated,
  placementsChanged,
} from './cache';
import {
  addAssetToApplication,
  removeAssetFromApplication,
  syncWithParent,
  updateAssetApplication,
  type AssetApplicationBody,
} from './placements';
import {
  bulkDeleteAssets,
  bulkLockAssets,
  bulkRemoveTag,
  bulkSetTag,
  bulkUnlockAssets,
  createAsset,
  createAssetFromTemplate,
  deleteAsset,
  generateIconFromModel,
  lockAsset,
  unlockAsset,
  updateAsset,
  type ScopeOption,
} from './requests';
import { change } from '../../../api/mutations';
import { generateMorphedAssets } from '../../../api/morphs';
import { removeTag, setTag } from '../../../api/tags';
import { addUserAssets, removeUserAssets } from '../../../api/user-assets';
import type {
  Asset,
  AssetBulkChangeResult,
  AssetCreateBody,
  AssetPatchBody,
} from '../../../../contract/schemas';

/**
 * Creates an asset; with `templateId`, copies the template (a private copy) and applies `body`
 * to it. Lists and counts are read again; the new asset's page opens with the answer.
 */
export function addAsset(
  body: AssetCreateBody,
  { scope, templateId }: ScopeOption & { templateId?: string | undefined } = {},
): Promise<Asset> {
  const created = !templateId
    ? createAsset(body, { scope })
    : createAssetFromTemplate({ templateId, name: body.name }).then((copy) =>
        updateAsset(copy.id, body, { scope: 'private' }),
      );
  return change(created, assetCreated);
}

/** Changes some fields of an asset (see updateAsset for `baseVersion` and its conflicts). */
export const saveAsset = (
  id: string,
  body: AssetPatchBody,
  options: ScopeOption & { baseVersion?: number | undefined } = {},
) => change(updateAsset(id, body, options), assetUpdated);

/** Locks or unlocks an asset. */
export const setAssetLocked = (id: string, locked: boolean) =>
  change(locked ? lockAsset(id) : unlockAsset(id), assetUpdated);

/** Renders the asset's icon on the server (501 where no renderer is configured). */
export const renderIconOnServer = (id: string) => change(generateIconFromModel(id), assetUpdated);

/**
 * Gives the asset exactly the tags `tagIds`, one call per tag put on or taken off; answers the
 * asset with its tags.
 */
export function setAssetTags(asset: Asset, tagIds: readonly string[]): Promise<Asset> {
  const current = asset.tags.map((tag) => tag.id);
  const calls = async () => {
    let latest = asset;
    for (const id of tagIds.filter((tagId) => !current.includes(tagId))) {
      latest = await setTag(asset.id, id);
    }
    for (const id of current.filter((tagId) => !tagIds.includes(tagId))) {
      latest = await removeTag(asset.id, id);
    }
    return latest;
  };
  return change(calls(), assetUpdated);
}

/** Deletes an asset: it goes to the Trash (a locked one answers 409). */
export const trashAsset = (id: string) => change(deleteAsset(id), () => assetDeleted(id));

/** Deletes several assets together, or none (a locked one answers 409 naming them): the ids. */
export const trashAssets = (ids: string[]) =>
  change(bulkDeleteAssets(ids), (deleted) => Promise.all(deleted.map((id) => assetDeleted(id))));

/** Every asset a bulk change answered becomes the cached record (assetUpdated). */
const allUpdated = ({ assets }: AssetBulkChangeResult) =>
  Promise.all(assets.map((asset) => assetUpdated(asset)));

/** Locks or unlocks several assets together (all or none); `changed` names those it changed. */
export const setAssetsLocked = (ids: string[], locked: boolean) =>
  change((locked ? bulkLockAssets : bulkUnlockAssets)(ids), allUpdated);

/** Puts a tag on several assets, or takes it off, together (all or none); `changed` as above. */
export const setTagOnAssets = (ids: string[], tagId: string, on: boolean) =>
  change((on ? bulkSetTag : bulkRemoveTag)(ids, tagId), allUpdated);

// ---------------------------------------------------------------- where assets are placed

/** Adds asset `id` to an application, at `position` (default: last). */
export const placeAsset = (id: string, body: AssetApplicationBody) =>
  change(addAssetToApplication(id, body), () => placementsChanged(id));

/** Moves asset `id` within an application (see updateAssetApplication for `baseVersion`). */
export const moveAssetInApplication = (
  id: string,
  body: Required<AssetApplicationBody>,
  baseVersion?: number,
) => change(updateAssetApplication(id, body, { baseVersion }), () => placementsChanged(id));

/** Takes asset `id` out of an application. */
export const unplaceAsset = (id: string, applicationId: string) =>
  change(removeAssetFromApplication(id, { applicationId }), () => placementsChanged(id));

/** Copies the parent asset's fields onto its `entry` in an application. */
export const syncPlacement = (entry: { id: string; assetId: string }) =>
  change(syncWithParent(entry.id), () => placementsChanged(entry.assetId));

// ---------------------------------------------------------------- users' assets

/** Assigns assets to a user (private). */
export const assignAssets = (userId: string, assetIds: string[]) =>
  change(addUserAssets(userId, assetIds), () => assetsAssigned(assetIds));

/** Takes assets away from a user (private). */
export const unassignAssets = (userId: string, assetIds: string[]) =>
  change(removeUserAssets(userId, assetIds), () => assetsAssigned(assetIds));

// ---------------------------------------------------------------- morphs

/** Queues one morph job per body asset; they are recorded on the source and in the queue. */
export const queueMorphs = (body: { sourceAssetId: string; bodyAssetIds: string[] }) =>
  change(generateMorphedAssets(body), () =>
    assetRelationsChanged(body.sourceAssetId, (endpoint) => /morph/.test(endpoint)),
  );

/**
 * The asset feature's saves through the entity editor (useEntitySave(saveAssetTarget)): a new or
 * changed asset, and an asset's position in an application; other targets are the editor's own.
 */
import type { SaveEntity, SaveInput, TargetOf } from '../../machines/entity-editor.machine';
import type { AssetCreateBody } from '../../../contract/schemas';
import { addAsset, moveAssetInApplication, saveAsset } from './api/mutations';

export const saveAssetTarget: SaveEntity = (input) => {
  const { target, body } = input;
  switch (target.entity) {
    case 'asset': {
      const { id, scope, baseVersion, templateId } = target;
      return id
        ? saveAsset(id, body, { scope, baseVersion })
        : addAsset(body as AssetCreateBody, { scope, templateId });
    }
    case 'applicationAsset':
      return moveInApplication(target, body);
    default:
      return Promise.reject(new Error(`The asset feature does not save ${target.entity}`));
  }
};

async function moveInApplication(target: TargetOf<'applicationAsset'>, body: SaveInput['body']) {
  if (typeof body.position !== 'number') return { id: target.id };
  const { id, applicationId, baseVersion } = target;
  const entry = await moveAssetInApplication(
    id,
    { applicationId, position: body.position },
    baseVersion,
  );
  return { ...entry, changed: true };
}

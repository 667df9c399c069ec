/**
 * The cage mesh feature's save through the entity editor (useEntitySave(saveCageMeshTarget)): a
 * new or changed cage mesh; other targets are the editor's own or other features'.
 */
import type { SaveEntity } from '../../machines/entity-editor.machine';
import { addCageMesh, saveCageMesh } from './api/mutations';
import type { CageMeshCreateBody } from './api/requests';

export const saveCageMeshTarget: SaveEntity = ({ target, body }) => {
  if (target.entity !== 'cageMesh') {
    return Promise.reject(new Error(`The cage mesh feature does not save ${target.entity}`));
  }
  return target.id
    ? saveCageMesh(target.id, body, target.baseVersion)
    : addCageMesh(body as CageMeshCreateBody, { scope: target.scope });
};

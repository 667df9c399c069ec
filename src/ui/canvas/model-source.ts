import { MODEL_FILE } from '../../../core/model-file';

/** The exact console warning of spec §5/§8 for a source the viewer cannot load. */
export const INVALID_MODEL_WARNING =
  'Provided GLB/FBX is invalid. Check docs for supported formats';

/** One model source: a .glb/.fbx address, a binary glTF data URL or a binary glTF Blob. */
export type ModelSource = string | Blob;

const MODEL_DATA_URL = /^data:(application\/octet-stream|model\/gltf-binary);base64,/;

function isValidSingleSource(source: unknown): source is ModelSource {
  if (typeof source === 'string') return MODEL_FILE.test(source) || MODEL_DATA_URL.test(source);
  return (
    typeof Blob !== 'undefined' && source instanceof Blob && source.type === 'model/gltf-binary'
  );
}

/** True when `source` is a model the viewer accepts (spec §5); a list needs every item valid. */
export function isValidModelSource(source: unknown): source is ModelSource | ModelSource[] {
  if (Array.isArray(source)) return source.length > 0 && source.every(isValidSingleSource);
  return isValidSingleSource(source);
}

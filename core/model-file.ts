/** A model address the viewer loads (spec §5): a .glb or .fbx file, with or without a query. */
export const MODEL_FILE = /\.(glb|fbx)(\?.*)?$/i;

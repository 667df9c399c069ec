import type { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';

/**
 * Where the app serves three's Draco decoder (copied there by the `viewerDecoders` Vite
 * plugin), so compressed models load without any third-party host.
 */
export const DEFAULT_DRACO_DECODER_PATH = `${import.meta.env.BASE_URL}decoders/draco/`;

/** The glTF extensions that need a decoder, as a model declares them in `extensionsUsed`. */
export const DRACO_EXTENSION = 'KHR_draco_mesh_compression';
export const MESHOPT_EXTENSION = 'EXT_meshopt_compression';

const dracoLoaders = new Map<string, Promise<DRACOLoader>>();

/**
 * One Draco loader (and its worker pool) per decoder location, shared by every viewer. Its
 * code is a chunk of its own, fetched with the first Draco-compressed model.
 */
export function dracoLoader(decoderPath: string): Promise<DRACOLoader> {
  let loader = dracoLoaders.get(decoderPath);
  if (!loader) {
    loader = import('three/examples/jsm/loaders/DRACOLoader.js').then(({ DRACOLoader }) =>
      new DRACOLoader().setDecoderPath(decoderPath).setDecoderConfig({ type: 'wasm' }),
    );
    loader.catch(() => dracoLoaders.delete(decoderPath));
    dracoLoaders.set(decoderPath, loader);
  }
  return loader;
}

type MeshoptDecoder =
  (typeof import('three/examples/jsm/libs/meshopt_decoder.module.js'))['MeshoptDecoder'];

/**
 * The meshopt decoder: by default three's module, bundled into its own chunk and loaded only
 * when a model needs it; `location` is an ES module exporting `MeshoptDecoder` instead.
 */
export async function meshoptDecoder(location?: string): Promise<MeshoptDecoder> {
  const module = (
    location
      ? await import(/* @vite-ignore */ location)
      : await import('three/examples/jsm/libs/meshopt_decoder.module.js')
  ) as { MeshoptDecoder: MeshoptDecoder };
  await module.MeshoptDecoder.ready;
  return module.MeshoptDecoder;
}

/**
 * The extensions a binary glTF lists in `extensionsUsed`, read from its JSON chunk. Empty
 * when that chunk cannot be read: the loader then reports what is wrong with the file.
 */
export function glbExtensionsUsed(bytes: ArrayBuffer): string[] {
  try {
    const view = new DataView(bytes);
    // 12-byte header, then the first chunk: length, type 'JSON', data.
    const length = view.getUint32(12, true);
    if (view.getUint32(16, true) !== 0x4e4f534a) return [];
    const json = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 20, length))) as {
      extensionsUsed?: unknown;
    };
    return Array.isArray(json.extensionsUsed)
      ? json.extensionsUsed.filter((e): e is string => typeof e === 'string')
      : [];
  } catch {
    return [];
  }
}

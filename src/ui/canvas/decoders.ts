import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';

/**
 * Where the app serves three's Draco decoder (copied there by the `viewerDecoders` Vite
 * plugin), so compressed models load without any third-party host.
 */
export const DEFAULT_DRACO_DECODER_PATH = `${import.meta.env.BASE_URL}decoders/draco/`;

const dracoLoaders = new Map<string, DRACOLoader>();

/** One Draco loader (and its worker pool) per decoder location, shared by every viewer. */
export function dracoLoader(decoderPath: string): DRACOLoader {
  let loader = dracoLoaders.get(decoderPath);
  if (!loader) {
    loader = new DRACOLoader().setDecoderPath(decoderPath).setDecoderConfig({ type: 'wasm' });
    dracoLoaders.set(decoderPath, loader);
  }
  return loader;
}

type MeshoptDecoder =
  (typeof import('three/examples/jsm/libs/meshopt_decoder.module.js'))['MeshoptDecoder'];

/**
 * The meshopt decoder: by default three's module, bundled into its own chunk and loaded only
 * when a viewer needs it; `location` is an ES module exporting `MeshoptDecoder` instead.
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

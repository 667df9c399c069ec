import { useThree } from '@react-three/fiber';
import { Component, use, useLayoutEffect, useMemo, type ReactNode } from 'react';
import {
  CompressedCubeTexture,
  EquirectangularReflectionMapping,
  HalfFloatType,
  LinearFilter,
  LinearMipmapLinearFilter,
  LinearSRGBColorSpace,
  PMREMGenerator,
  RGBAFormat,
  type CompressedPixelFormat,
  type Scene,
  type Texture,
  type WebGLRenderer,
} from 'three';
import { decodePmrem, pmremLevels, rgb9e5ToHalfRgba, type PrefilteredCube } from './pmrem-file';
import type { PrefilterAnswer, PrefilterRequest } from './prefilter.worker';

/**
 * Image-based lighting from a .pmrem file (the presets, prefiltered at build time) or an .exr
 * or .hdr file (prefiltered in a worker while the avatar loads); see environmentFile.
 */
export function EnvironmentLighting({ file }: { file: string }) {
  return (
    <LightingBoundary file={file}>
      <SceneEnvironment file={file} />
    </LightingBoundary>
  );
}

/** Lights the scene with the environment map; the previous one comes back on unmount. */
function SceneEnvironment({ file }: { file: string }) {
  const loaded = use(environmentTexture(file));
  const scene = useThree((s) => s.scene);
  const gl = useThree((s) => s.gl);
  const invalidate = useThree((s) => s.invalidate);
  const texture = useMemo(
    () => (loaded.isPMREMTexture ? loaded : smallPmrem(gl, loaded)),
    [gl, loaded],
  );
  useLayoutEffect(() => {
    const previous = swapEnvironment(scene, texture);
    invalidate();
    return () => void swapEnvironment(scene, previous);
  }, [scene, texture, invalidate]);
  return null;
}

/** Face size of a prefiltered environment: what the presets ship (scripts/prefilter-environment). */
const PMREM_SIZE = 64;
const pmrems = new WeakMap<Texture, Texture>();

/**
 * Where no worker can run (a host page whose Content-Security-Policy forbids them), an .exr or
 * .hdr map is prefiltered by three's PMREMGenerator on the first frame instead, at the presets'
 * 64-texel face rather than its smallest, 256: a sixteenth of the work (seconds without a GPU).
 * three.js has no option for the size, so the generator's private `_setSize` is replaced on this
 * one instance.
 */
function smallPmrem(gl: WebGLRenderer, equirect: Texture): Texture {
  let prefiltered = pmrems.get(equirect);
  if (!prefiltered) {
    const generator = new PMREMGenerator(gl);
    Object.assign(generator, {
      _setSize(this: { _cubeSize: number }) {
        this._cubeSize = PMREM_SIZE;
      },
    });
    prefiltered = generator.fromEquirectangular(equirect).texture;
    generator.dispose();
    pmrems.set(equirect, prefiltered);
  }
  return prefiltered;
}

/** Sets the scene's environment map and returns the one it replaces. */
function swapEnvironment(scene: Scene, texture: Texture | null): Texture | null {
  const previous = scene.environment;
  scene.environment = texture;
  return previous;
}

/** A promise React's `use` reads at once once it has settled (status and value set on it). */
type TrackedTexture = Promise<Texture> & {
  status?: 'fulfilled' | 'rejected';
  value?: Texture;
  reason?: unknown;
};

const textures = new Map<string, TrackedTexture>();

/**
 * The environment map in `file`, loaded once per page. The viewer asks for it with the model,
 * so the avatar's first frame is already lit: the promise records its outcome on itself, and
 * `use` then reads it without suspending.
 */
export function environmentTexture(file: string): Promise<Texture> {
  let texture = textures.get(file);
  if (!texture) {
    const loading: TrackedTexture = isPmrem(file)
      ? prefilteredTexture(file)
      : equirectTexture(file);
    void loading.then(
      (value) => {
        loading.status = 'fulfilled';
        loading.value = value;
      },
      (reason: unknown) => {
        loading.status = 'rejected';
        loading.reason = reason;
        // A failed load is not kept: the next attempt tries again.
        textures.delete(file);
      },
    );
    textures.set(file, loading);
    texture = loading;
  }
  return texture;
}

/** The bytes of `file`, or an error that names it. */
async function download(file: string): Promise<ArrayBuffer> {
  const response = await fetch(file);
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** A .pmrem file (pmrem-file.ts): the presets, prefiltered at build time. */
async function prefilteredTexture(file: string): Promise<Texture> {
  return cubeTexture(decodePmrem(await download(file)));
}

/**
 * An equirectangular .exr or .hdr map, prefiltered as the presets are (prefilter.ts) by a worker
 * of its own (prefilter.worker.ts), which fetches and reads the file itself: neither waits for
 * the main thread, which meanwhile loads the avatar, and the first frame has no prefiltering pass
 * to draw. Where the worker cannot start, the map itself, for SceneEnvironment to prefilter
 * (smallPmrem).
 */
async function equirectTexture(file: string): Promise<Texture> {
  const exr = isExr(file);
  let worker: Worker;
  try {
    worker = new Worker(new URL('./prefilter.worker.ts', import.meta.url), {
      type: 'module',
      name: 'environment prefilter',
    });
  } catch {
    return mainThreadEquirect(file, exr);
  }
  try {
    const answer = await new Promise<PrefilterAnswer | 'no worker'>((resolve) => {
      worker.addEventListener('message', (event: MessageEvent<PrefilterAnswer>) =>
        resolve(event.data),
      );
      // The worker's script could not be loaded (blocked, offline) or did not run.
      worker.addEventListener('error', () => resolve('no worker'));
      const request: PrefilterRequest = { url: new URL(file, document.baseURI).href, exr };
      worker.postMessage(request);
    });
    if (answer === 'no worker') return await mainThreadEquirect(file, exr);
    if ('error' in answer) throw new Error(`${file}: ${answer.error}`);
    return cubeTexture(answer.cube);
  } finally {
    worker.terminate();
  }
}

/** The map read on the main thread, with three's own EXR or HDR loader (each its own chunk). */
async function mainThreadEquirect(file: string, exr: boolean): Promise<Texture> {
  const [bytes, loader] = await Promise.all([
    download(file),
    exr
      ? import('three/examples/jsm/loaders/EXRLoader.js').then((m) => new m.EXRLoader())
      : import('three/examples/jsm/loaders/HDRLoader.js').then((m) => new m.HDRLoader()),
  ]);
  const map = loader.createDataTexture(bytes);
  map.mapping = EquirectangularReflectionMapping;
  map.colorSpace = LinearSRGBColorSpace;
  return map;
}

/**
 * A prefiltered cube as the texture three.js's PMREMGenerator would have made: a cube whose mip
 * levels hold the GGX-filtered radiance per roughness. Marked as a PMREM, it is sampled as it is,
 * with no prefiltering pass. The "compressed" cube type is how three.js takes a cube with its
 * whole mip chain from data (as KTX2Loader does for uncompressed cubes), and the one whose mip
 * levels the renderer counts for the roughness of each level.
 */
function cubeTexture({ size, levels }: PrefilteredCube): Texture {
  const faces = [0, 1, 2, 3, 4, 5].map((face) => ({
    width: size,
    height: size,
    mipmaps: levels.map((level, lod) => ({
      data: rgb9e5ToHalfRgba(level[face]!),
      width: size >> lod,
      height: size >> lod,
    })),
  }));
  // Faces as KTX2Loader makes them for uncompressed data (RGBAFormat: three uploads the levels
  // with texSubImage2D; @types/three lists only compressed formats here).
  const texture = new CompressedCubeTexture(
    faces,
    RGBAFormat as unknown as CompressedPixelFormat,
    HalfFloatType,
  );
  texture.name = 'PMREM';
  texture.isPMREMTexture = true;
  texture.minFilter = LinearMipmapLinearFilter;
  texture.magFilter = LinearFilter;
  texture.colorSpace = LinearSRGBColorSpace;
  texture.needsUpdate = true;
  return texture;
}

let placeholder: Texture | undefined;
/**
 * A black environment of the kind every environment becomes (a prefiltered cube, see
 * cubeTexture), so a material drawn with it gets the same shader program as with the real one.
 */
export function placeholderEnvironment(): Texture {
  placeholder ??= cubeTexture({
    size: PMREM_SIZE,
    levels: Array.from({ length: pmremLevels(PMREM_SIZE) }, (_, lod) =>
      Array.from({ length: 6 }, () => new Uint32Array((PMREM_SIZE >> lod) ** 2)),
    ),
  });
  return placeholder;
}

/** The file's extension (lower case), by data URL type or by its path. */
function hasExtension(file: string, extension: string): boolean {
  if (file.startsWith('data:')) return new RegExp(`^data:[^;,]*${extension}`, 'i').test(file);
  return (file.split(/[?#]/)[0] ?? '').toLowerCase().endsWith(`.${extension}`);
}

const isPmrem = (file: string) => hasExtension(file, 'pmrem');
/** EXR by data URL type or by file extension; else HDR. */
const isExr = (file: string) => hasExtension(file, 'exr');

/** A broken environment file leaves the avatar lit by the ambient light only, never blank. */
class LightingBoundary extends Component<
  { file: string; children: ReactNode },
  { failed: string | null }
> {
  state = { failed: null as string | null };
  static getDerivedStateFromError() {
    return { failed: 'yes' };
  }
  componentDidCatch(error: unknown) {
    console.warn(`Environment "${this.props.file}" could not be loaded`, error);
  }
  componentDidUpdate(previous: { file: string }) {
    if (previous.file !== this.props.file && this.state.failed) {
      this.setState({ failed: null });
    }
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

import { useThree } from '@react-three/fiber';
import { Component, use, useLayoutEffect, type ReactNode } from 'react';
import {
  EquirectangularReflectionMapping,
  LinearSRGBColorSpace,
  type DataTexture,
  type Scene,
  type Texture,
} from 'three';

/** Image-based lighting from an .exr or .hdr file (see environmentFile for the presets). */
export function EnvironmentLighting({ file }: { file: string }) {
  return (
    <LightingBoundary file={file}>
      <SceneEnvironment file={file} />
    </LightingBoundary>
  );
}

/** Lights the scene with the environment map; the previous one comes back on unmount. */
function SceneEnvironment({ file }: { file: string }) {
  const texture = use(environmentTexture(file));
  const scene = useThree((s) => s.scene);
  const invalidate = useThree((s) => s.invalidate);
  useLayoutEffect(() => {
    const previous = swapEnvironment(scene, texture);
    invalidate();
    return () => void swapEnvironment(scene, previous);
  }, [scene, texture, invalidate]);
  return null;
}

/** Sets the scene's environment map and returns the one it replaces. */
function swapEnvironment(scene: Scene, texture: Texture | null): Texture | null {
  const previous = scene.environment;
  scene.environment = texture;
  return previous;
}

/** A promise React's `use` reads at once once it has settled (status and value set on it). */
type TrackedTexture = Promise<DataTexture> & {
  status?: 'fulfilled' | 'rejected';
  value?: DataTexture;
  reason?: unknown;
};

const textures = new Map<string, TrackedTexture>();

/**
 * The equirectangular environment map in `file`, loaded once per page with three's own EXR or
 * HDR loader (each in its own chunk, fetched only when that format is used). The viewer asks
 * for it with the model, so the avatar's first frame is already lit: the promise records its
 * outcome on itself, and `use` then reads it without suspending.
 */
export function environmentTexture(file: string): Promise<DataTexture> {
  let texture = textures.get(file);
  if (!texture) {
    const loading: TrackedTexture = (async () => {
      const loader = isExr(file)
        ? new (await import('three/examples/jsm/loaders/EXRLoader.js')).EXRLoader()
        : new (await import('three/examples/jsm/loaders/HDRLoader.js')).HDRLoader();
      const map = await loader.loadAsync(file);
      map.mapping = EquirectangularReflectionMapping;
      map.colorSpace = LinearSRGBColorSpace;
      return map;
    })();
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

/** EXR by data URL type or by file extension (presets are .exr); else HDR. */
function isExr(file: string): boolean {
  if (file.startsWith('data:')) return /^data:[^;,]*exr/i.test(file);
  return /\.exr$/i.test(file.split(/[?#]/)[0] ?? '');
}

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

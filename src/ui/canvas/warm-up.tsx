// Preparing the avatar's first frame while its environment is still on its way.
import { useThree } from '@react-three/fiber';
import { useLayoutEffect, type RefObject } from 'react';
import type { Camera, Material, Object3D, Scene, Texture, WebGLRenderer } from 'three';
import { placeholderEnvironment } from './environment-lighting';

/**
 * While an .hdr or .exr environment is still being prefiltered, sends the avatar's textures to
 * the GPU and compiles its shader programs (the browser links them, and builds what it can of
 * their pipelines, on threads of its own), so the first lit frame mostly draws. The programs are
 * compiled against a stand-in environment of the same kind, so they are the ones that frame
 * uses. With the environment already in there is nothing to wait for, and nothing is done.
 */
export function WarmUp({ avatar }: { avatar: RefObject<Object3D | null> }) {
  const gl = useThree((s) => s.gl);
  const scene = useThree((s) => s.scene);
  const camera = useThree((s) => s.camera);
  useLayoutEffect(() => {
    const group = avatar.current;
    if (group && !scene.environment) prepare(gl, scene, camera, group);
  }, [avatar, gl, scene, camera]);
  return null;
}

function prepare(gl: WebGLRenderer, scene: Scene, camera: Camera, group: Object3D) {
  for (const texture of texturesOf(group)) gl.initTexture(texture);
  scene.environment = placeholderEnvironment();
  try {
    gl.compile(group, camera, scene);
  } finally {
    scene.environment = null;
  }
  // Without a draw the commands would wait in the page for the first frame's flush.
  gl.getContext().flush();
}

/** Every texture the materials under `root` use. */
function texturesOf(root: Object3D): Set<Texture> {
  const textures = new Set<Texture>();
  root.traverse((node) => {
    const { material } = node as Object3D & { material?: Material | Material[] };
    for (const m of [material ?? []].flat())
      for (const value of Object.values(m))
        if ((value as Texture | null)?.isTexture) textures.add(value as Texture);
  });
  return textures;
}

// A model that loads but has nothing to draw (an animation clip, a bare skeleton): the viewer
// says so instead of spawning an empty scene.
import type { Mesh, Object3D } from 'three';

/** Why the viewer shows no avatar: the model holds no mesh. `code` travels to /embed's host. */
export class NoMeshError extends Error {
  readonly code = 'noMesh';
  constructor() {
    super('The model has no mesh to show: it holds only an animation or a skeleton.');
    this.name = 'NoMeshError';
  }
}

/** Whether none of `scenes` holds a mesh (a skinned mesh, points or lines count as one). */
export function showsNoMesh(scenes: readonly Object3D[]): boolean {
  let found = false;
  for (const scene of scenes) {
    scene.traverse((object) => {
      const drawn = object as Partial<Mesh> & { isPoints?: boolean; isLine?: boolean };
      if (drawn.isMesh || drawn.isPoints || drawn.isLine) found = true;
    });
  }
  return !found;
}

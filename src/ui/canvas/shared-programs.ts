// Fewer shader programs, so a model's first frame has fewer to build.
import {
  DataTexture,
  SRGBColorSpace,
  type BufferGeometry,
  type Material,
  type MeshStandardMaterial,
  type Object3D,
  type Texture,
} from 'three';

/** The maps a white texel leaves as they are: each multiplies by it. */
const NEUTRAL_WHITE = ['map', 'emissiveMap', 'aoMap', 'roughnessMap', 'metalnessMap'] as const;
/** Colour maps, read as sRGB. */
const SRGB_SLOTS: ReadonlySet<Slot> = new Set(['map', 'emissiveMap']);
type Slot = (typeof NEUTRAL_WHITE)[number] | 'normalMap';
const SLOTS: readonly Slot[] = [...NEUTRAL_WHITE, 'normalMap'];

let neutral: { linear: Texture; srgb: Texture } | undefined;
function neutralTextures() {
  if (neutral) return neutral;
  const white = (srgb: boolean) => {
    const texture = new DataTexture(new Uint8Array([255, 255, 255, 255]), 1, 1);
    if (srgb) texture.colorSpace = SRGBColorSpace;
    texture.name = 'neutral';
    texture.needsUpdate = true;
    return texture;
  };
  neutral = { linear: white(false), srgb: white(true) };
  return neutral;
}

/** One of the 1 × 1 textures every model shares: not to be freed with a model. */
export const isNeutralTexture = (texture: Texture) =>
  texture === neutral?.linear || texture === neutral?.srgb;

/**
 * Gives every standard material under `root` the maps any of them has (colour, normal,
 * roughness, metalness, emissive, occlusion), the missing ones as a neutral 1 × 1 texture, so
 * that materials which differed only in which maps they have share one shader program. Each
 * program's pipelines are built at its first draw, which on a software rasteriser (SwiftShader)
 * is most of the first frame: `halfBodyAPIv2.glb`'s six materials drew with five programs and
 * now draw with three. The picture is the same: a white texel multiplies by 1 (colour, emissive,
 * occlusion, roughness and metalness all multiply their factor by their map), and the neutral
 * normal map is scaled to nothing (normalScale 0 leaves the surface's own normal). A mesh
 * without texture coordinates keeps its material; physical materials are left as they are.
 */
export function shareShaderPrograms(root: Object3D) {
  const materials = new Set<MeshStandardMaterial>();
  root.traverse((node) => {
    const { material, geometry } = node as Object3D & {
      material?: Material | Material[];
      geometry?: BufferGeometry;
    };
    // The neutral maps are read at the first UV set, which a mesh without one lacks.
    if (!geometry?.getAttribute('uv')) return;
    for (const m of [material ?? []].flat()) {
      const standard = m as MeshStandardMaterial & { isMeshPhysicalMaterial?: boolean };
      if (standard.isMeshStandardMaterial && !standard.isMeshPhysicalMaterial) {
        materials.add(standard);
      }
    }
  });
  if (materials.size < 2) return;
  const used = SLOTS.filter((slot) => [...materials].some((m) => m[slot]));
  const { linear, srgb } = neutralTextures();
  for (const material of materials) {
    for (const slot of used) {
      if (material[slot]) continue;
      material[slot] = SRGB_SLOTS.has(slot) ? srgb : linear;
      if (slot === 'normalMap') material.normalScale.set(0, 0);
    }
  }
}

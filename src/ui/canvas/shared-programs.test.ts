import {
  BufferAttribute,
  BufferGeometry,
  DataTexture,
  Group,
  Mesh,
  MeshPhysicalMaterial,
  MeshStandardMaterial,
  SRGBColorSpace,
  Texture,
} from 'three';
import { describe, expect, it } from 'vitest';
import { isNeutralTexture, shareShaderPrograms } from './shared-programs';

const SLOTS = ['map', 'emissiveMap', 'aoMap', 'roughnessMap', 'metalnessMap', 'normalMap'] as const;

const mesh = (material: MeshStandardMaterial, { uv = true } = {}) => {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(9), 3));
  if (uv) geometry.setAttribute('uv', new BufferAttribute(new Float32Array(6), 2));
  return new Mesh(geometry, material);
};
const mapsOf = (material: MeshStandardMaterial) => SLOTS.filter((slot) => material[slot]);

describe('shareShaderPrograms', () => {
  it('gives every material the maps any of them has, as white texels that change nothing', () => {
    const colour = new Texture();
    const normal = new Texture();
    const surface = new Texture();
    const eye = new MeshStandardMaterial({ map: colour });
    const shirt = new MeshStandardMaterial({
      map: colour,
      normalMap: normal,
      roughnessMap: surface,
      metalnessMap: surface,
    });
    shirt.normalScale.set(1, -1);
    shareShaderPrograms(new Group().add(mesh(eye), mesh(shirt)));

    expect(mapsOf(eye)).toEqual(['map', 'roughnessMap', 'metalnessMap', 'normalMap']);
    expect(eye.map).toBe(colour);
    // The neutral normal map is scaled to nothing; the shirt keeps its own map and scale.
    expect(eye.normalScale.toArray()).toEqual([0, 0]);
    expect([shirt.normalMap, shirt.roughnessMap]).toEqual([normal, surface]);
    expect(shirt.normalScale.toArray()).toEqual([1, -1]);
    const neutral = eye.roughnessMap as DataTexture;
    expect(isNeutralTexture(neutral)).toBe(true);
    const { width, height, data } = neutral.image as {
      width: number;
      height: number;
      data: Uint8Array;
    };
    expect([width, height, ...data]).toEqual([1, 1, 255, 255, 255, 255]);
  });

  it('reads neutral colour and emissive maps as sRGB, the others as linear', () => {
    const glowing = new MeshStandardMaterial({ emissiveMap: new Texture(), aoMap: new Texture() });
    const plain = new MeshStandardMaterial({ map: new Texture() });
    shareShaderPrograms(new Group().add(mesh(glowing), mesh(plain)));
    expect(glowing.map?.colorSpace).toBe(SRGBColorSpace);
    expect(plain.emissiveMap?.colorSpace).toBe(SRGBColorSpace);
    expect(plain.aoMap?.colorSpace).not.toBe(SRGBColorSpace);
    expect(isNeutralTexture(plain.aoMap!)).toBe(true);
  });

  it('leaves a mesh without UVs, a physical material and a lone material as they are', () => {
    const withoutUv = new MeshStandardMaterial();
    const physical = new MeshPhysicalMaterial();
    const textured = new MeshStandardMaterial({ map: new Texture(), normalMap: new Texture() });
    const plain = new MeshStandardMaterial();
    shareShaderPrograms(
      new Group().add(mesh(withoutUv, { uv: false }), mesh(physical), mesh(textured), mesh(plain)),
    );
    expect(mapsOf(withoutUv)).toEqual([]);
    expect(mapsOf(physical)).toEqual([]);
    expect(mapsOf(plain)).toEqual(['map', 'normalMap']);

    const alone = new MeshStandardMaterial({ normalMap: new Texture() });
    shareShaderPrograms(new Group().add(mesh(alone), mesh(alone)));
    expect(mapsOf(alone)).toEqual(['normalMap']);
    expect(isNeutralTexture(new Texture())).toBe(false);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PMREMGenerator } from 'three';
import { describe, expect, it } from 'vitest';
import { decodePmrem, unpackRgb9e5 } from '../src/ui/canvas/pmrem-file';
import { lodToRoughness, prefilterEquirect, type Equirect } from '../src/ui/canvas/prefilter';
import { prefilteredEnvironment } from './prefilter-environment';
import { tempDir } from '../tests/temp-dir';

const SIZE = 32;

/** An equirectangular image (three's layout: row 0 is the bottom) of `colour(direction)`. */
function equirect(width: number, colour: (x: number, y: number, z: number) => number[]): Equirect {
  const height = width / 2;
  const data = new Float32Array(width * height * 4);
  for (let row = 0; row < height; row++) {
    for (let column = 0; column < width; column++) {
      // The inverse of three's equirectUv.
      const phi = ((column + 0.5) / width - 0.5) * 2 * Math.PI;
      const theta = ((row + 0.5) / height - 0.5) * Math.PI;
      const [r, g, b] = colour(
        Math.cos(theta) * Math.cos(phi),
        Math.sin(theta),
        Math.cos(theta) * Math.sin(phi),
      );
      data.set([r!, g!, b!, 1], (row * width + column) * 4);
    }
  }
  return { width, height, data };
}

/** The solid angle of texel (x, y) of a face of n² texels, as a fraction of the sphere. */
function solidAngle(n: number, x: number, y: number): number {
  const u = ((x + 0.5) / n) * 2 - 1;
  const v = ((y + 0.5) / n) * 2 - 1;
  return ((4 / (n * n)) * (1 + u * u + v * v) ** -1.5) / (4 * Math.PI);
}

/** Per level: the brightest texel (red), the sphere's mean, and the share within 90% of it. */
function levelStats(levels: Float32Array[][]) {
  return levels.map((faces) => {
    const n = Math.sqrt(faces[0]!.length / 3);
    let peak = 0;
    let mean = 0;
    for (const face of faces) {
      for (let i = 0; i < n * n; i++) {
        peak = Math.max(peak, face[i * 3]!);
        mean += face[i * 3]! * solidAngle(n, i % n, Math.floor(i / n));
      }
    }
    let bright = 0;
    for (const face of faces) {
      for (let i = 0; i < n * n; i++) {
        if (face[i * 3]! > 0.1 * peak) bright += solidAngle(n, i % n, Math.floor(i / n));
      }
    }
    return { peak, mean, bright };
  });
}

/** The face and texel of level 0 holding the largest red value. */
function brightest(level: Float32Array[]) {
  let best = { face: -1, x: 0, y: 0, value: -1 };
  const n = Math.sqrt(level[0]!.length / 3);
  level.forEach((face, index) => {
    for (let i = 0; i < n * n; i++) {
      if (face[i * 3]! > best.value) {
        best = { face: index, x: i % n, y: Math.floor(i / n), value: face[i * 3]! };
      }
    }
  });
  return best;
}

/** PMREMGenerator.lodToRoughness (three 0.187; not in @types/three yet). */
const threeLodToRoughness = (
  PMREMGenerator as unknown as { lodToRoughness: (lod: number, maxLod: number) => number }
).lodToRoughness;

describe('the environment prefilter', () => {
  it("gives each level three.js's roughness, which the shader's roughnessToMip inverts", () => {
    for (const lod of [0, 1, 2, 3]) {
      const roughness = lodToRoughness(lod, 3);
      expect(roughness).toBe(threeLodToRoughness(lod, 3));
      // envmap_common_pars_fragment: mip = ENVMAP_MAX_LOD * r * (2 - r).
      expect(3 * roughness * (2 - roughness)).toBeCloseTo(lod, 10);
    }
  });

  it('leaves a constant environment the same colour at every level and texel', () => {
    const levels = prefilterEquirect(
      equirect(64, () => [0.8, 0.5, 0.25]),
      { size: SIZE },
    );
    expect(levels.map((faces) => Math.sqrt(faces[0]!.length / 3))).toEqual([32, 16, 8]);
    for (const faces of levels) {
      for (const face of faces) {
        for (let i = 0; i < face.length; i += 3) {
          expect(face[i]).toBeCloseTo(0.8, 5);
          expect(face[i + 1]).toBeCloseTo(0.5, 5);
          expect(face[i + 2]).toBeCloseTo(0.25, 5);
        }
      }
    }
  });

  it('spreads a bright spot wider and dimmer at each level, keeping its energy', () => {
    // A small bright disc (about 6°) towards +Z on black.
    const spot = equirect(256, (_x, _y, z) => [z > Math.cos(0.05) ? 100 : 0, 0, 0]);
    const stats = levelStats(prefilterEquirect(spot, { size: 64 }));
    for (let lod = 1; lod < stats.length; lod++) {
      expect(stats[lod]!.peak).toBeLessThan(stats[lod - 1]!.peak);
      expect(stats[lod]!.bright).toBeGreaterThan(stats[lod - 1]!.bright);
      // The same light over the sphere, only spread out.
      expect(stats[lod]!.mean / stats[0]!.mean).toBeGreaterThan(0.93);
      expect(stats[lod]!.mean / stats[0]!.mean).toBeLessThan(1.07);
    }
    // Roughness 1 is (nearly) cosine-weighted: lit over about the half sphere facing the spot.
    expect(stats.at(-1)!.bright).toBeGreaterThan(0.4);
  });

  it('stores each direction where the renderer samples a CubeTexture: mirrored in x', () => {
    // three samples a CubeTexture at (-x, y, z) of the world direction (WebGLMaterials).
    const towards = (dx: number, dy: number, dz: number) => {
      const length = Math.hypot(dx, dy, dz);
      const light = (x: number, y: number, z: number) =>
        (x * dx + y * dy + z * dz) / length > 0.99 ? 1 : 0;
      return brightest(
        prefilterEquirect(
          equirect(128, (...d) => [light(...d), 0, 0]),
          { size: SIZE },
        )[0]!,
      );
    };
    // Light from +X lies in the -X face (1), from -X in +X (0); ±Y and ±Z keep their faces.
    expect(towards(1, 0, 0).face).toBe(1);
    expect(towards(-1, 0, 0).face).toBe(0);
    expect(towards(0, 1, 0).face).toBe(2);
    expect(towards(0, -1, 0).face).toBe(3);
    expect(towards(0, 0, 1).face).toBe(4);
    expect(towards(0, 0, -1).face).toBe(5);
    // Within the +Z face: light from +X and up lies at -x (left) and -y (row 0 side) of it.
    const corner = towards(0.4, 0.3, 1);
    expect(corner.face).toBe(4);
    expect(corner.x).toBeLessThan(SIZE / 2);
    expect(corner.y).toBeLessThan(SIZE / 2);
  });

  it('writes a .pmrem once and then reads it from its cache', () => {
    const cache = tempDir('pmrem-');
    const exr = readFileSync(
      createRequire(import.meta.url).resolve('@pmndrs/assets/hdri/studio.exr.js'),
      'utf8',
    );
    const bytes = Buffer.from(/base64,([A-Za-z0-9+/=]+)/.exec(exr)![1]!, 'base64');
    const first = prefilteredEnvironment(bytes, cache);
    expect(readdirSync(cache)).toHaveLength(1);
    const started = performance.now();
    expect(prefilteredEnvironment(bytes, cache).equals(first)).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
    const { size, levels } = decodePmrem(Uint8Array.from(first).buffer);
    expect(size).toBe(64);
    expect(levels).toHaveLength(4);
    // The studio's lights are bright; its roughest level is an even, dimmer glow.
    const roughest = levels
      .at(-1)!
      .flatMap((face) => [...face].map((word) => unpackRgb9e5(word)[1]));
    expect(Math.min(...roughest)).toBeGreaterThan(0);
  });
});

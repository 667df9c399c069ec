/**
 * Environment prefiltering in plain TypeScript: an equirectangular HDR image becomes the mip
 * chain three.js's PMREMGenerator (three/src/extras/PMREMGenerator.js) would render from it on
 * the GPU. The build runs it for the presets (scripts/prefilter-environment.ts, which ships them
 * as .pmrem files, see pmrem-file.ts); the viewer runs it in a worker for any other .hdr or .exr
 * (prefilter.worker.ts), so no environment costs the first frame a prefiltering pass.
 *
 * Like PMREMGenerator: the image is resampled into a cube (level 0, a mirror); level `lod` of
 * `maxLod` holds the GGX-filtered radiance for roughness lodToRoughness(lod, maxLod), with the
 * split-sum assumption N = V = R and each sample weighted by N·L. The sharp levels importance
 * sample the GGX distribution (Hammersley points), reading the source mip whose texel matches a
 * sample's solid angle (half a mip more, against noise); the rough levels weight every texel of
 * a small source mip by the GGX lobe instead. Faces are stored the way the renderer samples a
 * CubeTexture (mirrored in x, see pmrem-file.ts).
 */
import { packRgb9e5, pmremLevels, type PrefilteredCube } from './pmrem-file';

/**
 * Level 0's face size. PMREMGenerator makes 256 (it never goes lower), the presets are 512x256
 * images (a 90° face of 128 texels holds all they have). On the avatars 64 lights like 256
 * (the mean pixel differs by less than 1/255, tests/e2e/viewer-environment.webgl.test.ts) in a
 * sixteenth of the bytes: about 100 KB with brotli, less than the EXR itself.
 */
export const FACE_SIZE = 64;
/**
 * GGX samples per texel of the sharp levels at build time (PMREMGenerator: 256). The viewer,
 * prefiltering another file while the avatar loads, takes fewer (see prefilter.worker.ts).
 */
export const GGX_SAMPLES = 1024;
/**
 * Levels this rough integrate a source mip instead of sampling (PMREMGenerator integrates its
 * last three levels: roughness 0.37 and up).
 */
export const INTEGRATION_ROUGHNESS = 0.35;
/** Smallest source mip the integrating levels read (PMREMGenerator: 16). */
export const INTEGRATION_SIZE = 16;
/** Subsamples per side when level 0 resamples the image. */
export const SUPERSAMPLES = 4;

/** A linear RGBA float image in three's equirectangular layout (row 0 is the bottom). */
export interface Equirect {
  width: number;
  height: number;
  data: Float32Array;
}

/** Float RGB cube faces: faces[face][3 * (y * size + x) + channel]. */
type Faces = Float32Array[];

/** The unit direction of texel (u, v) in [-1, 1]² of a WebGL cube face (the GL spec's table). */
function faceDirection(face: number, u: number, v: number, out: Float64Array) {
  // Plain assignments, no array literals: this runs for every texel and subsample.
  let x: number, y: number, z: number;
  switch (face) {
    case 0: x = 1; y = -v; z = -u; break; // prettier-ignore
    case 1: x = -1; y = -v; z = u; break; // prettier-ignore
    case 2: x = u; y = 1; z = v; break; // prettier-ignore
    case 3: x = u; y = -1; z = -v; break; // prettier-ignore
    case 4: x = u; y = -v; z = 1; break; // prettier-ignore
    default: x = -u; y = -v; z = -1; // prettier-ignore
  }
  const length = Math.sqrt(x * x + y * y + z * z);
  out[0] = x / length;
  out[1] = y / length;
  out[2] = z / length;
}

/** A cube with its mip chain down to 1x1 (box filtered, as generateMipmap does). */
class MipCube {
  readonly levels: Faces[] = [];
  constructor(
    readonly size: number,
    level0: Faces,
  ) {
    this.levels.push(level0);
    for (let n = size / 2; n >= 1; n /= 2) {
      const above = this.levels[this.levels.length - 1]!;
      this.levels.push(
        above.map((face) => {
          const out = new Float32Array(n * n * 3);
          for (let y = 0; y < n; y++) {
            for (let x = 0; x < n; x++) {
              for (let c = 0; c < 3; c++) {
                const at = (2 * y * 2 * n + 2 * x) * 3 + c;
                out[(y * n + x) * 3 + c] =
                  (face[at]! + face[at + 3]! + face[at + 6 * n]! + face[at + 6 * n + 3]!) / 4;
              }
            }
          }
          return out;
        }),
      );
    }
  }

  /** Bilinear sample of level `lod` in direction (x, y, z), added to `out` times `weight`. */
  private bilinear(
    lod: number,
    x: number,
    y: number,
    z: number,
    weight: number,
    out: Float64Array,
  ) {
    const ax = Math.abs(x);
    const ay = Math.abs(y);
    const az = Math.abs(z);
    // The face and its (s, t) as the GL spec's table picks them; no arrays on this hot path.
    let face: number, sc: number, tc: number, ma: number;
    if (ax >= ay && ax >= az) {
      face = x > 0 ? 0 : 1;
      sc = x > 0 ? -z : z;
      tc = -y;
      ma = ax;
    } else if (ay >= az) {
      face = y > 0 ? 2 : 3;
      sc = x;
      tc = y > 0 ? z : -z;
      ma = ay;
    } else {
      face = z > 0 ? 4 : 5;
      sc = z > 0 ? x : -x;
      tc = -y;
      ma = az;
    }
    const n = this.size >> lod;
    const data = this.levels[lod]![face]!;
    const px = Math.min(Math.max(((sc / ma + 1) / 2) * n - 0.5, 0), n - 1);
    const py = Math.min(Math.max(((tc / ma + 1) / 2) * n - 0.5, 0), n - 1);
    const x0 = Math.floor(px);
    const y0 = Math.floor(py);
    const x1 = Math.min(x0 + 1, n - 1);
    const y1 = Math.min(y0 + 1, n - 1);
    const fx = px - x0;
    const fy = py - y0;
    const w00 = (1 - fx) * (1 - fy) * weight;
    const w10 = fx * (1 - fy) * weight;
    const w01 = (1 - fx) * fy * weight;
    const w11 = fx * fy * weight;
    const a = (y0 * n + x0) * 3;
    const b = (y0 * n + x1) * 3;
    const c = (y1 * n + x0) * 3;
    const d = (y1 * n + x1) * 3;
    for (let k = 0; k < 3; k++) {
      out[k]! += data[a + k]! * w00 + data[b + k]! * w10 + data[c + k]! * w01 + data[d + k]! * w11;
    }
  }

  /** Trilinear sample (textureLod) in a unit direction, added to `out` times `weight`. */
  sample(x: number, y: number, z: number, lod: number, weight: number, out: Float64Array) {
    const last = this.levels.length - 1;
    const l = Math.min(Math.max(lod, 0), last);
    const l0 = Math.floor(l);
    const f = l - l0;
    this.bilinear(l0, x, y, z, weight * (1 - f), out);
    if (f > 0) this.bilinear(l0 + 1, x, y, z, weight * f, out);
  }
}

/** Bilinear sample of the equirectangular image (three's equirectUv), wrapping around in u. */
function sampleEquirect(image: Equirect, x: number, y: number, z: number, out: Float64Array) {
  const { width, height, data } = image;
  const u = Math.atan2(z, x) / (2 * Math.PI) + 0.5;
  const v = Math.asin(Math.min(Math.max(y, -1), 1)) / Math.PI + 0.5;
  const px = u * width - 0.5;
  const py = Math.min(Math.max(v * height - 0.5, 0), height - 1);
  const x0 = Math.floor(px);
  const y0 = Math.floor(py);
  const fx = px - x0;
  const fy = py - y0;
  const xa = ((x0 % width) + width) % width;
  const xb = (xa + 1) % width;
  const ya = y0;
  const yb = Math.min(y0 + 1, height - 1);
  for (let k = 0; k < 3; k++) {
    out[k]! +=
      (data[(ya * width + xa) * 4 + k]! * (1 - fx) + data[(ya * width + xb) * 4 + k]! * fx) *
        (1 - fy) +
      (data[(yb * width + xa) * 4 + k]! * (1 - fx) + data[(yb * width + xb) * 4 + k]! * fx) * fy;
  }
}

/** The image as cube faces (world directions, no mirror), each texel the mean of subsamples. */
function cubeFromEquirect(image: Equirect, size: number): Faces {
  const direction = new Float64Array(3);
  const sum = new Float64Array(3);
  const faces: Faces = [];
  for (let face = 0; face < 6; face++) {
    const out = new Float32Array(size * size * 3);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        sum.fill(0);
        for (let sy = 0; sy < SUPERSAMPLES; sy++) {
          for (let sx = 0; sx < SUPERSAMPLES; sx++) {
            const u = ((x + (sx + 0.5) / SUPERSAMPLES) / size) * 2 - 1;
            const v = ((y + (sy + 0.5) / SUPERSAMPLES) / size) * 2 - 1;
            faceDirection(face, u, v, direction);
            sampleEquirect(image, direction[0]!, direction[1]!, direction[2]!, sum);
          }
        }
        for (let k = 0; k < 3; k++) out[(y * size + x) * 3 + k] = sum[k]! / SUPERSAMPLES ** 2;
      }
    }
    faces.push(out);
  }
  return faces;
}

/** PMREMGenerator.lodToRoughness. */
export function lodToRoughness(lod: number, maxLod: number): number {
  return maxLod > 0 ? 1 - Math.sqrt(1 - lod / maxLod) : 0;
}

/** Van der Corput radical inverse in base 2. */
function radicalInverse(i: number): number {
  let bits = i >>> 0;
  bits = ((bits << 16) | (bits >>> 16)) >>> 0;
  bits = (((bits & 0x55555555) << 1) | ((bits & 0xaaaaaaaa) >>> 1)) >>> 0;
  bits = (((bits & 0x33333333) << 2) | ((bits & 0xcccccccc) >>> 2)) >>> 0;
  bits = (((bits & 0x0f0f0f0f) << 4) | ((bits & 0xf0f0f0f0) >>> 4)) >>> 0;
  bits = (((bits & 0x00ff00ff) << 8) | ((bits & 0xff00ff00) >>> 8)) >>> 0;
  return bits * 2.3283064365386963e-10;
}

/** Calls `texel(N, index)` for every texel of a face of `n`² texels, N in world space. */
function forEachTexel(face: number, n: number, texel: (N: Float64Array, index: number) => void) {
  const N = new Float64Array(3);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      faceDirection(face, ((x + 0.5) / n) * 2 - 1, ((y + 0.5) / n) * 2 - 1, N);
      // The renderer samples a CubeTexture mirrored in x: store world direction (-x, y, z).
      N[0] = -N[0]!;
      texel(N, y * n + x);
    }
  }
}

/** One sharp level: GGX importance sampling (PMREMGenerator's GGX material). */
function ggxLevel(source: MipCube, n: number, roughness: number, count: number): Faces {
  const alpha = roughness * roughness;
  const alpha2 = alpha * alpha;
  // For V = N the pdf of L is D(H) / 4; the source texel's solid angle matches a sample's.
  const lodBias = Math.log2(source.size) + 0.5 * Math.log2(6 / (count * alpha2)) + 0.5;
  // Per sample: N·L, sin θ, cos φ, sin φ and the source mip to read (flat, for the hot loop).
  const samples = new Float64Array(5 * count);
  let taken = 0;
  for (let i = 0; i < count; i++) {
    const xi = i / count;
    const invQ = 1 / (1 - xi + alpha2 * xi);
    const nDotL = (1 - xi - alpha2 * xi) * invQ;
    if (nDotL <= 0) continue;
    const phi = 2 * Math.PI * radicalInverse(i);
    samples.set(
      [
        nDotL,
        2 * alpha * Math.sqrt(xi * (1 - xi)) * invQ,
        Math.cos(phi),
        Math.sin(phi),
        Math.max(Math.log2(alpha2 * invQ) + lodBias, 0),
      ],
      5 * taken++,
    );
  }
  const sum = new Float64Array(3);
  const faces: Faces = [];
  for (let face = 0; face < 6; face++) {
    const out = new Float32Array(n * n * 3);
    forEachTexel(face, n, ([nx, ny, nz], index) => {
      const [x, y, z] = [nx!, ny!, nz!];
      // The tangent frame of PMREMGenerator: T = normalize(cross(up, N)), B = cross(N, T).
      const [ux, uy, uz] = Math.abs(z) < 0.999 ? [0, 0, 1] : [1, 0, 0];
      let tx = uy * z - uz * y;
      let ty = uz * x - ux * z;
      let tz = ux * y - uy * x;
      const tl = Math.hypot(tx, ty, tz);
      tx /= tl;
      ty /= tl;
      tz /= tl;
      const bx = y * tz - z * ty;
      const by = z * tx - x * tz;
      const bz = x * ty - y * tx;
      sum.fill(0);
      let total = 0;
      for (let i = 0; i < 5 * taken; i += 5) {
        const nDotL = samples[i]!;
        const sinTheta = samples[i + 1]!;
        const cosPhi = samples[i + 2]!;
        const sinPhi = samples[i + 3]!;
        const ox = tx * cosPhi + bx * sinPhi;
        const oy = ty * cosPhi + by * sinPhi;
        const oz = tz * cosPhi + bz * sinPhi;
        source.sample(
          x * nDotL + ox * sinTheta,
          y * nDotL + oy * sinTheta,
          z * nDotL + oz * sinTheta,
          samples[i + 4]!,
          nDotL,
          sum,
        );
        total += nDotL;
      }
      for (let k = 0; k < 3; k++) out[index * 3 + k] = sum[k]! / total;
    });
    faces.push(out);
  }
  return faces;
}

/** One rough level: every texel of a source mip weighted by the GGX lobe and its solid angle. */
function integratedLevel(source: MipCube, n: number, roughness: number): Faces {
  const alpha2 = roughness ** 4;
  const m = Math.max(INTEGRATION_SIZE, n);
  const lod = Math.log2(source.size / m);
  // Every source texel: its direction, colour and solid angle (up to a constant factor).
  const texels = new Float64Array(6 * m * m * 7);
  const direction = new Float64Array(3);
  let at = 0;
  for (let face = 0; face < 6; face++) {
    const data = source.levels[lod]![face]!;
    for (let y = 0; y < m; y++) {
      for (let x = 0; x < m; x++) {
        const u = ((x + 0.5) / m) * 2 - 1;
        const v = ((y + 0.5) / m) * 2 - 1;
        faceDirection(face, u, v, direction);
        texels.set(direction, at);
        texels[at + 3] = data[(y * m + x) * 3]!;
        texels[at + 4] = data[(y * m + x) * 3 + 1]!;
        texels[at + 5] = data[(y * m + x) * 3 + 2]!;
        texels[at + 6] = (1 + u * u + v * v) ** -1.5;
        at += 7;
      }
    }
  }
  const faces: Faces = [];
  for (let face = 0; face < 6; face++) {
    const out = new Float32Array(n * n * 3);
    forEachTexel(face, n, ([x, y, z], index) => {
      let r = 0;
      let g = 0;
      let b = 0;
      let total = 0;
      for (let i = 0; i < texels.length; i += 7) {
        const nDotL = x! * texels[i]! + y! * texels[i + 1]! + z! * texels[i + 2]!;
        if (nDotL <= 0) continue;
        // With V = N, N·H² = (1 + N·L) / 2, so D(H) ∝ 1 / (1 + α² + (α² - 1) N·L)².
        const d = 1 + alpha2 + (alpha2 - 1) * nDotL;
        const weight = (nDotL * texels[i + 6]!) / (d * d);
        r += texels[i + 3]! * weight;
        g += texels[i + 4]! * weight;
        b += texels[i + 5]! * weight;
        total += weight;
      }
      out[index * 3] = r / total;
      out[index * 3 + 1] = g / total;
      out[index * 3 + 2] = b / total;
    });
    faces.push(out);
  }
  return faces;
}

/**
 * The prefiltered mip chain of an equirectangular image, as float RGB faces per level: `size`
 * texels per side at level 0, `samples` GGX samples per texel of the sharp levels.
 */
export function prefilterEquirect(
  image: Equirect,
  { size = FACE_SIZE, samples = GGX_SAMPLES } = {},
): Faces[] {
  const source = new MipCube(size, cubeFromEquirect(image, size));
  const maxLod = pmremLevels(size) - 1;
  const levels: Faces[] = [];
  for (let lod = 0; lod <= maxLod; lod++) {
    const n = size >> lod;
    const roughness = lodToRoughness(lod, maxLod);
    if (lod === 0) {
      // A mirror: the resampled image itself (mirrored as the renderer reads it).
      const faces: Faces = [];
      for (let face = 0; face < 6; face++) {
        const out = new Float32Array(n * n * 3);
        const sum = new Float64Array(3);
        forEachTexel(face, n, ([x, y, z], index) => {
          sum.fill(0);
          source.sample(x!, y!, z!, 0, 1, sum);
          out.set(sum, index * 3);
        });
        faces.push(out);
      }
      levels.push(faces);
    } else if (roughness >= INTEGRATION_ROUGHNESS) {
      levels.push(integratedLevel(source, n, roughness));
    } else {
      levels.push(ggxLevel(source, n, roughness, samples));
    }
  }
  return levels;
}

/** Float RGB levels as the RGB9E5 words of a .pmrem file. */
export function packLevels(size: number, levels: Faces[]): PrefilteredCube {
  return {
    size,
    levels: levels.map((faces) =>
      faces.map((face) => {
        const words = new Uint32Array(face.length / 3);
        for (let i = 0; i < words.length; i++) {
          words[i] = packRgb9e5(face[i * 3]!, face[i * 3 + 1]!, face[i * 3 + 2]!);
        }
        return words;
      }),
    ),
  };
}

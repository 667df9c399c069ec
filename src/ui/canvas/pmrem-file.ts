/**
 * The `.pmrem` file: an environment map prefiltered at build time (scripts/prefilter-environment.ts)
 * into exactly the texture three.js's PMREMGenerator would make of it at run time, so the
 * viewer uploads it as is (environment-lighting.tsx) and the renderer samples it without a
 * prefiltering pass.
 *
 * Layout (little-endian):
 *
 *   offset 0   4 bytes  magic "PMRM"
 *          4   u8       version (1)
 *          5   u8       face size of level 0 in texels (log2: 7 is 128)
 *          6   u8       levels (mip levels; the last is 8x8)
 *          7   u8       0
 *          8   texels   every level (0 first), every face of it in WebGL's order (+X, -X, +Y,
 *                       -Y, +Z, -Z), rows in upload order (t = 0 first): one RGB9E5 word per
 *                       texel (red in bits 0-8, green 9-17, blue 18-26, the shared exponent in
 *                       27-31, as WebGL's UNSIGNED_INT_5_9_9_9_REV), stored as four byte planes
 *                       (every texel's low byte, then every second byte, ...), which gzip and
 *                       brotli compress better than whole words.
 *
 * Level `lod` holds the GGX-filtered radiance for roughness PMREMGenerator.lodToRoughness(lod,
 * levels - 1), linear sRGB. The faces are those of a three.js CubeTexture, which the renderer
 * samples mirrored in x (WebGLMaterials' envMapRotation flip): the texel at cube direction
 * (x, y, z) holds the radiance from world direction (-x, y, z).
 */

const MAGIC = 0x4d524d50; // "PMRM"
const VERSION = 1;
const HEADER_BYTES = 8;

/** The smallest face: PMREMGenerator's LOD_MIN (8x8 texels), kept for the diffuse level. */
export const PMREM_MIN_FACE_SIZE = 8;

/** A prefiltered cube: `levels[lod][face]` holds (size >> lod)² RGB9E5 words. */
export interface PrefilteredCube {
  size: number;
  levels: Uint32Array[][];
}

/** The number of mip levels of a PMREM whose level 0 has `size`² texels per face. */
export function pmremLevels(size: number): number {
  return Math.log2(size / PMREM_MIN_FACE_SIZE) + 1;
}

export function encodePmrem({ size, levels }: PrefilteredCube): Uint8Array {
  const texels = levels.reduce((sum, faces) => sum + 6 * faces[0]!.length, 0);
  const bytes = new Uint8Array(HEADER_BYTES + 4 * texels);
  const header = new DataView(bytes.buffer);
  header.setUint32(0, MAGIC, true);
  header.setUint8(4, VERSION);
  header.setUint8(5, Math.log2(size));
  header.setUint8(6, levels.length);
  let at = 0;
  for (const faces of levels) {
    for (const face of faces) {
      for (const word of face) {
        for (let plane = 0; plane < 4; plane++) {
          bytes[HEADER_BYTES + plane * texels + at] = (word >>> (8 * plane)) & 0xff;
        }
        at++;
      }
    }
  }
  return bytes;
}

export function decodePmrem(buffer: ArrayBuffer): PrefilteredCube {
  const bytes = new Uint8Array(buffer);
  const header = new DataView(buffer);
  if (bytes.length < HEADER_BYTES || header.getUint32(0, true) !== MAGIC) {
    throw new Error('Not a .pmrem file');
  }
  if (header.getUint8(4) !== VERSION) throw new Error('Unknown .pmrem version');
  const size = 2 ** header.getUint8(5);
  const count = header.getUint8(6);
  if (size < PMREM_MIN_FACE_SIZE || count !== pmremLevels(size)) {
    throw new Error('Damaged .pmrem file');
  }
  let texels = 0;
  for (let lod = 0; lod < count; lod++) texels += 6 * (size >> lod) ** 2;
  if (bytes.length !== HEADER_BYTES + 4 * texels) throw new Error('Damaged .pmrem file');
  const [p0, p1, p2, p3] = [0, 1, 2, 3].map((plane) =>
    bytes.subarray(HEADER_BYTES + plane * texels),
  ) as [Uint8Array, Uint8Array, Uint8Array, Uint8Array];
  const levels: Uint32Array[][] = [];
  let at = 0;
  for (let lod = 0; lod < count; lod++) {
    const n = (size >> lod) ** 2;
    const faces: Uint32Array[] = [];
    for (let face = 0; face < 6; face++) {
      const words = new Uint32Array(n);
      for (let i = 0; i < n; i++, at++) {
        words[i] = (p0[at]! | (p1[at]! << 8) | (p2[at]! << 16) | (p3[at]! << 24)) >>> 0;
      }
      faces.push(words);
    }
    levels.push(faces);
  }
  return { size, levels };
}

const MANTISSA_BITS = 9;
const EXPONENT_BIAS = 15;
const MAX_EXPONENT = 31;
/** The largest value RGB9E5 holds: 511/512 * 2^16. */
const RGB9E5_MAX =
  ((2 ** MANTISSA_BITS - 1) / 2 ** MANTISSA_BITS) * 2 ** (MAX_EXPONENT - EXPONENT_BIAS);

/** Linear RGB as one RGB9E5 word (EXT_texture_shared_exponent's conversion, rounded). */
export function packRgb9e5(r: number, g: number, b: number): number {
  const rc = Math.min(Math.max(r, 0), RGB9E5_MAX) || 0;
  const gc = Math.min(Math.max(g, 0), RGB9E5_MAX) || 0;
  const bc = Math.min(Math.max(b, 0), RGB9E5_MAX) || 0;
  const max = Math.max(rc, gc, bc);
  let exponent = Math.max(-EXPONENT_BIAS - 1, Math.floor(Math.log2(max))) + 1 + EXPONENT_BIAS;
  if (
    Math.floor(max / 2 ** (exponent - EXPONENT_BIAS - MANTISSA_BITS) + 0.5) ===
    2 ** MANTISSA_BITS
  ) {
    exponent++;
  }
  const scale = 2 ** (exponent - EXPONENT_BIAS - MANTISSA_BITS);
  const rs = Math.floor(rc / scale + 0.5);
  const gs = Math.floor(gc / scale + 0.5);
  const bs = Math.floor(bc / scale + 0.5);
  return (rs | (gs << 9) | (bs << 18) | (exponent << 27)) >>> 0;
}

/**
 * RGB9E5 words as RGBA half floats (alpha 1), exactly: every RGB9E5 value is a half float too
 * (9 mantissa bits within half's 10; 2^-24 to 65408 within half's range).
 */
export function rgb9e5ToHalfRgba(words: Uint32Array): Uint16Array {
  const out = new Uint16Array(words.length * 4);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const exponent = word >>> 27;
    for (let c = 0; c < 3; c++) {
      const mantissa = (word >>> (9 * c)) & 0x1ff;
      let half = 0;
      if (mantissa !== 0) {
        // value = mantissa * 2^(exponent - 24) = 1.f * 2^(top + exponent - 24)
        const top = 31 - Math.clz32(mantissa);
        const biased = top + exponent - 9;
        half =
          biased >= 1 ? (biased << 10) | ((mantissa << (10 - top)) & 0x3ff) : mantissa << exponent; // subnormal: mantissa * 2^exponent * 2^-24
      }
      out[i * 4 + c] = half;
    }
    out[i * 4 + 3] = 0x3c00;
  }
  return out;
}

/**
 * The linear RGB of an RGB9E5 word.
 * @internal The tests decode what encodePmrem wrote with it.
 */
export function unpackRgb9e5(word: number): [number, number, number] {
  const scale = 2 ** ((word >>> 27) - EXPONENT_BIAS - MANTISSA_BITS);
  return [(word & 0x1ff) * scale, ((word >>> 9) & 0x1ff) * scale, ((word >>> 18) & 0x1ff) * scale];
}

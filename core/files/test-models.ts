/**
 * Test-only: tiny glTF models that declare far more than GLTF_LIMITS allow ("a tiny
 * file that costs gigabytes"), built byte by byte. The unit, server and end-to-end tests share
 * them, with the reason each is refused for.
 */
import { concat } from './bytes';
import { ihdrChunk, pngChunk, pngFile } from './png-writer';

const encoder = new TextEncoder();

/** `bytes` padded with `fill` to a multiple of 4, as GLB chunks must be. */
function padded(bytes: Uint8Array, fill: number): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.length / 4) * 4).fill(fill);
  out.set(bytes);
  return out;
}

function chunk(type: number, body: Uint8Array): Uint8Array {
  const header = new DataView(new ArrayBuffer(8));
  header.setUint32(0, body.length, true);
  header.setUint32(4, type, true);
  return concat([new Uint8Array(header.buffer), body]);
}

/** A GLB of `json` and, when given, a BIN chunk. */
export function glbFile(json: unknown, bin?: Uint8Array): Uint8Array<ArrayBuffer> {
  const chunks = [chunk(0x4e4f534a, padded(encoder.encode(JSON.stringify(json)), 0x20))];
  if (bin) chunks.push(chunk(0x004e4942, padded(bin, 0)));
  const body = concat(chunks);
  const header = new DataView(new ArrayBuffer(12));
  header.setUint32(0, 0x46546c67, true);
  header.setUint32(4, 2, true);
  header.setUint32(8, 12 + body.length, true);
  return concat([new Uint8Array(header.buffer), body]);
}

const asset = { version: '2.0' };

/**
 * One triangle mesh whose POSITION is a sparse accessor of `count` vertices without a buffer
 * view: a loader allocates count × 12 bytes of zeros, then writes the one sparse vertex.
 */
export function sparseVerticesJson(count: number) {
  return {
    asset,
    buffers: [{ byteLength: 16 }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 4 },
      { buffer: 0, byteOffset: 4, byteLength: 12 },
    ],
    accessors: [
      {
        componentType: 5126,
        type: 'VEC3',
        count,
        max: [1, 1, 1],
        min: [0, 0, 0],
        sparse: {
          count: 1,
          indices: { bufferView: 0, componentType: 5125 },
          values: { bufferView: 1 },
        },
      },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
    scene: 0,
  };
}

/** The BIN chunk of sparseVerticesJson: index 0 (a u32 0 is a float 0), value (1, 1, 1). */
const SPARSE_BIN = new Uint8Array(new Float32Array([0, 1, 1, 1]).buffer);

/** A PNG header claiming `width` × `height` (IHDR, an empty IDAT, IEND): 57 bytes. */
export const pngHeaderOnly = (width: number, height: number) =>
  pngFile([
    ihdrChunk({ width, height, bitDepth: 8, colorType: 6 }),
    pngChunk('IDAT'),
    pngChunk('IEND'),
  ]);

function textureModel(image: Uint8Array) {
  return glbFile(
    {
      asset,
      buffers: [{ byteLength: padded(image, 0).length }],
      bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: image.length }],
      images: [{ bufferView: 0, mimeType: 'image/png' }],
      textures: [{ source: 0 }],
      materials: [{ pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }],
    },
    image,
  );
}

/** Tiny models over a limit, each with the reason the limits check gives. */
export const OVERSIZED_MODELS = {
  sparseVertices: {
    glb: () => glbFile(sparseVerticesJson(50_000_000), SPARSE_BIN),
    reason: 'declares 50,000,000 vertices; at most 1,000,000 are allowed',
  },
  manyNodes: {
    glb: () =>
      glbFile({
        asset,
        nodes: Array.from({ length: 100_000 }, () => ({})),
        scenes: [{ nodes: [0] }],
      }),
    reason: 'declares 100,000 nodes; at most 5,000 are allowed',
  },
  hugeTexture: {
    glb: () => textureModel(pngHeaderOnly(30_000, 30_000)),
    reason:
      'declares 900,000,000 pixels in image 0 (30,000 × 30,000); at most 67,108,864 are allowed',
  },
  bytesOverFile: {
    // Three unused accessors of 900,000 four-float elements: 43.2 MB declared, no data.
    glb: () =>
      glbFile({
        asset,
        accessors: Array.from({ length: 3 }, () => ({
          componentType: 5126,
          type: 'VEC4',
          count: 900_000,
        })),
      }),
    reason:
      /^declares 43,200,000 bytes of accessor data in a file of \d{3} bytes; at most 1,048,576 are allowed$/,
  },
} as const;

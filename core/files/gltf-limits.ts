/**
 * What a glTF model may declare. A few hundred bytes of JSON can declare tens of
 * millions of vertices: an accessor's `count` is what a loader allocates (a sparse accessor
 * without a buffer view is `count` × element size of zeros), so every reader of untrusted models
 * (the upload control, the server's upload check, the morph, the viewer) checks the
 * declarations here, from the JSON and the embedded images' headers alone, before any loader
 * allocates anything. Works on a GLB or a glTF JSON file; anything else declares nothing.
 *
 * No real avatar comes near a limit: each is at least 10 times the largest figure of the
 * fixture avatars (../shared/fixtures/avatars: Ready Player Me bodies, half bodies, animations,
 * Draco and WebP variants), which is written beside it.
 */
import { readBytes, type ByteSource } from './bytes';
import { readGlbLayout, type GlbLayout } from './glb';
import { readImageHeader } from './image-header';
import { MB } from './rules';
import type { FileError } from './file-error';

export const GLTF_LIMITS = {
  /** Bytes of the JSON (the GLB's JSON chunk, or the .gltf file). Fixtures: 267,820. */
  jsonBytes: 4 * MB,
  /** Elements of one accessor (and of its sparse part). Fixtures: 19,614. */
  accessorElements: 1_000_000,
  /** Bytes of all accessors (and meshopt-decoded buffer views) as loaded. Fixtures: 1,485,432. */
  accessorBytes: 128 * MB,
  /**
   * Accessor bytes per byte of the file (file-to-declared-size ratio); a file may always declare
   * up to ACCESSOR_BYTES_FLOOR. Fixtures: 0.92 (maleIdle 456,440 in 505,192; Draco 0.34).
   */
  accessorBytesPerFileByte: 16,
  /** Vertices drawn: POSITION counts of every primitive, once per node showing it. Fixtures: 22,216. */
  vertices: 1_000_000,
  /** Mesh primitives (draw calls of one copy of each mesh). Fixtures: 12. */
  primitives: 1_000,
  /** Meshes. Fixtures: 12. */
  meshes: 1_000,
  /** Nodes (skeleton bones included). Fixtures: 84. */
  nodes: 5_000,
  /** Animations. Fixtures: 18 (halfBodyAPIv2). */
  animations: 256,
  /** Animation samplers of all animations. Fixtures: 2,052. */
  animationSamplers: 32_768,
  /** Keyframes: input counts of all samplers. Fixtures: 81,624. */
  keyframes: 2_000_000,
  /** Images. Fixtures: 23. */
  images: 256,
  /** Pixels of one image (8192 × 8192). Fixtures: 4,194,304 (2048 × 2048). */
  imagePixels: 8192 * 8192,
  /** Pixels of all images. Fixtures: 14,811,136 (male-emissive). */
  texturePixels: 150_000_000,
} as const;

/** Figures a model is checked against: GLTF_LIMITS, or stricter ones (the delivery derivation's). */
export type ModelLimits = { readonly [K in keyof typeof GLTF_LIMITS]: number };

/** Accessor bytes any file may declare, however small (a 1 KB test model of 1 MB is harmless). */
export const ACCESSOR_BYTES_FLOOR = MB;

export type GltfLimit = keyof typeof GLTF_LIMITS | 'structure' | 'image';

/** A model over one of GLTF_LIMITS; `message` says which and by how much. */
export class GltfLimitError extends Error {
  constructor(
    readonly limit: GltfLimit,
    /** The message without its subject, e.g. "declares 5,000 nodes; at most 1,000 are allowed". */
    readonly reason: string,
  ) {
    super(`The model ${reason}`);
    this.name = 'GltfLimitError';
  }
}

const format = (value: number) => value.toLocaleString('en-US');

function over(limit: GltfLimit, actual: number, max: number, what: string): never {
  throw new GltfLimitError(
    limit,
    `declares ${format(actual)} ${what}; at most ${format(max)} are allowed`,
  );
}

function atMost(limits: ModelLimits, limit: keyof ModelLimits, actual: number, what: string) {
  if (actual > limits[limit]) over(limit, actual, limits[limit], what);
}

/** The upload control's error for a model over a limit (fileInput.modelOverLimit). */
export const modelOverLimit = (error: GltfLimitError): FileError => ({
  key: 'fileInput.modelOverLimit',
  values: { model: error.reason },
});

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A number as loaders read it (`count * itemSize` coerces strings); what they cannot allocate
 * (NaN, negative, infinite: a RangeError, not memory) counts as 0.
 */
function amount(value: unknown): number {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : 0;
}

/**
 * The items of a collection. Loaders loop to a collection's `length`, so anything but an array
 * (e.g. `{ "length": 1e9 }`) is refused rather than counted as empty.
 */
function list(owner: unknown, name: string): unknown[] {
  const value = isObject(owner) ? owner[name] : undefined;
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new GltfLimitError('structure', `declares "${name}" that is not a list`);
  }
  return value;
}

const field = (owner: unknown, name: string): unknown =>
  isObject(owner) ? owner[name] : undefined;

const COMPONENT_BYTES: Record<string, number> = {
  5120: 1,
  5121: 1,
  5122: 2,
  5123: 2,
  5125: 4,
  5126: 4,
};
const TYPE_COMPONENTS: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};

/** Bytes of one element; unknown types count as the largest (MAT4 of 4-byte components). */
function elementBytes(accessor: unknown): number {
  const component = COMPONENT_BYTES[String(field(accessor, 'componentType'))] ?? 4;
  return component * (TYPE_COMPONENTS[String(field(accessor, 'type'))] ?? 16);
}

/** Accessors: elements each, then bytes in all, absolutely and per byte of the file. */
function checkAccessors(json: JsonObject, fileBytes: number, limits: ModelLimits) {
  let bytes = 0;
  list(json, 'accessors').forEach((accessor, index) => {
    const count = amount(field(accessor, 'count'));
    atMost(limits, 'accessorElements', count, `elements in accessor ${index}`);
    const sparse = amount(field(field(accessor, 'sparse'), 'count'));
    atMost(limits, 'accessorElements', sparse, `sparse elements in accessor ${index}`);
    bytes += count * elementBytes(accessor);
  });
  list(json, 'bufferViews').forEach((bufferView, index) => {
    // EXT_meshopt_compression decodes into a buffer of count × byteStride.
    const meshopt = field(field(bufferView, 'extensions'), 'EXT_meshopt_compression');
    if (meshopt === undefined) return;
    const count = amount(field(meshopt, 'count'));
    atMost(limits, 'accessorElements', count, `elements in buffer view ${index}`);
    bytes += count * amount(field(meshopt, 'byteStride'));
  });
  atMost(limits, 'accessorBytes', bytes, 'bytes of accessor data');
  const allowed = Math.max(ACCESSOR_BYTES_FLOOR, fileBytes * limits.accessorBytesPerFileByte);
  if (bytes > allowed) {
    over(
      'accessorBytesPerFileByte',
      bytes,
      allowed,
      `bytes of accessor data in a file of ${format(fileBytes)} bytes`,
    );
  }
}

/** Meshes, primitives and the vertices drawn (a mesh shown by several nodes is drawn by each). */
function checkMeshes(json: JsonObject, limits: ModelLimits) {
  const accessors = list(json, 'accessors');
  const meshes = list(json, 'meshes');
  atMost(limits, 'meshes', meshes.length, 'meshes');
  const nodes = list(json, 'nodes');
  atMost(limits, 'nodes', nodes.length, 'nodes');
  const shownBy = new Map<number, number>();
  for (const node of nodes) {
    const mesh = Number(field(node, 'mesh'));
    if (Number.isInteger(mesh)) shownBy.set(mesh, (shownBy.get(mesh) ?? 0) + 1);
  }
  let primitives = 0;
  let vertices = 0;
  meshes.forEach((mesh, index) => {
    const meshPrimitives = list(mesh, 'primitives');
    primitives += meshPrimitives.length;
    const meshVertices = meshPrimitives.reduce<number>((sum, primitive) => {
      const position = Number(field(field(primitive, 'attributes'), 'POSITION'));
      return sum + amount(field(accessors[position], 'count'));
    }, 0);
    vertices += meshVertices * Math.max(1, shownBy.get(index) ?? 0);
  });
  atMost(limits, 'primitives', primitives, 'mesh primitives');
  atMost(limits, 'vertices', vertices, 'vertices');
}

function checkAnimations(json: JsonObject, limits: ModelLimits) {
  const accessors = list(json, 'accessors');
  const animations = list(json, 'animations');
  atMost(limits, 'animations', animations.length, 'animations');
  let samplers = 0;
  let keyframes = 0;
  for (const animation of animations) {
    const animationSamplers = list(animation, 'samplers');
    list(animation, 'channels');
    samplers += animationSamplers.length;
    for (const sampler of animationSamplers) {
      keyframes += amount(field(accessors[Number(field(sampler, 'input'))], 'count'));
    }
  }
  atMost(limits, 'animationSamplers', samplers, 'animation samplers');
  atMost(limits, 'keyframes', keyframes, 'animation keyframes');
}

/** A range of a file as a file of its own. */
function part(file: ByteSource, start: number, length: number): ByteSource {
  const size = Math.max(0, Math.min(length, file.size - start));
  return {
    size,
    slice: (from = 0, to = size) =>
      file.slice(start + Math.min(from, size), start + Math.min(to, size)),
  };
}

/** The bytes of a `data:` URI; undefined for any other address. */
function dataUriBytes(uri: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof uri !== 'string') return undefined;
  const match = /^data:[^,]*?(;base64)?,/i.exec(uri);
  if (!match) return undefined;
  const body = uri.slice(match[0].length);
  try {
    const text = match[1] ? atob(body) : decodeURIComponent(body);
    return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
  } catch {
    return new Uint8Array(0);
  }
}

/** A file over the given bytes. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    slice: (start, end) => ({
      arrayBuffer: () => Promise.resolve(bytes.slice(start, end).buffer),
    }),
  };
}

/** Width and height of a WebP (VP8, VP8L or VP8X) from its first 30 bytes. */
function webpSize(head: Uint8Array): { width: number; height: number } | undefined {
  const text = (at: number) => String.fromCharCode(...head.subarray(at, at + 4));
  if (head.length < 30 || text(0) !== 'RIFF' || text(8) !== 'WEBP') return undefined;
  const u16 = (at: number) => head[at]! | (head[at + 1]! << 8);
  const u24 = (at: number) => u16(at) | (head[at + 2]! << 16);
  switch (text(12)) {
    case 'VP8 ':
      return { width: u16(26) & 0x3fff, height: u16(28) & 0x3fff };
    case 'VP8L': {
      const bits = u16(21) | (u16(23) << 16);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      return { width: u24(24) + 1, height: u24(27) + 1 };
    default:
      return undefined;
  }
}

const RIFF = [0x52, 0x49, 0x46, 0x46];

/** An image's size from its header: PNG, JPEG and WebP; otherwise why it cannot be read. */
async function imageSize(image: ByteSource): Promise<{ width: number; height: number } | string> {
  const head = await readBytes(image, 0, 30);
  if (RIFF.every((byte, i) => head[i] === byte)) {
    return webpSize(head) ?? 'a damaged WebP header';
  }
  const result = await readImageHeader(image);
  if (!result.ok) {
    return result.error.key === 'fileInput.wrongType'
      ? 'not PNG, JPEG or WebP'
      : (result.error.detail ?? 'a damaged header');
  }
  return result.header;
}

/**
 * The bytes of image `index`: a range of the GLB's BIN chunk, or a data URI (of the image or
 * its buffer). An address outside the file cannot be measured before a loader fetches it.
 */
function imageBytes(
  json: JsonObject,
  image: unknown,
  file: ByteSource,
  layout: GlbLayout | undefined,
): ByteSource | string {
  const bufferViewIndex = field(image, 'bufferView');
  if (bufferViewIndex === undefined) {
    const bytes = dataUriBytes(field(image, 'uri'));
    return bytes ? bytesSource(bytes) : 'it is outside the file';
  }
  const bufferView = list(json, 'bufferViews')[Number(bufferViewIndex)];
  const bufferIndex = Number(field(bufferView, 'buffer'));
  const buffer = list(json, 'buffers')[bufferIndex];
  const offset = amount(field(bufferView, 'byteOffset'));
  const length = amount(field(bufferView, 'byteLength'));
  const uri = field(buffer, 'uri');
  if (uri === undefined && bufferIndex === 0 && layout?.bin) {
    return part(part(file, layout.bin.start, layout.bin.length), offset, length);
  }
  const bytes = dataUriBytes(uri);
  return bytes ? part(bytesSource(bytes), offset, length) : 'its buffer is outside the file';
}

/** Images: how many, then each one's pixels and all of them, read from their headers. */
async function checkImages(
  json: JsonObject,
  file: ByteSource,
  layout: GlbLayout | undefined,
  limits: ModelLimits,
) {
  const images = list(json, 'images');
  atMost(limits, 'images', images.length, 'images');
  let pixels = 0;
  for (const [index, image] of images.entries()) {
    const bytes = imageBytes(json, image, file, layout);
    const size = typeof bytes === 'string' ? bytes : await imageSize(bytes);
    if (typeof size === 'string') {
      throw new GltfLimitError(
        'image',
        `has image ${index} whose size cannot be read before loading (${size}); ` +
          'only PNG, JPEG and WebP images inside the file can be checked',
      );
    }
    const imagePixels = size.width * size.height;
    atMost(
      limits,
      'imagePixels',
      imagePixels,
      `pixels in image ${index} (${format(size.width)} × ${format(size.height)})`,
    );
    pixels += imagePixels;
  }
  atMost(limits, 'texturePixels', pixels, 'texture pixels');
}

/** What a model's JSON declares, checked against `limits` (images last: they are read). */
async function checkDeclarations(
  json: unknown,
  file: ByteSource,
  layout: GlbLayout | undefined,
  limits: ModelLimits,
): Promise<void> {
  if (!isObject(json)) return;
  checkMeshes(json, limits);
  checkAnimations(json, limits);
  // Buffers a .gltf names by address come with it; their declared size counts as file bytes.
  const external = list(json, 'buffers').reduce<number>((sum, buffer) => {
    const uri = field(buffer, 'uri');
    return typeof uri === 'string' && !uri.startsWith('data:')
      ? sum + amount(field(buffer, 'byteLength'))
      : sum;
  }, 0);
  checkAccessors(json, file.size + external, limits);
  await checkImages(json, file, layout, limits);
}

const GLTF_MAGIC = [0x67, 0x6c, 0x54, 0x46]; // "glTF"

/** The model's JSON (a GLB's JSON chunk, or a glTF file); null when it is neither or does not parse. */
async function readModelJson(
  file: ByteSource,
  limits: ModelLimits,
): Promise<{ json: unknown; layout: GlbLayout | undefined } | null> {
  const head = await readBytes(file, 0, 4);
  const glb = GLTF_MAGIC.every((byte, i) => head[i] === byte);
  const layout = glb ? await readGlbLayout(file) : undefined;
  const range = layout?.json ?? { start: 0, length: file.size };
  if (!glb && !/^(\uFEFF|\s)*(\{|$)/.test(new TextDecoder().decode(head))) return null;
  atMost(limits, 'jsonBytes', range.length, 'bytes of JSON');
  const text = new TextDecoder().decode(
    await readBytes(file, range.start, range.start + range.length),
  );
  try {
    return { json: JSON.parse(text) as unknown, layout };
  } catch {
    return null;
  }
}

/**
 * Null when the model in `file` (a GLB, or glTF JSON) declares no more than `limits` allow;
 * else the first limit it passes. Reads the JSON and the embedded images' headers, never the
 * meshes. A file that is neither, or whose JSON does not parse, declares nothing: its loader or
 * validator reports what is wrong with it. A GLB must have passed checkGlbHeader.
 */
export async function checkModelLimits(
  file: ByteSource,
  limits: ModelLimits = GLTF_LIMITS,
): Promise<GltfLimitError | null> {
  try {
    const model = await readModelJson(file, limits);
    if (model) await checkDeclarations(model.json, file, model.layout, limits);
    return null;
  } catch (error) {
    if (error instanceof GltfLimitError) return error;
    throw error;
  }
}

/**
 * Whether the model draws nothing: no node shows a mesh with a primitive (an animation clip,
 * a bare skeleton). A file whose JSON cannot be read is not judged here (its loader or
 * validator says what is wrong). Call it on a model within GLTF_LIMITS.
 */
export async function hasNoGeometry(file: ByteSource): Promise<boolean> {
  try {
    const model = await readModelJson(file, GLTF_LIMITS);
    if (!model || !isObject(model.json)) return false;
    const meshes = list(model.json, 'meshes');
    return !list(model.json, 'nodes').some((node) => {
      const mesh = Number(field(node, 'mesh'));
      return Number.isInteger(mesh) && list(meshes[mesh], 'primitives').length > 0;
    });
  } catch (error) {
    if (error instanceof GltfLimitError) return false;
    throw error;
  }
}

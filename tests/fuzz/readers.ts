/**
 * Property-based fuzzing (fast-check) of every reader of untrusted input: the PNG, JPEG, PSD and
 * GLB readers of uploads, the GLB JSON reader of the viewer, the /embed message and address
 * parsers, and the list query parsers of the client and the server. Each target pairs inputs
 * that reach deep (real files with bytes flipped, cut, spliced and length fields overwritten,
 * plus valid-looking structures with random fields) with the outcomes its reader may have: a
 * result or one of its typed errors. Anything else (an exception, an error value that stands
 * for one, a case over CASE_LIMIT_MS) is a bug.
 *
 * Used by tests/fuzz/readers.test.ts (a few hundred cases each, FUZZ_RUNS) and bench/fuzz.ts
 * (100,000 each).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { z } from 'zod/mini';
import { assetListSpec } from '../../server/asset-store';
import { embedPreloadLinks } from '../../server/embed-preload';
import { filterFromJson, parseListQuery } from '../../server/list';
import { defineList, parseListSearch } from '../../src/api/list-url';
import { decodeOrder } from '../../contract/list-query';
import { crc32 } from '../../core/files/crc32';
import { checkGlbHeader } from '../../core/files/glb';
import { readImageHeader } from '../../core/files/image-header';
import { checkPngIntegrity } from '../../core/files/png-integrity';
import { ihdrChunk, pngChunk, pngFile } from '../../core/files/png-writer';
import { checkPsdHeader } from '../../core/files/psd';
import { UPLOAD_RULES } from '../../core/files/rules';
import { validateFileContent, type FileError, type FileErrorKey } from '../../core/files/validate';
import { parseAllowedOrigins, parseRequest } from '../../src/routes/-embed/messages';
import { readSearch } from '../../src/routes/-embed/options';
import { glbExtensionsUsed } from '../../src/ui/canvas/decoders';

/** The most one case may take, in milliseconds. */
export const CASE_LIMIT_MS = 50;

export interface FuzzTarget<T> {
  name: string;
  inputs: fc.Arbitrary<T>;
  /** Runs the reader on `input`; throws when the outcome is not one the reader may have. */
  check: (input: T) => Promise<void>;
}

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures');
const fixture = (folder: string, name: string) =>
  new Uint8Array(readFileSync(join(FIXTURES, folder, name)));

// ---------------------------------------------------------------------------------------------
// Byte mutations

type Mutation =
  | { kind: 'flip'; at: Position; bit: number }
  | { kind: 'byte'; at: Position; value: number }
  | { kind: 'u32'; at: Position; value: number; littleEndian: boolean }
  | { kind: 'truncate'; at: Position }
  | { kind: 'splice'; at: Position; remove: number; insert: Uint8Array }
  | { kind: 'repeat'; at: Position; length: number };

/** Values that break length arithmetic: zero, the limits, and the file's size near them. */
const INTEREST = [0, 1, 7, 8, 12, 13, 0x7fffffff, 0x80000000, 0xfffffff8, 0xffffffff];

/**
 * Positions are fractions of the file (or of a list of field offsets), so one arbitrary
 * serves every base; most mutations land in the first 4 KiB, where the headers are.
 */
const position = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 4095 }).map((n) => ({ head: n })) },
  {
    weight: 1,
    arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((f) => ({ fraction: f })),
  },
  { weight: 3, arbitrary: fc.nat().map((n) => ({ field: n })) },
);
type Position = { head: number } | { fraction: number } | { field: number };

const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('flip' as const),
    at: position,
    bit: fc.integer({ min: 0, max: 7 }),
  }),
  fc.record({
    kind: fc.constant('byte' as const),
    at: position,
    value: fc.integer({ min: 0, max: 255 }),
  }),
  fc.record({
    kind: fc.constant('u32' as const),
    at: position,
    value: fc.oneof(fc.constantFrom(...INTEREST), fc.integer({ min: -64, max: 64 }), fc.nat()),
    littleEndian: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: position }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: position,
    remove: fc.integer({ min: 0, max: 64 }),
    insert: fc.uint8Array({ maxLength: 64 }),
  }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at: position,
    length: fc.integer({ min: 1, max: 512 }),
  }),
);

/** A real file and the offsets of its length fields (PNG chunk lengths, GLB lengths, …). */
interface Base {
  name: string;
  bytes: Uint8Array;
  fields: number[];
}

function place(at: Position, base: Base, length: number): number {
  const offset =
    'head' in at
      ? at.head
      : 'fraction' in at
        ? Math.floor(at.fraction * length)
        : (base.fields[at.field % Math.max(1, base.fields.length)] ?? 0);
  return Math.min(offset, length);
}

/** `base` with `mutations` applied in turn (a u32 value near 0 is taken relative to the size). */
function mutate(base: Base, mutations: Mutation[]): Uint8Array {
  let bytes = base.bytes.slice();
  for (const m of mutations) {
    const at = place(m.at, base, bytes.length);
    switch (m.kind) {
      case 'flip':
        if (at < bytes.length) bytes[at]! ^= 1 << m.bit;
        break;
      case 'byte':
        if (at < bytes.length) bytes[at] = m.value;
        break;
      case 'u32': {
        const { value, littleEndian } = m;
        const written = value >= -64 && value <= 64 ? bytes.length + value : value;
        if (at + 4 <= bytes.length) {
          new DataView(bytes.buffer).setUint32(at, written >>> 0, littleEndian);
        }
        break;
      }
      case 'truncate':
        bytes = bytes.slice(0, at);
        break;
      case 'splice': {
        const { remove, insert } = m;
        const out = new Uint8Array(
          bytes.length - Math.min(remove, bytes.length - at) + insert.length,
        );
        out.set(bytes.subarray(0, at));
        out.set(insert, at);
        out.set(bytes.subarray(Math.min(bytes.length, at + remove)), at + insert.length);
        bytes = out;
        break;
      }
      case 'repeat': {
        const part = bytes.subarray(at, at + m.length);
        const out = new Uint8Array(bytes.length + part.length);
        out.set(bytes.subarray(0, at + part.length));
        out.set(part, at + part.length);
        out.set(bytes.subarray(at + part.length), at + 2 * part.length);
        bytes = out;
        break;
      }
    }
  }
  return bytes;
}

/**
 * Mutated copies of `bases`; half of them then get `repair` (checksums and declared sizes made
 * right again), so the damage gets past the first consistency check to the code behind it.
 */
const mutated = (bases: Base[], repair: (bytes: Uint8Array) => Uint8Array = (bytes) => bytes) =>
  fc
    .tuple(
      fc.constantFrom(...bases),
      fc.array(mutation, { minLength: 1, maxLength: 4 }),
      fc.boolean(),
    )
    .map(([base, mutations, repaired]) => {
      const bytes = mutate(base, mutations);
      return repaired ? repair(bytes) : bytes;
    });

/** Every whole PNG chunk gets its right CRC. */
function repairPng(bytes: Uint8Array): Uint8Array {
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8; at + 12 <= bytes.length;) {
    const end = at + 8 + data.getUint32(at);
    if (end + 4 > bytes.length) break;
    data.setUint32(end, crc32(bytes, at + 4, end));
    at = end + 4;
  }
  return bytes;
}

/** The GLB header's length is the file's. */
function repairGlb(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 12) new DataView(bytes.buffer).setUint32(8, bytes.length, true);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Bases: real files and valid-looking structures

/** The offsets of every PNG chunk's length and, after it, its type. */
function pngFields(bytes: Uint8Array): number[] {
  const fields: number[] = [];
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8; at + 8 <= bytes.length && fields.length < 64;) {
    fields.push(at, at + 8, at + 12, at + 16);
    at += 12 + data.getUint32(at);
  }
  return fields;
}

/** The offsets of every JPEG segment's length, up to the scan. */
function jpegFields(bytes: Uint8Array): number[] {
  const fields: number[] = [];
  for (let at = 2; at + 4 <= bytes.length && fields.length < 64;) {
    fields.push(at + 2, at + 5, at + 7);
    if (bytes[at + 1] === 0xda) break;
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  }
  return fields;
}

const glbFields = (bytes: Uint8Array) => {
  const jsonEnd = 20 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  return [8, 12, 16, jsonEnd, jsonEnd + 4];
};

const PNG_BASES: Base[] = readdirSync(join(FIXTURES, 'pngsuite'))
  .filter((name) => name.endsWith('.png'))
  .map((name) => {
    const bytes = fixture('pngsuite', name);
    return { name, bytes, fields: pngFields(bytes) };
  });

/** A small JPEG: SOI, JFIF APP0, an ICC_PROFILE APP2, a SOFn frame header, SOS, EOI. */
function jpegBytes(width: number, height: number, components: number, sof: number): Uint8Array {
  const segment = (marker: number, body: number[]) => [
    0xff,
    marker,
    (body.length + 2) >> 8,
    (body.length + 2) & 0xff,
    ...body,
  ];
  const text = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
  const frame = [8, height >> 8, height & 0xff, width >> 8, width & 0xff, components];
  for (let i = 0; i < components; i++) frame.push(i + 1, 0x11, 0);
  const profile = new Array<number>(160).fill(0);
  profile.splice(36, 4, ...text('acsp'));
  return Uint8Array.from([
    0xff,
    0xd8,
    ...segment(0xe0, [...text('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xe2, [...text('ICC_PROFILE\0'), 1, 1, ...profile]),
    ...segment(sof, frame),
    ...segment(0xda, [1, 1, 0, 0, 63, 0]),
    0x12,
    0x34,
    0xff,
    0xd9,
  ]);
}

const JPEG_BASES: Base[] = [
  [64, 64, 3, 0xc0],
  [4000, 3000, 3, 0xc2],
  [1, 1, 1, 0xc0],
  [256, 256, 4, 0xc1],
].map(([w, h, c, sof]) => {
  const bytes = jpegBytes(w!, h!, c!, sof!);
  return { name: `${w}x${h}.jpg`, bytes, fields: jpegFields(bytes) };
});

/** A PSD header (26 bytes) and a little of what follows. */
function psdBytes(fields: {
  version: number;
  channels: number;
  height: number;
  width: number;
  depth: number;
  mode: number;
}): Uint8Array {
  const bytes = new Uint8Array(64);
  const data = new DataView(bytes.buffer);
  bytes.set([0x38, 0x42, 0x50, 0x53]);
  data.setUint16(4, fields.version);
  data.setUint16(12, fields.channels);
  data.setUint32(14, fields.height);
  data.setUint32(18, fields.width);
  data.setUint16(22, fields.depth);
  data.setUint16(24, fields.mode);
  return bytes;
}

const PSD_BASE: Base = {
  name: 'psd',
  bytes: psdBytes({ version: 1, channels: 3, height: 512, width: 512, depth: 8, mode: 3 }),
  fields: [4, 12, 14, 18, 22],
};

/** A GLB of `json` (text, padded) and a BIN chunk of `bin` bytes. */
function glbBytes(json: string, bin: number): Uint8Array {
  const text = new TextEncoder().encode(json);
  const jsonLength = Math.ceil(text.length / 4) * 4;
  const total = 12 + 8 + jsonLength + (bin > 0 ? 8 + bin : 0);
  const bytes = new Uint8Array(total).fill(0x20, 20, 20 + jsonLength);
  const data = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('glTF'));
  data.setUint32(4, 2, true);
  data.setUint32(8, total, true);
  data.setUint32(12, jsonLength, true);
  data.setUint32(16, 0x4e4f534a, true);
  bytes.set(text, 20);
  if (bin > 0) {
    data.setUint32(20 + jsonLength, bin, true);
    data.setUint32(24 + jsonLength, 0x004e4942, true);
  }
  return bytes;
}

const GLB_BASES: Base[] = ['spawn-effect.glb', 'maleIdle.glb'].map((name) => {
  const bytes = fixture('avatars', name);
  return { name, bytes, fields: glbFields(bytes) };
});

/** glTF JSON that looks like a model: random values where a model has its fields. */
const gltfJson = fc
  .record(
    {
      asset: fc.record({ version: fc.oneof(fc.constant('2.0'), fc.string()) }),
      extensionsUsed: fc.oneof(
        fc.array(fc.constantFrom('KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'x')),
        fc.jsonValue(),
      ),
      buffers: fc.array(fc.record({ byteLength: fc.oneof(fc.nat(), fc.jsonValue()) })),
      meshes: fc.array(fc.jsonValue(), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));

const glbStructures = fc
  .tuple(
    fc.oneof(gltfJson, fc.json(), fc.string({ unit: 'binary', maxLength: 200 })),
    fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 256 })),
  )
  .map(([json, bin]) => glbBytes(json, bin));

/** PNGs built chunk by chunk: an IHDR of random fields, then random known and unknown chunks. */
const pngStructures = fc
  .tuple(
    fc.record({
      width: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constantFrom(...INTEREST)),
      height: fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.constantFrom(...INTEREST)),
      bitDepth: fc.constantFrom(0, 1, 2, 4, 8, 16, 3, 255),
      colorType: fc.constantFrom(0, 1, 2, 3, 4, 6, 7, 255),
      interlace: fc.constantFrom(0 as const, 1 as const),
    }),
    fc.array(
      fc.tuple(
        fc.constantFrom('iCCP', 'sRGB', 'gAMA', 'PLTE', 'tRNS', 'IDAT', 'IEND', 'zzZz', 'IHDR'),
        fc.uint8Array({ maxLength: 300 }),
      ),
      { maxLength: 6 },
    ),
  )
  .map(([ihdr, chunks]) =>
    pngFile([
      ihdrChunk({ ...ihdr, width: ihdr.width >>> 0, height: ihdr.height >>> 0 }),
      ...chunks.map(([type, data]) => pngChunk(type, data)),
    ]),
  );

const psdStructures = fc
  .record({
    version: fc.constantFrom(0, 1, 2, 3, 0xffff),
    channels: fc.integer({ min: 0, max: 0xffff }),
    height: fc.oneof(fc.integer({ min: 0, max: 400_000 }), fc.constantFrom(...INTEREST)),
    width: fc.oneof(fc.integer({ min: 0, max: 400_000 }), fc.constantFrom(...INTEREST)),
    depth: fc.constantFrom(0, 1, 8, 16, 32, 64, 0xffff),
    mode: fc.integer({ min: 0, max: 12 }),
  })
  .map((fields) => psdBytes({ ...fields, height: fields.height >>> 0, width: fields.width >>> 0 }));

const jpegStructures = fc
  .tuple(
    fc.integer({ min: 0, max: 0xffff }),
    fc.integer({ min: 0, max: 0xffff }),
    fc.integer({ min: 0, max: 8 }),
    fc.constantFrom(0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc8, 0xcc, 0xcf, 0xda, 0xd9),
  )
  .map(([w, h, c, sof]) => jpegBytes(w, h, c, sof));

// ---------------------------------------------------------------------------------------------
// Outcomes

// Every key the type names (the compiler asks for a new one here), so a key outside it is a bug.
const FILE_ERROR_KEYS: Record<FileErrorKey, true> = {
  'fileInput.imageSizeTooLarge': true,
  'fileInput.wrongColorType': true,
  'fileInput.wrongBitDepth': true,
  'fileInput.wrongColorSpace': true,
  'fileInput.corrupt': true,
  'fileInput.wrongType': true,
  'fileInput.wrongContent': true,
  'fileInput.tooLarge': true,
  'fileInput.tooSmall': true,
  'fileInput.notGlb': true,
  'fileInput.modelOverLimit': true,
  'fileInput.noMesh': true,
};

/**
 * A FileError the reader meant. "The file could not be read" is what a reader returns for an
 * exception it caught; an in-memory Blob always reads, so here it stands for a bug.
 */
function expectFileError(error: FileError | null): void {
  if (error === null) return;
  if (!Object.hasOwn(FILE_ERROR_KEYS, error.key)) throw new Error(`Unknown error key ${error.key}`);
  if (error.detail?.startsWith('The file could not be read')) {
    throw new Error(`The reader threw: ${error.detail}`);
  }
}

const blob = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

/** The image readers, PNG checksums and the whole upload check on one file. */
async function checkImage(bytes: Uint8Array): Promise<void> {
  const file = blob(bytes);
  const header = await readImageHeader(file);
  if (header.ok !== true && header.ok !== false) throw new Error('readImageHeader: no result');
  if (!header.ok) expectFileError(header.error);
  expectFileError(await checkPngIntegrity(file));
  expectFileError(await validateFileContent(file, UPLOAD_RULES.texture));
}

async function checkGlb(bytes: Uint8Array): Promise<void> {
  const file = blob(bytes);
  expectFileError(await checkGlbHeader(file));
  expectFileError(await validateFileContent(file, UPLOAD_RULES.model));
  // Every input is a fresh array of its own buffer: no copy of a half-megabyte model per case.
  const extensions = glbExtensionsUsed(bytes.buffer as ArrayBuffer);
  if (!extensions.every((e) => typeof e === 'string')) throw new Error('glbExtensionsUsed');
}

async function checkPsd(bytes: Uint8Array): Promise<void> {
  const file = blob(bytes);
  expectFileError(await checkPsdHeader(file));
  expectFileError(await validateFileContent(file, UPLOAD_RULES.source));
}

/** The server's typed error: an ApiError (thrown by `fail`) answering 400. */
function expectBadRequest(error: unknown): void {
  const typed = error instanceof Error && error.name === 'ApiError';
  if (!typed || (error as { status?: unknown }).status !== 400) throw error;
}

// ---------------------------------------------------------------------------------------------
// Text inputs

/** Query keys a list or /embed reads, and a few it does not. */
const listKeys = fc.constantFrom(
  'page',
  'limit',
  'order',
  'search',
  'type',
  'gender',
  'locked',
  'filter',
  '__proto__',
  'constructor',
  'x',
);
const queryValue = fc.oneof(
  fc.string(),
  fc.constantFrom('', '0', '1', '-1', '1e3', '999999999', '10000000000', ' 1', '-name', '-', 'NaN'),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 300 }),
);
const queries = fc.dictionary(listKeys, fc.array(queryValue, { maxLength: 3 }), {
  noNullPrototype: false,
});

/** A filter schema as the app's lists declare them. */
const clientList = defineList({
  filterSchema: z.strictObject({
    search: z.optional(z.string()),
    type: z.optional(z.array(z.enum(['top', 'bottom']))),
    locked: z.optional(z.boolean()),
  }),
  sortFields: ['name', 'createdAt'],
  defaultOrder: { name: 'asc' },
});

const embedKeys = fc.constantFrom(
  'modelSrc',
  'environment',
  'animationSrc',
  'spawnEffect',
  'emotion',
  'ao',
  'quality',
  'scale',
  'fit',
  'zoom',
  'spawnEffectLoop',
  'allowedOrigins',
  '__proto__',
);
const embedQueries = fc
  .array(fc.tuple(embedKeys, queryValue), { maxLength: 8 })
  .map((pairs) => new URLSearchParams(pairs).toString());

/** Messages shaped like /embed requests, with random values where the requests have theirs. */
const embedMessages = fc.oneof(
  fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true }),
  fc.record(
    {
      type: fc.constantFrom('load', 'set', 'capture', 'x'),
      modelSrc: fc.oneof(
        fc.string(),
        fc.constant('/avatar.glb'),
        fc.array(
          fc.oneof(
            fc.string(),
            fc.constant('a.glb'),
            fc.uint8Array().map((b) => b.buffer),
          ),
        ),
        fc.uint8Array().map((b) => b.buffer),
        fc.anything(),
      ),
      mimeType: fc.oneof(fc.constantFrom('image/png', 'image/jpeg'), fc.anything()),
      quality: fc.oneof(fc.double(), fc.anything()),
      emotion: fc.oneof(fc.dictionary(fc.string(), fc.double()), fc.anything()),
      scale: fc.oneof(fc.double(), fc.anything()),
      ao: fc.anything(),
    },
    { requiredKeys: ['type'] },
  ),
);

// ---------------------------------------------------------------------------------------------
// The targets

/** A target whose input type is its own business. */
const target = <T>(t: FuzzTarget<T>) => t as FuzzTarget<unknown>;

export const FUZZ_TARGETS: FuzzTarget<unknown>[] = [
  target({
    name: 'PNG',
    inputs: fc.oneof(mutated(PNG_BASES, repairPng), pngStructures),
    check: checkImage,
  }),
  target({
    name: 'JPEG',
    inputs: fc.oneof(mutated(JPEG_BASES), jpegStructures),
    check: checkImage,
  }),
  target({
    name: 'PSD',
    inputs: fc.oneof(mutated([PSD_BASE]), psdStructures),
    check: checkPsd,
  }),
  target({
    name: 'GLB',
    inputs: fc.oneof(
      mutated(GLB_BASES, repairGlb),
      glbStructures,
      mutated([{ name: 'glb', bytes: glbBytes('{}', 16), fields: [8, 12, 16, 24, 28] }], repairGlb),
    ),
    check: checkGlb,
  }),
  target({
    name: 'embed message',
    inputs: embedMessages,
    check: (data) => {
      const parsed = parseRequest(data);
      if (!('request' in parsed) && typeof parsed.error !== 'string') throw new Error('no error');
      return Promise.resolve();
    },
  }),
  target({
    name: 'embed address',
    inputs: embedQueries,
    check: (query) => {
      const search = readSearch(query);
      parseAllowedOrigins(search.allowedOrigins);
      embedPreloadLinks(new URLSearchParams(query));
      return Promise.resolve();
    },
  }),
  target({
    name: 'list query (server)',
    inputs: fc.oneof(
      queries.map((query) => ({ query })),
      fc.jsonValue().map((json) => ({ json })),
    ),
    check: (input) => {
      const { query, json } = input as { query?: Record<string, string[]>; json?: unknown };
      try {
        if (query) parseListQuery(assetListSpec, query);
        else if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
          filterFromJson(assetListSpec, json as Record<string, unknown>);
        }
      } catch (error) {
        expectBadRequest(error);
      }
      return Promise.resolve();
    },
  }),
  target({
    name: 'list query (client)',
    inputs: fc.oneof(fc.dictionary(listKeys, queryValue), fc.dictionary(listKeys, fc.jsonValue())),
    check: (raw) => {
      const state = parseListSearch(raw, clientList.filterSchema, clientList);
      if (!Number.isInteger(state.page) || state.page < 1) throw new Error(`page ${state.page}`);
      clientList.validateSearch(raw);
      if (typeof raw.order === 'string') decodeOrder(raw.order);
      return Promise.resolve();
    },
  }),
];

/**
 * Runs `check` on `input`. A case over CASE_LIMIT_MS runs again (up to three times in all) and
 * counts its fastest run: a slow input is slow every time, a busy machine or a GC pause is not.
 */
export async function timedCase<T>(
  target: FuzzTarget<T>,
  input: T,
): Promise<{ ms: number; error?: unknown }> {
  let fastest = Infinity;
  for (let run = 0; run < 3 && fastest > CASE_LIMIT_MS; run++) {
    const started = performance.now();
    try {
      await target.check(input);
    } catch (error) {
      return { ms: performance.now() - started, error };
    }
    fastest = Math.min(fastest, performance.now() - started);
  }
  return { ms: fastest };
}

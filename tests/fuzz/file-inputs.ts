/**
 * The files the fuzz targets of tests/fuzz/readers.ts read, per format: real files (PngSuite,
 * the avatars) and small built ones with bytes flipped, cut, spliced and length fields
 * overwritten, and valid-looking structures with random fields.
 */
import fc from 'fast-check';
import { crc32 } from '../../core/files/crc32';
import { ihdrChunk, pngChunk, pngFile } from '../../core/files/png-writer';
import { AVATARS, fixtureBytes, fixtureNames, PNG_SUITE } from '../../core/files/test-fixtures';

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

const PNG_BASES: Base[] = fixtureNames(PNG_SUITE, '.png').map((name) => {
  const bytes = fixtureBytes(PNG_SUITE, name);
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
  const bytes = fixtureBytes(AVATARS, name);
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

/** Each format's files: real and built ones mutated, and random structures. */
export const FILE_INPUTS = {
  png: fc.oneof(mutated(PNG_BASES, repairPng), pngStructures),
  jpeg: fc.oneof(mutated(JPEG_BASES), jpegStructures),
  psd: fc.oneof(mutated([PSD_BASE]), psdStructures),
  glb: fc.oneof(
    mutated(GLB_BASES, repairGlb),
    glbStructures,
    mutated([{ name: 'glb', bytes: glbBytes('{}', 16), fields: [8, 12, 16, 24, 28] }], repairGlb),
  ),
};

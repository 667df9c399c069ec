/**
 * Test-only: the shared fixtures (a `shared/fixtures` folder beside the project, never copied
 * into it) as Node Blobs, and builders of small JPEGs, ICC profiles and PNG variants. jsdom's Blob has no
 * arrayBuffer(), so tests hand the readers Node's Blob, which has a browser File's API.
 */
import { concat } from './bytes';
import { pngChunk } from './png-writer';

/**
 * src/ is typed for the browser (no @types/node, which would change globals such as
 * setTimeout for the whole app), so the few Node functions the tests use are loaded here and
 * typed by what the tests need.
 */
const nodeModule = (name: string): Promise<unknown> => import(/* @vite-ignore */ name);
const { existsSync, readdirSync, readFileSync } = (await nodeModule('node:fs')) as {
  existsSync: (path: string) => boolean;
  readdirSync: (path: string) => string[];
  readFileSync: (path: string) => Uint8Array;
};
const zlib = (await nodeModule('node:zlib')) as {
  deflateSync: (data: Uint8Array) => Uint8Array;
  crc32: (data: Uint8Array) => number;
};
/** Node's Blob: the same API as the browser's. */
export const NodeBlob = ((await nodeModule('node:buffer')) as { Blob: typeof Blob }).Blob;

export const zlibCrc32 = zlib.crc32;

const { fileURLToPath } = (await nodeModule('node:url')) as {
  fileURLToPath: (url: string) => string;
};
const { dirname, join } = (await nodeModule('node:path')) as {
  dirname: (path: string) => string;
  join: (...parts: string[]) => string;
};

/**
 * The nearest `shared/fixtures` above this file: beside the checkout, and equally from a copy of
 * the tree made deeper inside it (a mutation-testing sandbox). Missing, every test that reads a
 * fixture fails saying so, rather than finding no files to test.
 */
function findFixtures(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ;) {
    const candidate = join(dir, 'shared', 'fixtures');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(
        `No shared/fixtures folder above ${fileURLToPath(import.meta.url)}: the tests need the shared test data beside the project`,
      );
    }
    dir = parent;
  }
}

export const FIXTURES = findFixtures();
export const PNG_SUITE = join(FIXTURES, 'pngsuite');
export const AVATARS = join(FIXTURES, 'avatars');

/** The PngSuite files whose 8-byte signature is damaged, each with the error it gets. */
export const DAMAGED_SIGNATURE_PNGS: [name: string, detail: RegExp][] = [
  'xs1n0g01.png',
  'xs2n0g01.png',
  'xs4n0g01.png',
  'xs7n0g01.png',
  'xcrn0g04.png',
  'xlfn0g04.png',
].map((name) => [name, /signature is damaged/]);

/** The file names in a fixture folder with the given extension. */
export const fixtureNames = (folder: string, extension: string) =>
  readdirSync(folder).filter((name) => name.endsWith(extension));

/** A fixture's bytes as a plain Uint8Array (a Buffer's slice() would share memory). */
export const fixtureBytes = (folder: string, name: string) =>
  new Uint8Array(readFileSync(join(folder, name)));

export const fixtureBlob = (folder: string, name: string) =>
  new NodeBlob([fixtureBytes(folder, name)]);

/** `length` random bytes (getRandomValues fills at most 64 KiB per call). */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += 65_536) {
    crypto.getRandomValues(bytes.subarray(at, Math.min(length, at + 65_536)));
  }
  return bytes;
}

/** A PngSuite image with extra chunks inserted right after its IHDR (byte 33). */
export function withChunksAfterIhdr(name: string, ...chunks: Uint8Array[]) {
  const png = fixtureBytes(PNG_SUITE, name);
  return new NodeBlob([concat([png.subarray(0, 33), ...chunks, png.subarray(33)])]);
}

/** An iCCP chunk: the profile's name, NUL, compression method 0, the zlib-deflated profile. */
export const iccpChunk = (name: string, profile: Uint8Array) =>
  pngChunk(
    'iCCP',
    concat([new TextEncoder().encode(name), Uint8Array.of(0, 0), zlib.deflateSync(profile)]),
  );

/** A Blob that counts the bytes and slices handed out, to prove a reader reads little. */
export class CountingBlob extends NodeBlob {
  bytesRead = 0;
  slices = 0;

  override slice(start?: number, end?: number, type?: string): Blob {
    const part = super.slice(start, end, type);
    this.bytesRead += part.size;
    this.slices++;
    return part;
  }
}

/** A minimal JPEG: SOI, JFIF APP0, ICC_PROFILE APP2 segments, a SOFn frame header, SOS, EOI. */
export function jpegFile(options: {
  width: number;
  height: number;
  components?: number;
  sof?: number;
  icc?: Uint8Array[];
  iccCount?: number;
}) {
  const { width, height, components = 3, sof = 0xc0, icc = [] } = options;
  const segment = (marker: number, body: Uint8Array) => {
    const out = new Uint8Array(4 + body.length);
    out.set([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]);
    out.set(body, 4);
    return out;
  };
  const text = (s: string) => new TextEncoder().encode(s);
  const frame = new Uint8Array(6 + 3 * components);
  frame.set([8, height >> 8, height & 0xff, width >> 8, width & 0xff, components]);
  for (let i = 0; i < components; i++) frame.set([i + 1, 0x11, 0], 6 + 3 * i);
  return new NodeBlob([
    Uint8Array.of(0xff, 0xd8),
    segment(0xe0, concat([text('JFIF\0'), Uint8Array.of(1, 1, 0, 0, 1, 0, 1, 0, 0)])),
    ...icc.map((piece, i) =>
      segment(
        0xe2,
        concat([
          text('ICC_PROFILE\0'),
          Uint8Array.of(i + 1, options.iccCount ?? icc.length),
          piece,
        ]),
      ),
    ),
    segment(sof, frame),
    segment(0xda, Uint8Array.of(1, 1, 0, 0, 63, 0)),
    Uint8Array.of(0x12, 0x34, 0xff, 0xd9),
  ]);
}

/** An ICC profile of one tag, `desc`, at offset 144. */
function iccProfile(tag: Uint8Array) {
  const profile = new Uint8Array(144 + tag.length);
  const view = new DataView(profile.buffer);
  view.setUint32(0, profile.length);
  profile.set(new TextEncoder().encode('acsp'), 36);
  view.setUint32(128, 1);
  profile.set(new TextEncoder().encode('desc'), 132);
  view.setUint32(136, 144);
  view.setUint32(140, tag.length);
  profile.set(tag, 144);
  return profile;
}

/** Version 2: textDescriptionType, ASCII with its NUL (the Unicode and Script parts empty). */
export function iccProfileV2(description: string) {
  const tag = new Uint8Array(12 + description.length + 1 + 8 + 3 + 67);
  tag.set(new TextEncoder().encode('desc'));
  new DataView(tag.buffer).setUint32(8, description.length + 1);
  tag.set(new TextEncoder().encode(description), 12);
  return iccProfile(tag);
}

/** Version 4: multiLocalizedUnicodeType with a German record before the English one. */
export function iccProfileV4(description: string) {
  const utf16 = (s: string) => {
    const out = new Uint8Array(s.length * 2);
    for (let i = 0; i < s.length; i++) new DataView(out.buffer).setUint16(2 * i, s.charCodeAt(i));
    return out;
  };
  const german = utf16('Farbraum');
  const english = utf16(description);
  const tag = new Uint8Array(16 + 2 * 12 + german.length + english.length);
  const view = new DataView(tag.buffer);
  tag.set(new TextEncoder().encode('mluc'));
  view.setUint32(8, 2);
  view.setUint32(12, 12);
  const records: [string, Uint8Array][] = [
    ['deDE', german],
    ['enUS', english],
  ];
  let offset = 40;
  records.forEach(([language, text], i) => {
    tag.set(new TextEncoder().encode(language), 16 + 12 * i);
    view.setUint32(20 + 12 * i, text.length);
    view.setUint32(24 + 12 * i, offset);
    tag.set(text, offset);
    offset += text.length;
  });
  return iccProfile(tag);
}

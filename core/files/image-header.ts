/**
 * Image headers without decoding pixels (spec §5 file rules): format, size, colour type,
 * bit depth and colour-space name of a PNG or JPEG, read from the first few KiB of the file.
 *
 * PNG: the signature, the IHDR chunk (checksum and every field), then chunk headers up to the
 * first IDAT, picking up `iCCP` and `sRGB`. Chunk bodies other than those are skipped
 * unread. Only checkPngIntegrity (png-integrity.ts) reads the pixel data's checksums.
 * JPEG: markers up to the SOFn frame header, collecting APP2 `ICC_PROFILE` segments.
 *
 * Colour-space names: a PNG `sRGB` chunk is 'sRGB'; an ICC profile (PNG `iCCP`, JPEG APP2) is
 * named by its description tag (icc.ts), e.g. "sRGB IEC61966-2.1". A PNG profile that cannot
 * be inflated or has no description falls back to the iCCP chunk's own name. When both are
 * present, iCCP wins over sRGB (PNG 3rd edition precedence). See colorSpaceMatches for how a
 * name is compared with a rule.
 */
import { concat, corrupt, fourCC, unreadable, view, WindowReader, type ByteSource } from './bytes';
import { crc32 } from './crc32';
import { iccDescription } from './icc';
import { sniffContentType, SNIFF_BYTES } from './sniff';
import type { FileError } from './file-error';

/** Colour type names: PNG's five types by their number, and CMYK for four-component JPEGs. */
export type ColorTypeName = 'grayscale' | 'rgb' | 'indexed' | 'grayscale-alpha' | 'rgba' | 'cmyk';

export interface ImageHeader {
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  colorType: ColorTypeName;
  /** Bits per sample (PNG bit depth, JPEG sample precision). */
  bitDepth: number;
  /** The embedded colour profile's name; null when the file carries none. */
  colorSpace: string | null;
}

export type ImageHeaderResult = { ok: true; header: ImageHeader } | { ok: false; error: FileError };

/** PNG colour types by number, with the bit depths the PNG specification allows for each. */
const PNG_COLOR_TYPES: Record<number, { name: ColorTypeName; depths: readonly number[] }> = {
  0: { name: 'grayscale', depths: [1, 2, 4, 8, 16] },
  2: { name: 'rgb', depths: [8, 16] },
  3: { name: 'indexed', depths: [1, 2, 4, 8] },
  4: { name: 'grayscale-alpha', depths: [8, 16] },
  6: { name: 'rgba', depths: [8, 16] },
};

const JPEG_COMPONENTS: Record<number, ColorTypeName> = { 1: 'grayscale', 3: 'rgb', 4: 'cmyk' };

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
/** PNG lengths and dimensions are at most 2³¹ − 1. */
export const PNG_MAX_U31 = 0x7fffffff;

/** Length, type, 13 data bytes and checksum of the IHDR chunk that follows the signature. */
const IHDR_CHUNK_BYTES = 25;
/** The iCCP name is 1–79 Latin-1 characters followed by a NUL. */
const ICCP_NAME_MAX = 79;
/** iCCP chunks up to this size are read and inflated for the profile's description. */
const ICCP_READ_LIMIT = 48 * 1024;
/** An inflated profile larger than this is not read (no real profile comes close). */
const ICC_PROFILE_LIMIT = 4 * 1024 * 1024;

const fail = (error: FileError): ImageHeaderResult => ({ ok: false, error });

/** The header of a PNG or JPEG image; a damaged or truncated file gives `fileInput.corrupt`. */
export async function readImageHeader(file: ByteSource): Promise<ImageHeaderResult> {
  try {
    const reader = new WindowReader(file);
    const head = await reader.read(0, SNIFF_BYTES);
    const type = sniffContentType(head);
    if (type === 'image/png') return await readPngHeader(reader);
    if (type === 'image/jpeg') return await readJpegHeader(reader);
    if (isDamagedPngSignature(head)) {
      return fail(
        corrupt(
          'The PNG signature is damaged (bytes changed, often by a text-mode transfer that ' +
            'rewrote line endings)',
        ),
      );
    }
    return fail({ key: 'fileInput.wrongType', detail: `The file is not a PNG or JPEG (${type})` });
  } catch (error) {
    return fail(unreadable(error));
  }
}

/**
 * One or two bytes of the 8-byte PNG signature changed: a damaged PNG rather than another
 * format (the signature is built so that line-ending rewrites and 7-bit transfers alter it).
 */
export function isDamagedPngSignature(head: Uint8Array): boolean {
  if (head.length < PNG_SIGNATURE.length) return false;
  const changed = PNG_SIGNATURE.filter((byte, i) => head[i] !== byte).length;
  return changed >= 1 && changed <= 2;
}

/** A PNG chunk type is four ASCII letters. */
export function isChunkType(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < at + 4; i++) {
    const c = (bytes[i] ?? 0) | 0x20;
    if (c < 0x61 || c > 0x7a) return false;
  }
  return true;
}

async function readPngHeader(reader: WindowReader): Promise<ImageHeaderResult> {
  const ihdr = await reader.read(PNG_SIGNATURE.length, IHDR_CHUNK_BYTES);
  if (ihdr.length < IHDR_CHUNK_BYTES) return fail(corrupt('The file ends inside the IHDR chunk'));
  const data = view(ihdr);
  if (data.getUint32(0) !== 13 || fourCC(ihdr, 4) !== 'IHDR') {
    return fail(corrupt('The first chunk is not a 13-byte IHDR chunk'));
  }
  if (crc32(ihdr, 4, 21) !== data.getUint32(21)) {
    return fail(corrupt('The IHDR chunk checksum (CRC) does not match its contents'));
  }
  const width = data.getUint32(8);
  const height = data.getUint32(12);
  const bitDepth = ihdr[16]!;
  const colorTypeNumber = ihdr[17]!;
  if (width === 0 || height === 0 || width > PNG_MAX_U31 || height > PNG_MAX_U31) {
    return fail(corrupt(`Invalid image size ${width} × ${height}`));
  }
  const colorType = PNG_COLOR_TYPES[colorTypeNumber];
  if (!colorType) return fail(corrupt(`Invalid PNG colour type ${colorTypeNumber}`));
  if (!colorType.depths.includes(bitDepth)) {
    return fail(corrupt(`Bit depth ${bitDepth} is not allowed for colour type ${colorTypeNumber}`));
  }
  if (ihdr[18] !== 0 || ihdr[19] !== 0 || ihdr[20]! > 1) {
    return fail(corrupt('Unknown compression, filter or interlace method in IHDR'));
  }

  let srgb = false;
  let profile: string | null = null;
  let offset = PNG_SIGNATURE.length + IHDR_CHUNK_BYTES;
  for (;;) {
    const chunk = await reader.read(offset, 8);
    if (chunk.length < 8) {
      return fail(corrupt(`The file ends at byte ${offset}, before any image data (IDAT)`));
    }
    const length = view(chunk).getUint32(0);
    const type = fourCC(chunk, 4);
    if (!isChunkType(chunk, 4) || length > PNG_MAX_U31) {
      return fail(corrupt(`Invalid chunk header at byte ${offset}`));
    }
    if (type === 'IDAT') break;
    if (type === 'IEND') return fail(corrupt('The image has no pixel data (no IDAT chunk)'));
    if (type === 'sRGB') srgb = true;
    if (type === 'iCCP') {
      const result = await readIccpName(reader, offset, length);
      if (typeof result !== 'string') return fail(result);
      profile = result;
    }
    offset += 12 + length;
  }

  const colorSpace = profile ?? (srgb ? 'sRGB' : null);
  return {
    ok: true,
    header: { format: 'png', width, height, colorType: colorType.name, bitDepth, colorSpace },
  };
}

/** The colour-space name of the iCCP chunk at `offset`: its profile's description, else its name. */
async function readIccpName(
  reader: WindowReader,
  offset: number,
  length: number,
): Promise<string | FileError> {
  const whole = length <= ICCP_READ_LIMIT;
  // Type, body and checksum when the chunk is read whole; type and name otherwise.
  const bytes = await reader.read(offset + 4, whole ? length + 8 : ICCP_NAME_MAX + 5);
  const body = bytes.subarray(4, whole ? length + 4 : undefined);
  const nul = body.indexOf(0);
  if (nul < 1 || nul > ICCP_NAME_MAX || nul >= length) {
    return corrupt(`The iCCP chunk at byte ${offset} has no valid profile name`);
  }
  const name = new TextDecoder('latin1').decode(body.subarray(0, nul));
  if (!whole) return name;
  if (bytes.length < length + 8) return corrupt('The file ends inside the iCCP chunk');
  if (crc32(bytes, 0, length + 4) !== view(bytes).getUint32(length + 4)) {
    return corrupt(`The iCCP chunk checksum (CRC) at byte ${offset} does not match`);
  }
  const inflated = await inflate(body.subarray(nul + 2), ICC_PROFILE_LIMIT);
  return (inflated && iccDescription(inflated)) ?? name;
}

/** zlib-inflates `data` with the platform's DecompressionStream; null when that fails. */
async function inflate(data: Uint8Array<ArrayBuffer>, limit: number): Promise<Uint8Array | null> {
  if (typeof DecompressionStream !== 'function') return null;
  try {
    const stream = new DecompressionStream('deflate');
    const writer = stream.writable.getWriter();
    // Errors surface on the readable side; the writer's promises only need handling.
    writer.write(data).catch(() => undefined);
    writer.close().catch(() => undefined);
    const reader = stream.readable.getReader();
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) {
        await reader.cancel();
        return null;
      }
      parts.push(value);
    }
    return concat(parts);
  } catch {
    return null;
  }
}

/** SOFn markers: C0–CF except DHT (C4), JPG (C8) and DAC (CC). */
const isFrameMarker = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

const APP2 = 0xe2;
/** How far one read looks through a run of 0xFF fill bytes. */
const FILL_SCAN_BYTES = 4096;
const ICC_SIGNATURE = 'ICC_PROFILE\0';

async function readJpegHeader(reader: WindowReader): Promise<ImageHeaderResult> {
  const size = reader.file.size;
  /** ICC profile pieces by their 1-based sequence number, and how many there should be. */
  const iccPieces = new Map<number, Uint8Array>();
  let iccCount = 0;
  let offset = 2;
  for (;;) {
    const marker = await reader.read(offset, 4);
    if (marker.length < 2) {
      return fail(corrupt('The file ends before the JPEG frame header (SOF)'));
    }
    if (marker[0] !== 0xff) return fail(corrupt(`Expected a JPEG marker at byte ${offset}`));
    const code = marker[1]!;
    // A run of fill bytes: skip to its last 0xFF, which starts the marker.
    if (code === 0xff) {
      const run = await reader.read(offset + 1, FILL_SCAN_BYTES);
      let fill = 0;
      while (fill < run.length && run[fill] === 0xff) fill++;
      offset += fill;
      continue;
    }
    // Markers that carry no length.
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (code === 0xd8 || code === 0xd9 || code === 0xda) {
      return fail(corrupt('The JPEG has no frame header (SOF) before its image data'));
    }
    if (marker.length < 4) return fail(corrupt('The file ends inside a JPEG marker'));
    const length = view(marker).getUint16(2);
    const end = offset + 2 + length;
    if (length < 2 || end > size) {
      return fail(corrupt(`The JPEG segment at byte ${offset} runs past the end of the file`));
    }
    if (isFrameMarker(code)) {
      const frame = await reader.read(offset + 4, length - 2);
      const header = parseFrame(frame);
      if (!('format' in header)) return fail(header);
      const profile = assembleIcc(iccPieces, iccCount);
      if (profile && !(profile instanceof Uint8Array)) return fail(profile);
      header.colorSpace = profile && iccDescription(profile);
      return { ok: true, header };
    }
    if (code === APP2 && length - 2 > ICC_SIGNATURE.length + 2) {
      const segment = await reader.read(offset + 4, length - 2);
      if (new TextDecoder('latin1').decode(segment.subarray(0, 12)) === ICC_SIGNATURE) {
        iccPieces.set(segment[12]!, segment.subarray(14));
        iccCount = segment[13]!;
      }
    }
    offset = end;
  }
}

/** Size, precision and colour type from a SOFn segment's body. */
function parseFrame(frame: Uint8Array): ImageHeader | FileError {
  if (frame.length < 6) return corrupt('The JPEG frame header is truncated');
  const data = view(frame);
  const bitDepth = frame[0]!;
  const height = data.getUint16(1);
  const width = data.getUint16(3);
  const components = frame[5]!;
  if (frame.length !== 6 + 3 * components) return corrupt('The JPEG frame header is malformed');
  if (width === 0 || height === 0) return corrupt(`Invalid image size ${width} × ${height}`);
  const colorType = JPEG_COMPONENTS[components];
  if (!colorType) return corrupt(`A JPEG with ${components} colour components is not supported`);
  return { format: 'jpeg', width, height, colorType, bitDepth, colorSpace: null };
}

/** The ICC profile from its APP2 pieces; null when there is none. */
function assembleIcc(
  pieces: Map<number, Uint8Array>,
  count: number,
): Uint8Array | null | FileError {
  if (pieces.size === 0) return null;
  const ordered = Array.from({ length: count }, (_, i) => pieces.get(i + 1));
  const complete = ordered.filter((piece) => piece !== undefined);
  if (count === 0 || pieces.size !== count || complete.length !== count) {
    return corrupt('The JPEG colour profile (ICC_PROFILE) is incomplete');
  }
  return concat(complete);
}

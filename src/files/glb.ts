/**
 * Header checks of the non-image uploads: binary glTF models (.glb) and Photoshop source
 * files (.psd). Each reads a few dozen bytes; neither parses the JSON, meshes or layers.
 */
import { corrupt, fourCC, readBytes, unreadable, view, type ByteSource } from './bytes';
import type { FileError } from './validate';

/** GLB: 12-byte header (magic, version, length), then chunks of length, type and body. */
const GLB_HEADER_BYTES = 12;
const GLB_CHUNK_HEADER_BYTES = 8;
const GLB_JSON_CHUNK = 0x4e4f534a; // "JSON" read as a little-endian u32
const GLB_BIN_CHUNK = 0x004e4942; // "BIN\0"

const notGlb = (detail: string): FileError => ({ key: 'fileInput.notGlb', detail });

/**
 * Null when `file` has a sound glTF 2.0 binary header: magic `glTF`, version 2, a length equal
 * to the file's size, a JSON chunk first and chunk lengths that stay inside the file.
 */
export async function checkGlbHeader(file: ByteSource): Promise<FileError | null> {
  try {
    const header = await readBytes(file, 0, GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES);
    if (header.length < GLB_HEADER_BYTES || fourCC(header, 0) !== 'glTF') {
      return notGlb('The file does not start with the binary glTF magic "glTF"');
    }
    const data = view(header);
    const version = data.getUint32(4, true);
    if (version !== 2) return notGlb(`glTF version ${version}: only version 2 is supported`);
    const length = data.getUint32(8, true);
    if (length !== file.size) {
      return corrupt(`The header gives a length of ${length} bytes but the file has ${file.size}`);
    }
    if (header.length < GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES) {
      return corrupt('The file ends before its first chunk');
    }
    if (data.getUint32(16, true) !== GLB_JSON_CHUNK) {
      return corrupt('The first chunk is not the JSON chunk');
    }
    const jsonEnd = GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES + data.getUint32(12, true);
    if (jsonEnd > file.size) return corrupt('The JSON chunk runs past the end of the file');
    if (jsonEnd === file.size) return null;
    return await checkSecondChunk(file, jsonEnd);
  } catch (error) {
    return unreadable(error);
  }
}

/** The chunk after JSON (normally BIN) must have a whole header and fit in the file. */
async function checkSecondChunk(file: ByteSource, offset: number): Promise<FileError | null> {
  const header = await readBytes(file, offset, offset + GLB_CHUNK_HEADER_BYTES);
  if (header.length < GLB_CHUNK_HEADER_BYTES) {
    return corrupt(`The file ends inside the chunk header at byte ${offset}`);
  }
  const data = view(header);
  const end = offset + GLB_CHUNK_HEADER_BYTES + data.getUint32(0, true);
  if (end > file.size) {
    const name = data.getUint32(4, true) === GLB_BIN_CHUNK ? 'BIN' : 'second';
    return corrupt(`The ${name} chunk runs past the end of the file`);
  }
  return null;
}

/** PSD header: signature, version, 6 reserved bytes, channels, height, width, depth, mode. */
const PSD_HEADER_BYTES = 26;
const PSD_DEPTHS = [1, 8, 16, 32];
/** Bitmap, greyscale, indexed, RGB, CMYK, multichannel, duotone, Lab. */
const PSD_COLOR_MODES = [0, 1, 2, 3, 4, 7, 8, 9];
const PSD_MAX_CHANNELS = 56;
/** Largest side of a PSD (version 1) and of a large-document PSB (version 2). */
const PSD_MAX_SIDE: Record<number, number> = { 1: 30_000, 2: 300_000 };

/** Null when `file` starts with a valid Photoshop header (`8BPS`, version 1 or 2). */
export async function checkPsdHeader(file: ByteSource): Promise<FileError | null> {
  try {
    const header = await readBytes(file, 0, PSD_HEADER_BYTES);
    if (fourCC(header, 0) !== '8BPS') {
      return { key: 'fileInput.wrongType', detail: 'The file is not a Photoshop document' };
    }
    if (header.length < PSD_HEADER_BYTES) return corrupt('The file ends inside the PSD header');
    const data = view(header);
    const version = data.getUint16(4);
    const maxSide = PSD_MAX_SIDE[version];
    if (!maxSide) return corrupt(`Unknown PSD version ${version} (1 is PSD, 2 is PSB)`);
    if (header.subarray(6, 12).some((byte) => byte !== 0)) {
      return corrupt('The reserved bytes of the PSD header are not zero');
    }
    const channels = data.getUint16(12);
    const height = data.getUint32(14);
    const width = data.getUint32(18);
    if (channels < 1 || channels > PSD_MAX_CHANNELS) {
      return corrupt(`Invalid channel count ${channels}`);
    }
    if (width < 1 || height < 1 || width > maxSide || height > maxSide) {
      return corrupt(`Invalid image size ${width} × ${height}`);
    }
    if (!PSD_DEPTHS.includes(data.getUint16(22))) {
      return corrupt(`Invalid bit depth ${data.getUint16(22)}`);
    }
    if (!PSD_COLOR_MODES.includes(data.getUint16(24))) {
      return corrupt(`Invalid colour mode ${data.getUint16(24)}`);
    }
    return null;
  } catch (error) {
    return unreadable(error);
  }
}

/**
 * Header check of binary glTF models (.glb): reads a few dozen bytes, never parses the JSON or
 * the meshes.
 */
import { corrupt, fourCC, readBytes, unreadable, view, type ByteSource } from './bytes';
import type { FileError } from './file-error';

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

/** Where a GLB's chunks lie, as byte ranges of the file. */
export interface GlbLayout {
  json: { start: number; length: number };
  /** The BIN chunk's body, the model's first buffer; absent when the file has none. */
  bin?: { start: number; length: number };
}

/**
 * The JSON and BIN chunk ranges of a GLB whose header passed checkGlbHeader (reads 28 bytes).
 * A second chunk of another type is not BIN and is left out.
 */
export async function readGlbLayout(file: ByteSource): Promise<GlbLayout> {
  const header = await readBytes(file, 0, GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES);
  const jsonStart = GLB_HEADER_BYTES + GLB_CHUNK_HEADER_BYTES;
  const json = { start: jsonStart, length: view(header).getUint32(12, true) };
  const binHeader = await readBytes(
    file,
    jsonStart + json.length,
    jsonStart + json.length + GLB_CHUNK_HEADER_BYTES,
  );
  if (binHeader.length < GLB_CHUNK_HEADER_BYTES) return { json };
  const data = view(binHeader);
  if (data.getUint32(4, true) !== GLB_BIN_CHUNK) return { json };
  const start = jsonStart + json.length + GLB_CHUNK_HEADER_BYTES;
  return { json, bin: { start, length: data.getUint32(0, true) } };
}

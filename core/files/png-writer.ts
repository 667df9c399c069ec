/**
 * Assembles PNG files from chunks: the tests and the bench build their inputs with it
 * (synthetic headers, extra chunks, large images) so those inputs are checksummed exactly as a
 * real encoder would, and the server draws the demo icons with it (server/demo-files.ts).
 */
import { concat } from './bytes';
import { crc32 } from './crc32';
import { PNG_SIGNATURE } from './image-header';

/** One chunk: 4-byte length, type, data, CRC-32 of type and data. */
export function pngChunk(type: string, data: Uint8Array = new Uint8Array(0)): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) chunk[4 + i] = type.charCodeAt(i);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk, 4, 8 + data.length));
  return chunk;
}

export interface PngHeaderFields {
  width: number;
  height: number;
  bitDepth: number;
  /** PNG colour type number: 0, 2, 3, 4 or 6. */
  colorType: number;
  interlace?: 0 | 1;
}

/** The IHDR chunk of an image. */
export function ihdrChunk({ width, height, bitDepth, colorType, interlace = 0 }: PngHeaderFields) {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  data.set([bitDepth, colorType, 0, 0, interlace], 8);
  return pngChunk('IHDR', data);
}

/** A PNG file: the signature followed by the given chunks, in order. */
export function pngFile(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  return concat([Uint8Array.from(PNG_SIGNATURE), ...chunks]);
}

/**
 * Reading parts of a file. Every reader here asks the Blob (a browser File, a Node Blob or
 * `fs.openAsBlob`) for just the bytes it needs with `slice().arrayBuffer()`, so checking a
 * 50 MB upload's header costs a few KiB, not 50 MB.
 */
import type { FileError } from './file-error';

/**
 * The part of Blob the readers use: a browser Blob or File, a Node Blob (`fs.openAsBlob`), or
 * a wrapper that counts what is read.
 */
export interface ByteSource {
  readonly size: number;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** Bytes `[start, end)` of a file (fewer when the file ends first). */
export async function readBytes(
  file: ByteSource,
  start: number,
  end: number,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

/** A damaged-file error; `detail` says in plain English what is wrong and where. */
export const corrupt = (detail: string): FileError => ({ key: 'fileInput.corrupt', detail });

/** Four bytes as text, e.g. a PNG chunk type or an ICC tag signature. */
export const fourCC = (bytes: Uint8Array, at: number): string =>
  String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);

/** A big-endian view of `bytes` (PNG, JPEG, ICC and PSD are big-endian; GLB is little). */
export const view = (bytes: Uint8Array): DataView =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Reads a file front to back through a window, so walking many small records (chunk or
 * segment headers) costs one slice per window rather than one per record. Records past the
 * window are fetched at their own offset, so skipped bodies are never read.
 */
export class WindowReader {
  private window: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private windowStart = 0;
  /** Bytes fetched from the file so far. */
  bytesRead = 0;

  constructor(
    readonly file: ByteSource,
    private readonly windowSize = 4096,
  ) {}

  /**
   * Bytes `[offset, offset + length)`, or fewer when the file ends first (the caller reports
   * the truncation). The result may be a view of the window, which is never written to.
   */
  async read(offset: number, length: number): Promise<Uint8Array<ArrayBuffer>> {
    const end = Math.min(offset + length, this.file.size);
    const windowEnd = this.windowStart + this.window.length;
    if (offset < this.windowStart || end > windowEnd) {
      this.windowStart = offset;
      this.window = await readBytes(this.file, offset, Math.max(end, offset + this.windowSize));
      this.bytesRead += this.window.length;
    }
    return this.window.subarray(
      offset - this.windowStart,
      Math.max(offset, end) - this.windowStart,
    );
  }
}

/** The error for a file that could not be read at all (e.g. a File deleted after it was chosen). */
export const unreadable = (error: unknown): FileError =>
  corrupt(`The file could not be read (${error instanceof Error ? error.message : String(error)})`);

/** The parts joined into one buffer. */
export function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Whole-file PNG structure check without inflating: every chunk's checksum, IHDR first, image
 * data present and in one run of IDAT chunks, IEND last. It finds what a header read cannot
 * (a missing IDAT after other chunks, a damaged IDAT checksum, a truncated tail) while
 * costing one CRC-32 pass over the file, read in 1 MiB pieces with the next piece fetched
 * while the current one is checked.
 */
import { corrupt, readBytes, unreadable, view, type ByteSource } from './bytes';
import { crc32Update } from './crc32';
import { isChunkType, PNG_MAX_U31, PNG_SIGNATURE } from './image-header';
import type { FileError } from './file-error';

/** How much of the file each read asks for. */
export const INTEGRITY_PIECE_BYTES = 1024 * 1024;

/** Null when every chunk of the PNG is intact and in order, else a `fileInput.corrupt` error. */
export async function checkPngIntegrity(file: ByteSource): Promise<FileError | null> {
  try {
    return await walkChunks(new PieceReader(file));
  } catch (error) {
    return unreadable(error);
  }
}

async function walkChunks(input: PieceReader): Promise<FileError | null> {
  const signature = await input.take(PNG_SIGNATURE.length);
  if (PNG_SIGNATURE.some((byte, i) => signature[i] !== byte)) {
    return corrupt('The PNG signature is damaged');
  }
  let imageData: 'before' | 'inside' | 'after' = 'before';
  for (let index = 0; ; index++) {
    const start = input.position;
    const header = await input.take(8);
    if (header.length === 0) return corrupt('The file ends without an IEND chunk');
    if (header.length < 8) return corrupt(`The file ends inside a chunk header at byte ${start}`);
    const length = view(header).getUint32(0);
    const type = String.fromCharCode(...header.subarray(4));
    if (!isChunkType(header, 4) || length > PNG_MAX_U31) {
      return corrupt(`Invalid chunk header at byte ${start}`);
    }
    if (index === 0 && type !== 'IHDR') return corrupt('The first chunk is not IHDR');
    if (type === 'IDAT') {
      if (imageData === 'after') return corrupt(`The IDAT chunk at byte ${start} is out of order`);
      imageData = 'inside';
    } else if (imageData === 'inside') {
      imageData = 'after';
    }

    let crc = crc32Update(0, header, 4, 8);
    const read = await input.forEach(length, (bytes, from, to) => {
      crc = crc32Update(crc, bytes, from, to);
    });
    const stored = await input.take(4);
    if (read < length || stored.length < 4) {
      return corrupt(`The file ends inside the ${type} chunk at byte ${start}`);
    }
    if (view(stored).getUint32(0) !== crc) {
      return corrupt(`The ${type} chunk at byte ${start} has a wrong checksum (CRC)`);
    }

    if (type === 'IEND') {
      if (imageData === 'before') return corrupt('The image has no pixel data (no IDAT chunk)');
      if (length !== 0) return corrupt('The IEND chunk is not empty');
      if (input.position !== input.size) return corrupt('There is data after the IEND chunk');
      return null;
    }
  }
}

/** Reads a file front to back in pieces, prefetching the next piece. */
class PieceReader {
  private piece: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  private at = 0;
  private fetched = 0;
  private next: Promise<Uint8Array<ArrayBuffer>> | null = null;
  /** File offset of the next byte to be consumed. */
  position = 0;

  constructor(private readonly file: ByteSource) {
    this.prefetch();
  }

  get size(): number {
    return this.file.size;
  }

  /** The next `count` bytes (a fresh copy; fewer at the end of the file). */
  async take(count: number): Promise<Uint8Array> {
    const out = new Uint8Array(count);
    let filled = 0;
    await this.forEach(count, (bytes, from, to) => {
      out.set(bytes.subarray(from, to), filled);
      filled += to - from;
    });
    return out.subarray(0, filled);
  }

  /**
   * Passes the next `count` bytes to `visit` as spans of the current pieces; returns how many
   * there were (fewer than `count` at the end of the file).
   */
  async forEach(
    count: number,
    visit: (bytes: Uint8Array, from: number, to: number) => void,
  ): Promise<number> {
    let left = count;
    while (left > 0) {
      if (this.at === this.piece.length) {
        if (!this.next) break;
        this.piece = await this.next;
        this.at = 0;
        this.prefetch();
        if (this.piece.length === 0) break;
      }
      const to = Math.min(this.piece.length, this.at + left);
      visit(this.piece, this.at, to);
      left -= to - this.at;
      this.position += to - this.at;
      this.at = to;
    }
    return count - left;
  }

  private prefetch() {
    if (this.fetched >= this.file.size) {
      this.next = null;
      return;
    }
    const start = this.fetched;
    this.fetched = Math.min(this.file.size, start + INTEGRITY_PIECE_BYTES);
    this.next = readBytes(this.file, start, this.fetched);
    // A walk that stops early never awaits its prefetch: keep that read's failure handled.
    this.next.catch(() => undefined);
  }
}

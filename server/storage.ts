/**
 * Where uploaded files live: a small interface with a local-disk implementation (files under
 * DATA_DIR/files). A cloud bucket would implement the same calls.
 *
 * Files are written as they stream in (never buffered whole), counted against a byte limit
 * (StorageLimitError past it, and the partial file is removed), and named by a random key plus
 * the extension of the type sniffed from their first bytes: a client-supplied name never
 * becomes a path.
 */
import { createReadStream, createWriteStream, openAsBlob, type WriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES, sniffContentType, type SniffedType } from '../src/files/sniff';
import { newId } from './ids';

export interface StoredFile {
  /** Opaque storage key, e.g. `3f2a…9c.glb`; served at /files/{key}. */
  key: string;
  size: number;
  contentType: SniffedType;
}

/** A stored file as `list` reports it. */
export interface ListedFile extends StoredFile {
  /** When the file was completely stored (it never changes afterwards). */
  storedAt: Date;
}

interface PutOptions {
  /** Refuse (StorageLimitError) once more than this many bytes arrived. */
  maxBytes: number;
  /**
   * Called once the first bytes arrived, with the sniffed type and those bytes (at least
   * SNIFF_BYTES of them unless the file is shorter); throw to refuse the file.
   */
  accept?: (contentType: SniffedType, head: Uint8Array) => void;
}

export interface Storage {
  put(body: ReadableStream<Uint8Array>, options: PutOptions): Promise<StoredFile>;
  /** The file's key, size and type without opening it, or undefined when the key is unknown. */
  stat(key: string): Promise<StoredFile | undefined>;
  /** The file's bytes as a stream, or undefined when the key is unknown. */
  get(key: string): Promise<{ stream: ReadableStream<Uint8Array>; file: StoredFile } | undefined>;
  /** The file's bytes, or undefined when the key is unknown (for small-to-medium reads). */
  read(key: string): Promise<Uint8Array | undefined>;
  /** The file as a Blob whose slices read only their bytes (header checks), or undefined. */
  blob(key: string): Promise<Blob | undefined>;
  delete(key: string): Promise<void>;
  /** Every completely stored file, in no particular order. */
  list(): AsyncIterable<ListedFile>;
  /**
   * Removes partial uploads (a crashed process's) last written to before `before`; answers how
   * many it removed.
   */
  removeIncomplete(before: Date): Promise<number>;
}

export class StorageLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
  }
}

const EXTENSIONS: Record<SniffedType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'model/gltf-binary': 'glb',
  'model/fbx': 'fbx',
  'image/vnd.adobe.photoshop': 'psd',
  'application/octet-stream': 'bin',
};
const TYPES = new Map(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type as SniffedType]));

/** Keys are 24 hex characters and a known extension; anything else is not a stored file. */
const KEY_PATTERN = /^[0-9a-f]{24}\.([a-z]{3})$/;

/** Uploads are written under this prefix and renamed to their key once complete. */
const TEMP_PREFIX = '.upload-';

/** Resolves once `stream` has closed its file (at once when it already has). */
function closed(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.closed) resolve();
    else stream.once('close', () => resolve());
  });
}

/** Where a stored file is served: its address is this prefix and the key. */
const FILES_PATH = '/files/';

/** The address of a stored file, as uploads answer it and asset fields hold it. */
export function fileUrl(key: string): string {
  return `${FILES_PATH}${key}`;
}

/** The key of a `/files/<key>` address of this server, or undefined for any other string. */
export function keyOfFileUrl(url: string): string | undefined {
  if (!url.startsWith(FILES_PATH)) return undefined;
  const key = url.slice(FILES_PATH.length);
  return contentTypeOfKey(key) ? key : undefined;
}

/** The content type a key stands for, or undefined for a malformed key. */
export function contentTypeOfKey(key: string): SniffedType | undefined {
  const match = KEY_PATTERN.exec(key);
  return match?.[1] === undefined ? undefined : TYPES.get(match[1]);
}

/** Storage on local disk under `dir`. */
export function createLocalStorage(dir: string): Storage {
  const pathOf = (key: string) => join(dir, key);

  return {
    async put(body, { maxBytes, accept }) {
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `${TEMP_PREFIX}${newId()}`);
      let size = 0;
      let head = new Uint8Array(0);
      let contentType: SniffedType | undefined;
      const sniffing = async function* (source: AsyncIterable<Uint8Array>) {
        for await (const chunk of source) {
          size += chunk.byteLength;
          if (size > maxBytes) throw new StorageLimitError(maxBytes);
          if (contentType === undefined) {
            const joined = new Uint8Array(head.byteLength + chunk.byteLength);
            joined.set(head);
            joined.set(chunk, head.byteLength);
            head = joined;
            if (head.byteLength >= SNIFF_BYTES) {
              contentType = sniffContentType(head);
              accept?.(contentType, head);
            }
          }
          yield chunk;
        }
        if (contentType === undefined) {
          contentType = sniffContentType(head);
          accept?.(contentType, head);
        }
      };
      const out = createWriteStream(temp);
      try {
        await pipeline(
          Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>),
          sniffing,
          out,
        );
      } catch (error) {
        // The pipeline rejects as soon as the sniffing step throws, which can be before the
        // file is even opened: removing it then would leave the file the open creates later.
        await closed(out);
        await rm(temp, { force: true });
        throw error;
      }
      const type = contentType ?? 'application/octet-stream';
      const key = `${newId()}.${EXTENSIONS[type]}`;
      await rename(temp, pathOf(key));
      return { key, size, contentType: type };
    },

    async stat(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return undefined;
      try {
        const found = await stat(pathOf(key));
        return found.isFile() ? { key, size: found.size, contentType } : undefined;
      } catch {
        return undefined;
      }
    },

    async get(key) {
      const file = await this.stat(key);
      if (!file) return undefined;
      const stream = Readable.toWeb(createReadStream(pathOf(key))) as ReadableStream<Uint8Array>;
      return { stream, file };
    },

    async read(key) {
      const found = await this.get(key);
      if (!found) return undefined;
      return new Uint8Array(await new Response(found.stream).arrayBuffer());
    },

    async blob(key) {
      if (!(await this.stat(key))) return undefined;
      return openAsBlob(pathOf(key));
    },

    async delete(key) {
      if (contentTypeOfKey(key)) await rm(pathOf(key), { force: true });
    },

    async *list() {
      const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      for (const key of names) {
        const contentType = contentTypeOfKey(key);
        if (!contentType) continue;
        // Deleted since the folder was read: not a file any more.
        const found = await stat(pathOf(key)).catch(() => undefined);
        if (!found?.isFile()) continue;
        yield { key, size: found.size, contentType, storedAt: found.mtime };
      }
    },

    async removeIncomplete(before) {
      const names = await readdir(dir).catch(() => []);
      let removed = 0;
      for (const name of names) {
        if (!name.startsWith(TEMP_PREFIX)) continue;
        const found = await stat(join(dir, name)).catch(() => undefined);
        if (!found || found.mtime >= before) continue;
        await rm(join(dir, name), { force: true });
        removed += 1;
      }
      return removed;
    },
  };
}

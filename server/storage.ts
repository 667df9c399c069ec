/**
 * Where uploaded files live: a small interface with a local-disk implementation (files under
 * DATA_DIR/files) here and an S3 one in server/s3-storage.ts (chosen by the S3_* settings).
 *
 * Files are written as they stream in (never buffered whole), counted against a byte limit
 * (StorageLimitError past it, and the partial file is removed), and named by a random key plus
 * the extension of the type sniffed from their first bytes: a client-supplied name never
 * becomes a path.
 */
import {
  constants,
  createReadStream,
  createWriteStream,
  openAsBlob,
  type WriteStream,
} from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { concat, type ByteSource } from '../core/files/bytes';
import { SNIFF_BYTES, sniffContentType, type SniffedType } from '../core/files/sniff';
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

export interface PutOptions {
  /** Refuse (StorageLimitError) once more than this many bytes arrived. */
  maxBytes: number;
  /**
   * Called once the first bytes arrived, with the sniffed type and those bytes (at least
   * SNIFF_BYTES of them unless the file is shorter); throw to refuse the file.
   */
  accept?: (contentType: SniffedType, head: Uint8Array) => void;
  /**
   * The body's length when the sender declared it (an HTTP request's Content-Length, which
   * the HTTP server holds the body to): lets a store send the bytes on as they come, with
   * nothing held (an S3 PUT needs its length first). A body that ends short of it is refused.
   */
  size?: number;
}

/** Bytes `start` to `end` of a file, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface Storage {
  put(body: ReadableStream<Uint8Array>, options: PutOptions): Promise<StoredFile>;
  /** The file's key, size and type without opening it, or undefined when the key is unknown. */
  stat(key: string): Promise<StoredFile | undefined>;
  /**
   * The file's bytes (only `range` of them when given, which must lie inside the file) as a
   * stream, or undefined when the key is unknown; `file.size` is always the whole file's.
   */
  get(
    key: string,
    range?: ByteRange,
  ): Promise<{ stream: ReadableStream<Uint8Array>; file: StoredFile } | undefined>;
  /** The file's bytes, or undefined when the key is unknown (for small-to-medium reads). */
  read(key: string): Promise<Uint8Array | undefined>;
  /** The file as a source whose slices read only their bytes (header checks), or undefined. */
  blob(key: string): Promise<ByteSource | undefined>;
  delete(key: string): Promise<void>;
  /** Every completely stored file, in no particular order. */
  list(): AsyncIterable<ListedFile>;
  /**
   * Removes partial uploads (a crashed process's) last written to before `before`; answers how
   * many it removed.
   */
  removeIncomplete(before: Date): Promise<number>;
  /** Throws when the store cannot be used now (readiness); one cheap call, reads no file. */
  check(): Promise<void>;
}

/** An upload whose bytes were not as many as it declared (PutOptions.size). */
export class UploadLengthError extends Error {
  constructor(received: number, declared: number) {
    super(
      `The upload declared ${declared} bytes and sent ${received > declared ? 'more' : received}`,
    );
    this.name = 'UploadLengthError';
  }
}

/**
 * The file store cannot be reached or answers with a server error (an S3 bucket down, cut off
 * or overloaded): the request may be retried later, so it is a 503 (server/http/errors.ts).
 */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The file store is unavailable', { cause });
    this.name = 'StorageUnavailableError';
  }
}

export class StorageLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
  }
}

export const EXTENSIONS: Record<SniffedType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'model/gltf-binary': 'glb',
  'model/fbx': 'fbx',
  'image/vnd.adobe.photoshop': 'psd',
  'application/octet-stream': 'bin',
};
const TYPES = new Map(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type as SniffedType]));

/** Keys are 24 hex characters and a known extension; anything else is not a stored file. */
export const KEY_PATTERN = /^[0-9a-f]{24}\.([a-z]{3})$/;

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

/** A new key for a file of `contentType`. */
export const newKey = (contentType: SniffedType) => `${newId()}.${EXTENSIONS[contentType]}`;

/**
 * Reads the first bytes of an upload (at least SNIFF_BYTES unless it is shorter), sniffs its
 * type and asks `accept`, before anything is written; answers the type and all the bytes,
 * those first ones included, as they keep arriving, counted against `maxBytes`
 * (StorageLimitError past it) and against a declared `size` (UploadLengthError when they
 * differ). `size()` is the count so far. Throwing (or stopping early)
 * cancels the body.
 */
export async function sniffUpload(
  body: ReadableStream<Uint8Array>,
  { maxBytes, accept, size: declared }: PutOptions,
): Promise<{ contentType: SniffedType; chunks: AsyncIterable<Uint8Array>; size: () => number }> {
  const reader = body.getReader();
  let size = 0;
  const counted = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size > maxBytes) throw new StorageLimitError(maxBytes);
    if (declared !== undefined && size > declared) throw new UploadLengthError(size, declared);
    return chunk;
  };
  const head: Uint8Array[] = [];
  let ended = false;
  let contentType: SniffedType;
  try {
    while (size < SNIFF_BYTES) {
      const next = await reader.read();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(counted(next.value));
    }
    const bytes = concat(head);
    contentType = sniffContentType(bytes);
    accept?.(contentType, bytes);
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  async function* chunks() {
    let complete = ended;
    try {
      yield* head;
      while (!complete) {
        const next = await reader.read();
        if (next.done) complete = true;
        else yield counted(next.value);
      }
      if (declared !== undefined && size !== declared) throw new UploadLengthError(size, declared);
    } finally {
      if (!complete) await reader.cancel().catch(() => undefined);
    }
  }
  return { contentType, chunks: chunks(), size: () => size };
}

/**
 * `storage` whose writes a stopping server ends cleanly: `stopWrites()` refuses new ones (503,
 * as a store that is down) and resolves once those in progress have ended. A write still running
 * at exit (a delivery version, a morph, finished after its job was handed back) would leave a
 * partial upload for the next start to sweep.
 */
export function withStoppableWrites(storage: Storage): Storage & { stopWrites(): Promise<void> } {
  const writing = new Set<Promise<StoredFile>>();
  let stopped = false;
  return {
    ...storage,
    put(body, options) {
      if (stopped) {
        void body.cancel().catch(() => undefined);
        return Promise.reject(new StorageUnavailableError('the server is stopping'));
      }
      const write = storage.put(body, options);
      writing.add(write);
      const ended = () => writing.delete(write);
      write.then(ended, ended);
      return write;
    },
    async stopWrites() {
      stopped = true;
      await Promise.allSettled([...writing]);
    },
  };
}

/** Storage on local disk under `dir`. */
export function createLocalStorage(dir: string): Storage {
  const pathOf = (key: string) => join(dir, key);

  return {
    async put(body, options) {
      const { contentType, chunks, size } = await sniffUpload(body, options);
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `${TEMP_PREFIX}${newId()}`);
      const out = createWriteStream(temp);
      try {
        await pipeline(chunks, out);
      } catch (error) {
        // The pipeline can reject before the file is even opened: removing it then would
        // leave the file the open creates later.
        await closed(out);
        await rm(temp, { force: true });
        throw error;
      }
      const key = newKey(contentType);
      await rename(temp, pathOf(key));
      return { key, size: size(), contentType };
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

    async get(key, range) {
      const file = await this.stat(key);
      if (!file) return undefined;
      const stream = Readable.toWeb(
        createReadStream(pathOf(key), range),
      ) as ReadableStream<Uint8Array>;
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

    async check() {
      // The folder is made on the first upload; a server with none yet can still write.
      await mkdir(dir, { recursive: true });
      await access(dir, constants.R_OK | constants.W_OK);
    },
  };
}

/**
 * Where uploaded files live: a small interface with a local-disk implementation (files under
 * DATA_DIR/files). A cloud bucket would implement the same four calls.
 *
 * Files are written as they stream in (never buffered whole), counted against a byte limit
 * (StorageLimitError past it, and the partial file is removed), and named by a random key plus
 * the extension of the type sniffed from their first bytes: a client-supplied name never
 * becomes a path.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
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

export interface PutOptions {
  /** Refuse (StorageLimitError) once more than this many bytes arrived. */
  maxBytes: number;
  /** Called with the sniffed type once the first bytes arrived; throw to refuse the file. */
  accept?: (contentType: SniffedType) => void;
}

export interface Storage {
  put(body: ReadableStream<Uint8Array>, options: PutOptions): Promise<StoredFile>;
  /** The file's bytes as a stream, or undefined when the key is unknown. */
  get(key: string): Promise<{ stream: ReadableStream<Uint8Array>; file: StoredFile } | undefined>;
  /** The file's bytes, or undefined when the key is unknown (for small-to-medium reads). */
  read(key: string): Promise<Uint8Array | undefined>;
  delete(key: string): Promise<void>;
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
const KEY_PATTERN = /^[0-9a-f]{24}\.([a-z]{3})$/;

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
      const temp = join(dir, `.upload-${newId()}`);
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
              accept?.(contentType);
            }
          }
          yield chunk;
        }
        if (contentType === undefined) {
          contentType = sniffContentType(head);
          accept?.(contentType);
        }
      };
      try {
        await pipeline(
          Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>),
          sniffing,
          createWriteStream(temp),
        );
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      const type = contentType ?? 'application/octet-stream';
      const key = `${newId()}.${EXTENSIONS[type]}`;
      await rename(temp, pathOf(key));
      return { key, size, contentType: type };
    },

    async get(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return undefined;
      try {
        const { size } = await stat(pathOf(key));
        const stream = Readable.toWeb(createReadStream(pathOf(key))) as ReadableStream<Uint8Array>;
        return { stream, file: { key, size, contentType } };
      } catch {
        return undefined;
      }
    },

    async read(key) {
      const found = await this.get(key);
      if (!found) return undefined;
      return new Uint8Array(await new Response(found.stream).arrayBuffer());
    },

    async delete(key) {
      if (contentTypeOfKey(key)) await rm(pathOf(key), { force: true });
    },
  };
}

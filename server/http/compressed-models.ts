/**
 * Stored models sent brotli-compressed to browsers that accept it. A glTF binary compresses
 * well even after the delivery derivation (meshopt's output is made to be compressed once more:
 * the fixture avatars' delivery versions lose 8-42% more), and the browser inflates it before
 * the viewer sees a byte, so nothing else changes. Each model is compressed once per server
 * process, off the event loop (brotli level 5: 6 ms for 230 KB, 15 ms for 1.1 MB; level 11
 * would save 2-5% more for 30-100 times the time), and kept in a cache of bounded size, so a
 * model shown to many visitors costs its compression once.
 */
import { brotliCompress, constants } from 'node:zlib';
import { promisify } from 'node:util';

const compress = promisify(brotliCompress);

/** Models larger than this are sent as they are (compressing would hold too much at once). */
export const MAX_COMPRESSED_MODEL_BYTES = 32 * 1024 * 1024;
/** The cache keeps at most this many compressed bytes, the least recently sent going first. */
const CACHE_BYTES = 64 * 1024 * 1024;
const QUALITY = 5;

/** The bytes of a model brotli-compressed as `/files` sends them. */
export async function compressModel(bytes: Uint8Array): Promise<Uint8Array> {
  return compress(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  });
}

/** Whether an `Accept-Encoding` header accepts brotli (`br`, with a q-value above 0). */
export function acceptsBrotli(header: string | undefined): boolean {
  return (header ?? '').split(',').some((item) => {
    const [coding = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    if (coding !== 'br') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Compressed models by storage key: each compressed once, the cache bounded in bytes. */
export function compressedModels(cacheBytes = CACHE_BYTES) {
  // A Map iterates in insertion order: re-inserting on use keeps the oldest first.
  const cache = new Map<string, Uint8Array>();
  const running = new Map<string, Promise<Uint8Array | undefined>>();
  let cached = 0;
  const keep = (key: string, bytes: Uint8Array) => {
    if (bytes.byteLength > cacheBytes) return;
    cache.set(key, bytes);
    cached += bytes.byteLength;
    for (const [oldest, old] of cache) {
      if (cached <= cacheBytes) break;
      cache.delete(oldest);
      cached -= old.byteLength;
    }
  };
  return {
    /**
     * `key`'s compressed bytes (read with `read` on a miss); undefined when the file is gone or
     * another model is being compressed. One compression runs at a time, so requests for many
     * models at once (a stranger walking through keys) hold one thread of the pool, not all:
     * the others are sent as stored meanwhile, and requests for the model being compressed
     * wait for it.
     */
    async get(
      key: string,
      read: () => Promise<Uint8Array | undefined>,
    ): Promise<Uint8Array | undefined> {
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      let job = running.get(key);
      if (!job && running.size > 0) return undefined;
      if (!job) {
        job = read()
          .then(async (bytes) => {
            if (!bytes) return undefined;
            const compressed = await compressModel(bytes);
            keep(key, compressed);
            return compressed;
          })
          .finally(() => running.delete(key));
        running.set(key, job);
      }
      return job;
    },
  };
}

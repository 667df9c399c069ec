import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsBrotli, compressedModels } from './compressed-models';

describe('acceptsBrotli', () => {
  it('reads br and its q-value from Accept-Encoding', () => {
    expect(acceptsBrotli('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsBrotli('BR;q=0.5')).toBe(true);
    expect(acceptsBrotli('br;q=0')).toBe(false);
    expect(acceptsBrotli('br;q=0.0, gzip')).toBe(false);
    expect(acceptsBrotli('gzip, brotli')).toBe(false);
    expect(acceptsBrotli(undefined)).toBe(false);
  });
});

describe('compressedModels', () => {
  const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

  it('compresses each key once, also when asked twice at once', async () => {
    const models = compressedModels();
    let reads = 0;
    const read = () => {
      reads++;
      return Promise.resolve(bytes(10_000, 7));
    };
    const [a, b] = await Promise.all([models.get('a.glb', read), models.get('a.glb', read)]);
    expect(a).toBe(b);
    expect(new Uint8Array(brotliDecompressSync(a!))).toEqual(bytes(10_000, 7));
    expect(await models.get('a.glb', read)).toBe(a);
    expect(reads).toBe(1);
  });

  it('compresses one model at a time: another asked meanwhile is not compressed, and not read', async () => {
    const models = compressedModels();
    let release!: (bytes: Uint8Array) => void;
    const slow = models.get('slow', () => new Promise((resolve) => (release = resolve)));
    let otherReads = 0;
    const other = () => {
      otherReads++;
      return Promise.resolve(bytes(100, 2));
    };
    await expect(models.get('other', other)).resolves.toBeUndefined();
    expect(otherReads).toBe(0);
    release(bytes(100, 3));
    expect(await slow).toBeDefined();
    // Once it is done, the next one goes.
    expect(await models.get('other', other)).toBeDefined();
    expect(otherReads).toBe(1);
  });

  it('keeps at most its size, dropping the least recently sent first', async () => {
    const reads: string[] = [];
    const read = (key: string, n: number) => () => {
      reads.push(key);
      // Random bytes barely compress, so each entry holds about n bytes.
      return Promise.resolve(crypto.getRandomValues(new Uint8Array(n)));
    };
    const models = compressedModels(25_000);
    await models.get('a', read('a', 10_000));
    await models.get('b', read('b', 10_000));
    await models.get('a', read('a', 10_000)); // a is now the most recent
    await models.get('c', read('c', 10_000)); // over the limit: b goes
    await models.get('a', read('a', 10_000));
    await models.get('b', read('b', 10_000));
    expect(reads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('answers undefined for a file that is gone, and tries again next time', async () => {
    const models = compressedModels();
    expect(await models.get('gone', () => Promise.resolve(undefined))).toBeUndefined();
    expect(await models.get('gone', () => Promise.resolve(bytes(100, 1)))).toBeDefined();
  });
});

/**
 * One contract for every storage (server/storage.ts): local disk, and an S3 bucket on a real
 * S3 server (Ceph's RADOS Gateway, which scripts/test.sh starts; the S3 half runs wherever
 * TEST_S3_ENDPOINT is set and CI always sets it). Then the same app on each storage: uploads,
 * /files with ranges and conditional requests, and the sweeper.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '../contract/schemas';
import { sweepFiles } from './file-sweeper';
import { StorageLimitError, UploadLengthError, type ListedFile, type Storage } from './storage';
import { dataOf, useRoleTokens, useTestApp } from './test-app';
import { glbOfSize, readPng, uploadFile } from './test-files';
import { testStorages, type TestStorage } from './test-storage';

const MB = 1024 * 1024;

/** `length` random bytes after a PNG signature, so they are stored as a .png. */
function pngish(length: number): Uint8Array {
  const bytes = new Uint8Array(randomBytes(length));
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

/** `bytes` as a stream of 64 KiB chunks, failing with `error` after `failAfter` bytes. */
function streamOf(bytes: Uint8Array, failAfter?: number, error = new Error('connection reset')) {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && at >= failAfter) controller.error(error);
      else if (at >= bytes.byteLength) controller.close();
      else {
        controller.enqueue(bytes.slice(at, at + 64 * 1024));
        at += 64 * 1024;
      }
    },
  });
}

async function listed(storage: Storage): Promise<ListedFile[]> {
  const files = [];
  for await (const file of storage.list()) files.push(file);
  return files;
}

/** A short stand-in for comparing bytes (toEqual walks a 6 MB array for seconds). */
const digest = (bytes: Uint8Array | undefined) =>
  bytes && `${bytes.byteLength} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`;

const bytesOf = (stream: ReadableStream<Uint8Array>) =>
  new Response(stream).arrayBuffer().then((buffer) => new Uint8Array(buffer));

describe.each(testStorages())('%s storage', (_name, open) => {
  let store: TestStorage;
  let storage: Storage;
  beforeAll(async () => {
    store = await open();
    storage = store.storage;
  });
  afterAll(() => store.close());

  const put = (bytes: Uint8Array, maxBytes = 100 * MB) =>
    storage.put(streamOf(bytes), { maxBytes });

  it('passes its readiness check while it can be used', async () => {
    await expect(storage.check()).resolves.toBeUndefined();
  });

  it('writes a file under a new key of its sniffed type and reads it back whole', async () => {
    const bytes = pngish(300_000);
    const file = await put(bytes);
    expect(file.key).toMatch(/^[0-9a-f]{24}\.png$/);
    expect(file).toMatchObject({ size: 300_000, contentType: 'image/png' });
    expect(await storage.stat(file.key)).toEqual(file);
    expect(digest(await storage.read(file.key))).toBe(digest(bytes));
    const found = await storage.get(file.key);
    expect(found?.file).toEqual(file);
    expect(digest(await bytesOf(found!.stream))).toBe(digest(bytes));
    const glb = await put(glbOfSize(1000));
    expect(glb.key).toMatch(/\.glb$/);
    expect(glb.contentType).toBe('model/gltf-binary');
  });

  it('streams a file of declared length (an upload with Content-Length) and reads it back', async () => {
    for (const bytes of [pngish(6 * MB + 7), glbOfSize(1000)]) {
      const file = await storage.put(streamOf(bytes), {
        maxBytes: 50 * MB,
        size: bytes.byteLength,
      });
      expect(file.size).toBe(bytes.byteLength);
      expect(await storage.stat(file.key)).toEqual(file);
      expect(digest(await storage.read(file.key))).toBe(digest(bytes));
    }
  });

  it('reads a range of bytes, and slices of the checked view read only theirs', async () => {
    const bytes = pngish(3 * MB);
    const file = await put(bytes);
    const found = await storage.get(file.key, { start: 1000, end: 1999 });
    expect(found?.file.size).toBe(3 * MB);
    expect(await bytesOf(found!.stream)).toEqual(bytes.slice(1000, 2000));
    const last = await storage.get(file.key, { start: 3 * MB - 1, end: 3 * MB - 1 });
    expect(await bytesOf(last!.stream)).toEqual(bytes.slice(-1));

    const blob = await storage.blob(file.key);
    expect(blob?.size).toBe(3 * MB);
    for (const [start, end] of [
      [0, 8],
      [2 * MB - 10, 2 * MB + 10],
      [5, 70_000],
      [3 * MB - 4, 3 * MB + 100],
    ] as const) {
      const slice = new Uint8Array(await blob!.slice(start, end).arrayBuffer());
      expect(slice).toEqual(bytes.slice(start, end));
    }
  });

  it('answers nothing for a missing file or a name that is not a key', async () => {
    for (const key of ['0123456789abcdef01234567.png', '../package.json', 'notes.txt', '']) {
      expect(await storage.stat(key)).toBeUndefined();
      expect(await storage.get(key)).toBeUndefined();
      expect(await storage.read(key)).toBeUndefined();
      expect(await storage.blob(key)).toBeUndefined();
      await expect(storage.delete(key)).resolves.toBeUndefined();
    }
  });

  it('deletes a file: gone from reads and from the list, and deleting again is fine', async () => {
    const file = await put(pngish(1000));
    await storage.delete(file.key);
    expect(await storage.stat(file.key)).toBeUndefined();
    expect(await storage.get(file.key)).toBeUndefined();
    expect((await listed(storage)).map((listedFile) => listedFile.key)).not.toContain(file.key);
    await storage.delete(file.key);
  });

  it('lists every complete file with its size, type and when it was stored', async () => {
    const before = Date.now();
    const files = [await put(pngish(100)), await put(glbOfSize(2000)), await put(pngish(7000))];
    const byKey = new Map((await listed(storage)).map((file) => [file.key, file]));
    for (const file of files) {
      const found = byKey.get(file.key);
      expect(found).toMatchObject(file);
      // Stored within this test (S3 keeps whole seconds).
      expect(found!.storedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(found!.storedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  describe('an upload that does not complete leaves nothing', () => {
    let before: string[];
    beforeAll(async () => {
      before = await store.leftovers();
    });
    afterAll(async () => {
      expect(await store.leftovers()).toEqual(before);
    });

    it('when the connection breaks after several parts', async () => {
      // Past two 5 MB parts: S3 has a multipart upload under way when it breaks.
      await expect(
        storage.put(streamOf(pngish(14 * MB), 12 * MB), { maxBytes: 50 * MB }),
      ).rejects.toThrow('connection reset');
      await expect(
        storage.put(streamOf(pngish(MB), 100_000), { maxBytes: 50 * MB }),
      ).rejects.toThrow('connection reset');
      expect(await store.leftovers()).toEqual(before);
    });

    it('when a body of declared length breaks, ends short of it or runs past it', async () => {
      const bytes = pngish(6 * MB);
      const size = bytes.byteLength;
      await expect(
        storage.put(streamOf(bytes, 3 * MB), { maxBytes: 50 * MB, size }),
      ).rejects.toThrow('connection reset');
      await expect(
        storage.put(streamOf(bytes), { maxBytes: 50 * MB, size: size + 1 }),
      ).rejects.toBeInstanceOf(UploadLengthError);
      await expect(
        storage.put(streamOf(bytes), { maxBytes: 50 * MB, size: size - 1 }),
      ).rejects.toBeInstanceOf(UploadLengthError);
      expect(await store.leftovers()).toEqual(before);
    });

    it('when it passes the byte limit', async () => {
      await expect(put(pngish(12 * MB), 11 * MB)).rejects.toBeInstanceOf(StorageLimitError);
      await expect(put(pngish(1000), 999)).rejects.toBeInstanceOf(StorageLimitError);
      expect(await store.leftovers()).toEqual(before);
    });

    it('when its first bytes are refused, before anything was written', async () => {
      const accept = () => {
        throw new Error('refused from its first bytes');
      };
      await expect(
        storage.put(streamOf(pngish(6 * MB)), { maxBytes: 50 * MB, accept }),
      ).rejects.toThrow('refused from its first bytes');
      expect(await store.leftovers()).toEqual(before);
    });
  });

  it('stores parallel uploads under their own keys, each with its own bytes', async () => {
    const contents = Array.from({ length: 8 }, (_, index) =>
      pngish(index === 0 ? 6 * MB : 50_000 + index),
    );
    const files = await Promise.all(contents.map((bytes) => put(bytes)));
    expect(new Set(files.map((file) => file.key)).size).toBe(8);
    for (const [index, file] of files.entries()) {
      expect(digest(await storage.read(file.key))).toBe(digest(contents[index]));
    }
  });

  it('removes partial uploads a crash left only once they are older than asked', async () => {
    await store.leavePartial('0123456789abcdef01234567.glb');
    const keys = (await listed(storage)).map((file) => file.key);
    expect(keys).not.toContain('0123456789abcdef01234567.glb');
    expect(await storage.removeIncomplete(new Date(Date.now() - 60_000))).toBe(0);
    expect(await storage.removeIncomplete(new Date(Date.now() + 60_000))).toBe(1);
    expect(await storage.removeIncomplete(new Date(Date.now() + 60_000))).toBe(0);
  });
});

describe.each(testStorages())('the app on %s storage', (_name, open) => {
  const t = useTestApp({}, { storage: open });
  const tokens = useRoleTokens(t);
  /** The raw answer of the app (binary bodies intact). */
  const fetchFile = (url: string, headers: Record<string, string> = {}) =>
    t.app.request(url, { headers });

  it('serves an upload whole, by range and conditionally', async () => {
    const png = readPng();
    const upload: UploadResult = await uploadFile(t.request, 'icon', png, tokens.developer);
    const whole = await fetchFile(upload.url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(png.byteLength));
    expect(digest(new Uint8Array(await whole.arrayBuffer()))).toBe(digest(png));
    const etag = whole.headers.get('etag')!;

    const part = await fetchFile(upload.url, { range: 'bytes=8-23' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 8-23/${png.byteLength}`);
    expect(part.headers.get('content-length')).toBe('16');
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(png.slice(8, 24));

    const tail = await fetchFile(upload.url, { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(png.slice(-10));
    const open = await fetchFile(upload.url, { range: `bytes=${png.byteLength - 3}-` });
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(png.slice(-3));

    const past = await fetchFile(upload.url, { range: `bytes=${png.byteLength}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${png.byteLength}`);
    // Several ranges, a stale If-Range or a malformed Range: the whole file.
    for (const headers of <Record<string, string>[]>[
      { range: 'bytes=0-1,5-6' },
      { range: 'bytes=0-9', 'if-range': '"another-version"' },
      { range: 'lines=1-2' },
      { range: 'bytes=9-2' },
    ]) {
      const answer = await fetchFile(upload.url, headers);
      expect(answer.status).toBe(200);
      expect((await answer.arrayBuffer()).byteLength).toBe(png.byteLength);
    }
    const current = await fetchFile(upload.url, { range: 'bytes=0-9', 'if-range': etag });
    expect(current.status).toBe(206);

    const unchanged = await fetchFile(upload.url, { 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    const missing = upload.url.replace(/[0-9a-f]{24}/, '0123456789abcdef01234567');
    expect((await fetchFile(missing, { 'if-none-match': '*' })).status).toBe(404);
    expect((await fetchFile(missing, { range: 'bytes=0-1' })).status).toBe(404);
  });

  it('checks uploads as on disk: a damaged PNG and a wrong type are refused and not kept', async () => {
    const before = (await listed(t.storage)).length;
    const damaged = readPng().slice();
    damaged[40] = (damaged[40]! + 1) % 256;
    const refused = await t.request('POST', '/v1/uploads/icon', {
      bytes: damaged,
      token: tokens.developer,
    });
    expect(refused.status).toBe(400);
    const wrongType = await t.request('POST', '/v1/uploads/icon', {
      bytes: glbOfSize(200),
      token: tokens.developer,
    });
    expect(wrongType.status).toBe(415);
    expect((await listed(t.storage)).length).toBe(before);
  });

  it('the sweeper removes files nothing refers to and keeps referenced ones', async () => {
    const kept = await uploadFile(t.request, 'icon', readPng(), tokens.developer);
    const abandoned = await uploadFile(t.request, 'icon', readPng(), tokens.developer);
    dataOf(
      await t.post(
        '/v1/assets',
        { name: 'Kept', type: 'top', gender: 'male', iconUrl: kept.url },
        tokens.developer,
      ),
    );
    const swept = await sweepFiles(
      { db: t.db, storage: t.storage },
      new Date(Date.now() + 48 * 3600_000),
    );
    expect(swept.unreferenced).toBeGreaterThanOrEqual(1);
    expect((await fetchFile(abandoned.url)).status).toBe(404);
    expect((await fetchFile(kept.url)).status).toBe(200);
  });
});

import { readdir } from 'node:fs/promises';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { uploadResultSchema } from '../contract/schemas';
import { MB } from '../core/files/rules';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';
import { glbOfSize, jpegBytes, psdBytes, readAvatar, readPng, uploadFile } from './test-files';

const t = useTestApp();

const upload = (kind: string, bytes: Uint8Array | ReadableStream<Uint8Array>, token?: string) =>
  t.request('POST', `/v1/uploads/${kind}`, { bytes, token });

/** A stream of `total` bytes in 64 KiB chunks, starting with `head`; counts what was pulled. */
function streamOf(head: Uint8Array, total: number) {
  const pulled = { bytes: 0 };
  const chunk = 64 * 1024;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close();
      const part = new Uint8Array(Math.min(chunk, total - pulled.bytes));
      if (pulled.bytes === 0) part.set(head.subarray(0, part.length));
      pulled.bytes += part.length;
      controller.enqueue(part);
    },
  });
  return { stream, pulled };
}

/** Stored files (temporary partial uploads included). */
const storedFiles = async () => readdir(t.storageDir).catch(() => []);

const tokens = useRoleTokens(t);

/** The app's raw answer (t.request reads bodies as text). */
const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(path, { headers: { 'x-forwarded-for': '203.0.113.9', ...headers } });
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

describe('POST /v1/uploads/{kind}', () => {
  it('stores a model and serves the same bytes back', async () => {
    const { developer } = tokens;
    const bytes = readAvatar('spawn-effect.glb');
    const stored = await uploadFile(t.request, 'model', bytes, developer);
    expect(stored.url).toMatch(/^\/files\/[0-9a-f]{24}\.glb$/);
    expect(stored).toMatchObject({ size: bytes.byteLength, contentType: 'model/gltf-binary' });

    const response = await get(stored.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('model/gltf-binary');
    expect(await bytesOf(response)).toEqual(bytes);
  });

  it('accepts each kind with the types its rule lists, whatever Content-Type the client says', async () => {
    const { admin } = tokens;
    const cases = [
      ['icon', readPng(), 'image/png'],
      ['texture', readPng('basn2c08.png'), 'image/png'],
      ['texture', await jpegBytes(), 'image/jpeg'],
      ['source', psdBytes(), 'image/vnd.adobe.photoshop'],
    ] as const;
    for (const [kind, bytes, contentType] of cases) {
      const response = await t.request('POST', `/v1/uploads/${kind}`, {
        bytes,
        token: admin,
        headers: { 'content-type': 'text/plain' },
      });
      expect(uploadResultSchema.parse(dataOf(response)).contentType).toBe(contentType);
    }
  });

  it('is for roles that edit assets: 401 without a token, 403 for users and anonymous users', async () => {
    const { user, anonymous } = tokens;
    expectError(await upload('icon', readPng()), 401, 'UNAUTHORIZED');
    expectError(await upload('icon', readPng(), user), 403, 'FORBIDDEN');
    expectError(await upload('model', glbOfSize(100), anonymous), 403, 'FORBIDDEN');
  });

  it('refuses a type the kind does not accept (415), judged by the bytes', async () => {
    const { admin } = tokens;
    const error = expectError(
      await t.request('POST', '/v1/uploads/model', {
        bytes: readPng(),
        token: admin,
        headers: { 'content-type': 'model/gltf-binary' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(error.message).toBe('This file is a PNG image, not a glTF binary model (.glb)');
    const text = expectError(
      await upload('model', new TextEncoder().encode('{"asset":{}}'.repeat(9)), admin),
      415,
    );
    expect(text.message).toBe('This file is text, not a glTF binary model (.glb)');
    expectError(await upload('icon', await jpegBytes(), admin), 415);
    expectError(await upload('source', readPng(), admin), 415);
    expect(await storedFiles()).not.toContainEqual(expect.stringMatching(/^\.upload-/));
  });

  it('answers 413 from Content-Length before reading the body', async () => {
    const { admin } = tokens;
    const { stream, pulled } = streamOf(readPng(), 6 * MB);
    const response = await t.request('POST', '/v1/uploads/icon', {
      bytes: stream,
      token: admin,
      headers: { 'content-length': String(5 * MB + 1) },
    });
    expect(expectError(response, 413, 'PAYLOAD_TOO_LARGE').message).toBe(
      'An icon is at most 5 MB (5242880 bytes)',
    );
    expect(pulled.bytes).toBeLessThan(1 * MB);
  });

  it('answers 413 while streaming a body without Content-Length and keeps no partial file', async () => {
    const { admin } = tokens;
    const before = await storedFiles();
    const { stream, pulled } = streamOf(glbOfSize(64), 50 * MB + 1);
    expectError(
      await t.request('POST', '/v1/uploads/model', { bytes: stream, token: admin }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expect(pulled.bytes).toBeGreaterThan(50 * MB);
    expect(await storedFiles()).toEqual(before);
  });

  it('is not held to the 1 MB limit of JSON bodies', async () => {
    const { admin } = tokens;
    const stored = await uploadFile(t.request, 'model', glbOfSize(3 * MB), admin);
    expect(stored.size).toBe(3 * MB);
  });

  it('refuses empty, too small and damaged files and images that break the icon rules (400)', async () => {
    const { admin } = tokens;
    const before = await storedFiles();
    const message = async (kind: string, bytes: Uint8Array) =>
      expectError(await upload(kind, bytes, admin), 400, 'VALIDATION_ERROR').message;

    expect(await message('icon', new Uint8Array(0))).toBe('The file is empty');
    expect(await message('icon', readPng().subarray(0, 40))).toBe(
      'An icon is at least 67 bytes; this file has 40',
    );
    const version1 = glbOfSize(100);
    version1[4] = 1;
    expect(await message('model', version1)).toBe(
      'fileInput.notGlb: glTF version 1: only version 2 is supported',
    );
    expect(await message('model', readAvatar('maleIdle.glb').subarray(0, 5000))).toBe(
      'fileInput.corrupt: The header gives a length of 505192 bytes but the file has 5000',
    );
    // An animation clip has nothing to show where every model is something to see.
    expect(await message('model', readAvatar('female-idle.glb'))).toBe(
      'fileInput.noMesh: The model has no mesh to show (an animation clip or a bare skeleton)',
    );
    // basn2c08.png is RGB; the icon must be RGBA.
    expect(await message('icon', readPng('basn2c08.png'))).toBe(
      'fileInput.wrongColorType: expected rgba, actual rgb',
    );
    // PngSuite's x*.png files are damaged on purpose (here a broken IHDR checksum).
    expect(await message('texture', readPng('xcsn0g01.png'))).toMatch(/^fileInput\.corrupt: /);
    expect(await storedFiles()).toEqual(before);
  });

  it('refuses an unknown kind', async () => {
    const { admin } = tokens;
    expectError(await upload('video', readPng(), admin), 400, 'VALIDATION_ERROR');
  });
});

describe('GET /files/{key}', () => {
  it('serves without a token, with its type, length and a year of immutable caching', async () => {
    const { admin } = tokens;
    const bytes = readPng();
    const { url } = await uploadFile(t.request, 'icon', bytes, admin);
    const response = await t.request('GET', url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('etag')).toBe(`"${url.slice('/files/'.length)}"`);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const { admin } = tokens;
    const { url } = await uploadFile(t.request, 'icon', readPng(), admin);
    const etag = (await t.request('GET', url)).headers.get('etag')!;
    const response = await t.request('GET', url, {
      headers: { 'if-none-match': `"other", ${etag}` },
    });
    expect(response.status).toBe(304);
    expect(response.body).toBe('');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await t.request('GET', url, { headers: { 'if-none-match': '"other"' } })).status).toBe(
      200,
    );
  });

  it('answers 404 for unknown and malformed keys, so no path leaves the files folder', async () => {
    for (const path of [
      '/files/0123456789abcdef01234567.png',
      '/files/..%2F..%2Fpackage.json',
      '/files/..%2Fserver%2Fapp.ts',
      '/files/%2Fetc%2Fpasswd',
      '/files//etc/passwd',
      '/files/a/b',
      '/files/0123456789ABCDEF01234567.png',
      '/files/0123456789abcdef01234567.exe',
    ]) {
      expectError(await t.request('GET', path), 404, 'NOT_FOUND');
    }
    // A NUL never reaches the route (refused for every URL).
    expectError(await t.request('GET', '/files/0123456789abcdef01234567%00.png'), 400);
  });
});

describe('GET /files/{key} of a model, brotli-compressed', () => {
  it('sends a model compressed to a client that accepts brotli, and the same bytes once inflated', async () => {
    const bytes = readAvatar('female-animation-catwalk.glb');
    const { url } = await uploadFile(t.request, 'model', bytes, tokens.admin);
    const key = url.slice('/files/'.length);

    const compressed = await get(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(compressed.headers.get('content-type')).toBe('model/gltf-binary');
    expect(compressed.headers.get('vary')).toBe('Accept-Encoding');
    expect(compressed.headers.get('etag')).toBe(`"${key}.br"`);
    const body = await bytesOf(compressed);
    expect(compressed.headers.get('content-length')).toBe(String(body.byteLength));
    // The 814 KB fixture is sent in about half its bytes.
    expect(body.byteLength).toBeLessThan(bytes.byteLength * 0.65);
    expect(new Uint8Array(brotliDecompressSync(body))).toEqual(bytes);
    // The second answer comes from the cache: the same bytes.
    expect(await bytesOf(await get(url, { 'accept-encoding': 'br' }))).toEqual(body);

    // Its own tag revalidates only that representation.
    const revalidated = await get(url, { 'accept-encoding': 'br', 'if-none-match': `"${key}.br"` });
    expect(revalidated.status).toBe(304);
    expect((await get(url, { 'if-none-match': `"${key}.br"` })).status).toBe(200);
  });

  it('sends the file as it is without brotli, to q=0, for a range, and never other types', async () => {
    const bytes = readAvatar('spawn-effect.glb');
    const { url } = await uploadFile(t.request, 'model', bytes, tokens.admin);
    for (const headers of [
      {} as Record<string, string>,
      { 'accept-encoding': 'gzip, deflate' },
      { 'accept-encoding': 'br;q=0, gzip' },
    ]) {
      const response = await get(url, headers);
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(response.headers.get('vary')).toBe('Accept-Encoding');
      expect(await bytesOf(response)).toEqual(bytes);
    }
    const part = await get(url, { 'accept-encoding': 'br', range: 'bytes=0-11' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-encoding')).toBeNull();
    expect(await bytesOf(part)).toEqual(bytes.slice(0, 12));

    const { url: icon } = await uploadFile(t.request, 'icon', readPng(), tokens.admin);
    const image = await get(icon, { 'accept-encoding': 'br' });
    expect(image.headers.get('content-encoding')).toBeNull();
    expect(image.headers.get('vary')).toBeNull();
  });
});

describe('original file names', () => {
  const named = (name: string | undefined, token: string) =>
    t.request('POST', '/v1/uploads/model', {
      bytes: readAvatar('spawn-effect.glb'),
      token,
      ...(name === undefined ? {} : { headers: { 'x-file-name': name } }),
    });

  it('keeps the name the upload gave, answers it with the size, and downloads under it', async () => {
    const { developer } = tokens;
    const stored = uploadResultSchema.parse(
      dataOf(await named(encodeURIComponent('Zoë avatar (final).glb'), developer)),
    );
    expect(stored.name).toBe('Zoë avatar (final).glb');
    const key = stored.url.slice('/files/'.length);
    expect(dataOf(await t.get(`/v1/files/${key}`, developer))).toEqual({
      url: stored.url,
      name: 'Zoë avatar (final).glb',
      size: readAvatar('spawn-effect.glb').byteLength,
      contentType: 'model/gltf-binary',
    });
    // Served inline as before; ?download saves under the original name.
    expect((await t.request('GET', stored.url)).headers.get('content-disposition')).toBeNull();
    const download = await t.request('GET', `${stored.url}?download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Zo_ avatar (final).glb"; filename*=UTF-8''Zo%C3%AB%20avatar%20%28final%29.glb`,
    );
  });

  it('keeps only the last path segment, without control characters, and names nameless uploads by kind', async () => {
    const { developer } = tokens;
    const nameOf = async (header: string | undefined) =>
      uploadResultSchema.parse(dataOf(await named(header, developer))).name;
    expect(await nameOf(encodeURIComponent('C:\\Users\\me\\..\\secret/../a\u0000b.glb'))).toBe(
      'ab.glb',
    );
    expect(await nameOf(encodeURIComponent('../..'))).toBe('model.glb');
    expect(await nameOf('%E0%A4%A')).toBe('model.glb');
    expect(await nameOf(undefined)).toBe('model.glb');
    expect(await nameOf(encodeURIComponent('x'.repeat(500)))).toHaveLength(200);
  });

  it('names a file stored before names were kept by its key, and answers 404 for unknown keys and to strangers', async () => {
    const { developer } = tokens;
    const stored = uploadResultSchema.parse(dataOf(await named(undefined, developer)));
    const key = stored.url.slice('/files/'.length);
    await t.db.query('DELETE FROM stored_files WHERE key = $1', [key]);
    expect(dataOf(await t.get(`/v1/files/${key}`, developer))).toMatchObject({ name: key });
    expect((await t.get('/v1/files/000000000000000000000000.glb', developer)).status).toBe(404);
    expect((await t.get('/v1/files/..%2Fsecret', developer)).status).toBe(404);
    expect((await t.get(`/v1/files/${key}`)).status).toBe(401);
  });
});

/**
 * The bucket unreachable: the S3 storage points at a gate in front of the test's S3 server
 * (Ceph's RADOS Gateway) that the test closes, as a stopped or cut-off object store. Uploads
 * and downloads answer a clear 503 to retry, nothing is half-stored, and both work again once
 * the bucket is back, without a restart.
 */
import { describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../contract/schemas';
import { startTcpGate, type TcpGate } from '../tests/helpers/tcp-gate';
import { createS3Client, createS3Storage } from './s3-storage';
import { useTestApp, useRoleTokens, type JsonResponse } from './test-app';
import { readPng, uploadFile } from './test-files';
import { captureLog } from './test-log';
import { s3TestStorage, testS3Settings, type TestStorage } from './test-storage';

const settings = testS3Settings();
let gate: TcpGate | undefined;
let direct: TestStorage | undefined;

const t = useTestApp(
  {},
  {
    storage: async () => {
      // The bucket is made and emptied through the S3 server itself; the app reaches it
      // through the gate only.
      direct = await s3TestStorage(settings!);
      const endpoint = new URL(settings!.endpoint!);
      gate = await startTcpGate({ host: endpoint.hostname, port: Number(endpoint.port) });
      const bucket = direct.s3!.bucket;
      const client = createS3Client({
        ...settings!,
        bucket,
        endpoint: `http://${gate.host}:${gate.port}`,
      });
      return {
        ...direct,
        storage: createS3Storage(client, bucket),
        close: async () => {
          client.destroy();
          await gate?.stop();
          await direct?.close();
        },
      };
    },
  },
);
const tokens = useRoleTokens(t);

function expectStorageUnavailable(response: JsonResponse) {
  expect(response.status, JSON.stringify(response.body)).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  const body = apiErrorSchema.parse(response.body);
  expect(body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(body.message).toMatch(/file store is unavailable/i);
}

const storedRows = async () =>
  (await t.db.query<{ key: string }>('SELECT key FROM stored_files ORDER BY key')).rows.map(
    (row) => row.key,
  );

/** A PNG as a stream of unknown length (a multipart upload to the bucket). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

describe.runIf(settings !== undefined)('the bucket unreachable', () => {
  it('answers uploads and downloads 503 with Retry-After, stores nothing, and works again once it is back', async () => {
    const { admin } = tokens;
    const png = readPng();
    const existing = await uploadFile(t.request, 'icon', png, admin);
    const rowsBefore = await storedRows();
    const objectsBefore = (await direct!.leftovers()).sort();
    const log = captureLog();

    await gate!.close();
    try {
      const during: { what: string; status: number; ms: number }[] = [];
      const timed = async (what: string, send: () => Promise<JsonResponse>) => {
        const started = performance.now();
        const response = await send();
        during.push({ what, status: response.status, ms: performance.now() - started });
        return response;
      };
      // Its length declared (one PUT) and not (a multipart upload).
      expectStorageUnavailable(
        await timed('upload', () =>
          t.request('POST', '/v1/uploads/icon', { bytes: png, token: admin }),
        ),
      );
      expectStorageUnavailable(
        await timed('chunked upload', () =>
          t.request('POST', '/v1/uploads/icon', { bytes: streamOf(png), token: admin }),
        ),
      );
      expectStorageUnavailable(await timed('download', () => t.get(existing.url)));
      expectStorageUnavailable(
        await timed('file info', () => t.get(`/v1/files/${existing.url.slice(7)}`, admin)),
      );
      expect(
        during.every(({ ms }) => ms < 10_000),
        JSON.stringify(during),
      ).toBe(true);
    } finally {
      await gate!.open();
    }
    // Nothing half-stored: no row for a file, no object or multipart upload in the bucket.
    expect(await storedRows()).toEqual(rowsBefore);
    expect((await direct!.leftovers()).sort()).toEqual(objectsBefore);

    const download = await t.app.request(existing.url);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(png);
    const again = await uploadFile(t.request, 'icon', png, admin);
    expect((await t.app.request(again.url)).status).toBe(200);
    // Logged once when it went and once when it came back, not once per request.
    const lines = log.entries().map((entry) => String(entry.msg));
    expect(lines.filter((line) => /bucket .* is unavailable/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /bucket .* is available again/.test(line))).toHaveLength(1);
    expect(log.entries().filter((entry) => entry.status === 500)).toEqual([]);
  }, 60_000);

  it('answers 503 within seconds, not minutes, while the bucket takes connections and never answers', async () => {
    const { admin } = tokens;
    const existing = await uploadFile(t.request, 'icon', readPng(), admin);
    gate!.hang(true);
    try {
      // Both at once: each waits out the SDK's time limit and retries on its own connection.
      const started = performance.now();
      const [download, info] = await Promise.all([
        t.get(existing.url),
        t.get(`/v1/files/${existing.url.slice(7)}`, admin),
      ]);
      expectStorageUnavailable(download);
      expectStorageUnavailable(info);
      expect(performance.now() - started).toBeLessThan(45_000);
    } finally {
      gate!.hang(false);
    }
    expect((await t.app.request(existing.url)).status).toBe(200);
  }, 90_000);
});

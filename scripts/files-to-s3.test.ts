/**
 * Moving an installation's files from disk into a bucket (npm run files:to-s3) on the test S3
 * server: every file arrives under its key with its bytes, a second run copies nothing, a run
 * after an interruption copies only what is missing, and a bucket copy that differs is replaced.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glbOfSize, readPng } from '../server/test-files';
import { localTestStorage, testStorages, type TestStorage } from '../server/test-storage';
import { copyFilesToS3 } from './files-to-s3';

const s3 = testStorages().find(([name]) => name === 'S3')?.[1];

describe.runIf(s3)('files:to-s3', () => {
  let disk: TestStorage;
  let bucket: TestStorage;
  beforeAll(async () => {
    disk = await localTestStorage();
    bucket = await s3!();
  });
  afterAll(async () => {
    await disk.close();
    await bucket.close();
  });

  it('copies every file with its checksum, resumes, and skips what is already there', async () => {
    const { client, bucket: name } = bucket.s3!;
    const put = (bytes: Uint8Array) =>
      disk.storage.put(new Blob([new Uint8Array(bytes)]).stream(), { maxBytes: 1e9 });
    const files = [
      await put(readPng()),
      await put(glbOfSize(7 * 1024 * 1024)),
      await put(readPng('basn0g01.png')),
    ];
    const dir = disk.dir!;

    expect(await copyFilesToS3(dir, client, name)).toEqual({ copied: 3, skipped: 0, failed: [] });
    // A copy that differs (an interrupted or foreign write) is made again; the others are kept.
    await client.send(new PutObjectCommand({ Bucket: name, Key: files[2]!.key, Body: 'damaged' }));
    expect(await copyFilesToS3(dir, client, name)).toEqual({ copied: 1, skipped: 2, failed: [] });
    expect(await copyFilesToS3(dir, client, name)).toEqual({ copied: 0, skipped: 3, failed: [] });

    for (const file of files) {
      const copy = await bucket.storage.read(file.key);
      const original = new Uint8Array(await readFile(join(dir, file.key)));
      expect(Buffer.compare(copy!, original)).toBe(0);
      expect(await bucket.storage.stat(file.key)).toEqual(file);
    }
  });
});

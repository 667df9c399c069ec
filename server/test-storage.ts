/**
 * The storages the contract tests run against: local disk in a fresh folder always, and an
 * S3 bucket of its own (created and emptied and removed afterwards) when TEST_S3_ENDPOINT,
 * TEST_S3_ACCESS_KEY_ID and TEST_S3_SECRET_ACCESS_KEY name an S3 server (scripts/test.sh
 * starts Ceph's RADOS Gateway for them, scripts/ceph.sh).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { S3Settings } from './config';
import { createS3Client, createS3Storage } from './s3-storage';
import { createLocalStorage, type Storage } from './storage';

export interface TestStorage {
  storage: Storage;
  /** Everything the store holds, partial uploads included, by name. */
  leftovers(): Promise<string[]>;
  /** Leaves a partial upload as a crashed process would (under `key` where the store names it). */
  leavePartial(key: string): Promise<void>;
  close(): Promise<void>;
  /** The folder of the local storage. */
  dir?: string;
  /** The bucket and its client, for the S3 storage. */
  s3?: { client: S3Client; bucket: string };
}

/** The S3 settings of the test server (a bucket name filled in per use), or undefined. */
export function testS3Settings(): S3Settings | undefined {
  const env = process.env;
  if (!env.TEST_S3_ENDPOINT) return undefined;
  return {
    endpoint: env.TEST_S3_ENDPOINT,
    bucket: '',
    region: 'us-east-1',
    accessKeyId: env.TEST_S3_ACCESS_KEY_ID,
    secretAccessKey: env.TEST_S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
  };
}

export async function localTestStorage(): Promise<TestStorage> {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-studio-files-'));
  return {
    storage: createLocalStorage(dir),
    leftovers: () => readdir(dir),
    leavePartial: () => writeFile(join(dir, `.upload-${randomBytes(12).toString('hex')}`), 'x'),
    close: () => rm(dir, { recursive: true, force: true }),
    dir,
  };
}

/** A new empty bucket on the test S3 server. */
export async function s3TestStorage(settings: S3Settings): Promise<TestStorage> {
  const bucket = `test-${process.pid}-${randomBytes(6).toString('hex')}`;
  const client = createS3Client({ ...settings, bucket });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const leftovers = async () => {
    const objects = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
    return [
      ...(objects.Contents ?? []).map((object) => object.Key!),
      ...(uploads.Uploads ?? []).map((upload) => `multipart upload of ${upload.Key!}`),
    ];
  };
  return {
    storage: createS3Storage(client, bucket),
    leftovers,
    async leavePartial(key) {
      await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    },
    close: () => removeBucket(client, bucket),
    s3: { client, bucket },
  };
}

async function removeBucket(client: S3Client, bucket: string) {
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  for (const upload of uploads.Uploads ?? []) {
    await client.send(
      new AbortMultipartUploadCommand({
        Bucket: bucket,
        Key: upload.Key,
        UploadId: upload.UploadId,
      }),
    );
  }
  for (;;) {
    const objects = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    if (!objects.Contents?.length) break;
    await Promise.all(
      objects.Contents.map((object) =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key })),
      ),
    );
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  client.destroy();
}

/**
 * The storages to test, by name: local disk, and S3 when a test server is configured. CI
 * (CI=true) always configures one: there a missing one is an error, never a skipped run.
 */
export function testStorages(): [string, () => Promise<TestStorage>][] {
  const s3 = testS3Settings();
  if (!s3 && process.env.CI === 'true') {
    throw new Error(
      'CI=true but TEST_S3_ENDPOINT is not set: scripts/test.sh starts Ceph for the S3 tests',
    );
  }
  return [
    ['local disk', localTestStorage],
    ...(s3 ? [['S3', () => s3TestStorage(s3)] as [string, () => Promise<TestStorage>]] : []),
  ];
}

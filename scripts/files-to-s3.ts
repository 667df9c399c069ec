/**
 * `npm run files:to-s3`: copies the stored files of DATA_DIR/files into the S3 bucket the S3_*
 * settings name (docs/operating.md "Files in an S3 bucket"), under the same keys, so the database's /files/<key>
 * addresses keep working once the instances use the bucket.
 *
 * Each file's SHA-256 is computed from the disk, sent with the object (metadata `sha256`), and
 * checked against the bucket's copy read back in full; a copy that does not match is removed
 * and reported. A file already in the bucket with the same size and checksum is skipped, so
 * the command can be stopped at any point and run again.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { loadConfig } from '../server/config';
import { checkBucket, createS3Client } from '../server/s3-storage';
import { createLocalStorage } from '../server/storage';

export interface CopyResult {
  copied: number;
  /** Already in the bucket with the same size and checksum. */
  skipped: number;
  /** Keys whose copy did not match (removed from the bucket again) or could not be made. */
  failed: string[];
}

async function sha256(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest('hex');
}

/** The checksum the bucket's copy of `key` was written with, when its size is `size`. */
async function storedChecksum(client: S3Client, bucket: string, key: string, size: number) {
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return head.ContentLength === size ? head.Metadata?.sha256 : undefined;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
      return undefined;
    throw error;
  }
}

/** Copies every stored file of `dir` into `bucket`; see the file's comment. */
export async function copyFilesToS3(
  dir: string,
  client: S3Client,
  bucket: string,
  log: (line: string) => void = () => undefined,
): Promise<CopyResult> {
  const result: CopyResult = { copied: 0, skipped: 0, failed: [] };
  for await (const file of createLocalStorage(dir).list()) {
    const path = join(dir, file.key);
    const checksum = await sha256(createReadStream(path));
    if ((await storedChecksum(client, bucket, file.key, file.size)) === checksum) {
      result.skipped += 1;
      continue;
    }
    try {
      await new Upload({
        client,
        params: {
          Bucket: bucket,
          Key: file.key,
          Body: createReadStream(path),
          ContentType: file.contentType,
          Metadata: { sha256: checksum },
        },
        queueSize: 1,
        leavePartsOnError: false,
      }).done();
      const copy = await client.send(new GetObjectCommand({ Bucket: bucket, Key: file.key }));
      const copied = await sha256(copy.Body as AsyncIterable<Uint8Array>);
      if (copied !== checksum) {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: file.key }));
        throw new Error(`the bucket's copy has SHA-256 ${copied}, the file ${checksum}`);
      }
      result.copied += 1;
      log(`copied ${file.key} (${file.size} bytes)`);
    } catch (error) {
      result.failed.push(file.key);
      log(`FAILED ${file.key}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return result;
}

async function main() {
  const config = loadConfig();
  if (!config.s3) {
    throw new Error('Set S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)');
  }
  const client = createS3Client(config.s3);
  await checkBucket(client, config.s3.bucket);
  const dir = join(config.dataDir, 'files');
  console.log(`Copying ${dir} into the S3 bucket ${config.s3.bucket}…`);
  const result = await copyFilesToS3(dir, client, config.s3.bucket, (line) => console.log(line));
  console.log(
    `${result.copied} copied, ${result.skipped} already there, ${result.failed.length} failed.`,
  );
  if (result.failed.length > 0) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

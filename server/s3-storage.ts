/**
 * Storage in an S3 bucket (AWS S3, Ceph's RADOS Gateway, MinIO…), so every instance of the
 * server sees the same files. Chosen by the S3_* settings (server/config.ts).
 *
 * - An upload's first bytes are sniffed (and refused) before anything is sent, which gives the
 *   key; the rest streams to the bucket: as one PUT when its length was declared (an upload's
 *   Content-Length), holding nothing, else as a multipart upload of PART_SIZE parts, one part
 *   in memory at a time (a file smaller than one part is one PUT). A refused or interrupted upload
 *   aborts its multipart upload, so nothing is left; one a crash left behind is invisible to
 *   `list` and aborted by `removeIncomplete`, like local partial files.
 * - Objects are named by their key at the top of the bucket; `list` reports only names that
 *   are keys, so other objects in the bucket are left alone.
 */
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import type { ByteSource } from '../core/files/bytes';
import type { S3Settings } from './config';
import { log } from './log';
import {
  contentTypeOfKey,
  newKey,
  sniffUpload,
  StorageUnavailableError,
  type Storage,
  type StoredFile,
} from './storage';

/** The smallest part S3 accepts (but the last); one part is held in memory per upload. */
const PART_SIZE = 5 * 1024 * 1024;

/** Bytes fetched per ranged read when checking a stored file (see `blob`). */
const READ_WINDOW = 1024 * 1024;

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // A stopped or cut-off bucket fails a request in seconds rather than never: connecting is
    // bounded, and so is a connection that stops moving (an upload's socket waits for its
    // uploader's bytes, hence a minute); the calls that send no file also bound the wait for
    // the answer's headers (QUICK).
    requestHandler: { connectionTimeout: 5000, socketTimeout: 60_000, throwOnRequestTimeout: true },
    // Checksums only where S3 requires them: S3-compatible stores (Ceph before Squid, MinIO
    // releases) refuse the SDK's default trailing CRC32 on streamed bodies.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * For the calls that send no file (HEAD, DELETE, a download until its headers): a bucket that
 * takes the connection and does not answer in this long counts as unavailable, after the SDK's
 * retries about three times this.
 */
const QUICK = { requestTimeout: 5000 };

/** True for an S3 error that means the object (or bucket) does not exist. */
function isNotFound(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === 404;
}

/**
 * Checks at start that the bucket exists and the credentials may use it, throwing an error
 * that says which (the SDK's own for a 403 is an empty "UnknownError").
 */
export async function checkBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }), QUICK);
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const reason =
      status === 404
        ? 'it does not exist'
        : status === 403 || status === 401
          ? 'the credentials (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) may not use it'
          : error instanceof Error
            ? error.message
            : String(error);
    throw new Error(`The S3 bucket ${JSON.stringify(bucket)} cannot be used: ${reason}`, {
      cause: error,
    });
  }
}

/**
 * True for a failure of the bucket itself (unreachable, timed out, a 5xx answer) after the
 * SDK's own retries, as opposed to an answer about the request (404, 403) or an upload that
 * was refused or given up by its sender.
 */
function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error) || !('$metadata' in error) || error.name === 'AbortError') {
    return false;
  }
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status === undefined || status >= 500;
}

/**
 * Turns the bucket's failures into StorageUnavailableError (a 503 to retry) for every command
 * `client` sends, paginated and multipart ones included, and logs an outage once when it
 * starts and once when it ends rather than once per request.
 */
function reportOutages(client: S3Client, bucket: string): void {
  let down = false;
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        const answer = await next(args);
        if (down) {
          down = false;
          log.info(`The S3 bucket ${bucket} is available again`);
        }
        return answer;
      } catch (error) {
        if (!isUnavailable(error)) throw error;
        if (!down) {
          down = true;
          log.error({ err: error }, `The S3 bucket ${bucket} is unavailable`);
        }
        throw new StorageUnavailableError(error);
      }
    },
    { step: 'initialize', name: 'reportOutages' },
  );
}

/** Storage in `bucket` through `client`. */
export function createS3Storage(client: S3Client, bucket: string): Storage {
  reportOutages(client, bucket);
  const read = async (key: string, start: number, end: number) => {
    const found = await storage.get(key, { start, end });
    if (!found) throw new Error(`The stored file ${key} disappeared`);
    return new Uint8Array(await new Response(found.stream).arrayBuffer());
  };

  const storage: Storage = {
    async put(body, options) {
      const { contentType, chunks, size } = await sniffUpload(body, options);
      const key = newKey(contentType);
      if (options.size !== undefined && options.size <= options.maxBytes) {
        // Its length known, a file streams to the bucket as one PUT and nothing is held: 25
        // concurrent 5 MB uploads held 5 MB each as a part. A PUT is stored whole or not at all.
        // The SDK does not end its request when the body fails: the failure aborts it.
        const abort = new AbortController();
        let failure: unknown;
        const body = Readable.from(
          (async function* () {
            try {
              yield* chunks;
            } catch (error) {
              failure = error;
              abort.abort();
            }
          })(),
        );
        try {
          await client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: body,
              ContentLength: options.size,
              ContentType: contentType,
            }),
            { abortSignal: abort.signal },
          );
        } catch (error) {
          throw failure ?? error;
        }
        return { key, size: size(), contentType };
      }
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key, Body: Readable.from(chunks), ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: 1,
        leavePartsOnError: false,
      });
      await upload.done();
      return { key, size: size(), contentType };
    },

    async stat(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return undefined;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }), QUICK);
        return { key, size: head.ContentLength ?? 0, contentType };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async get(key, range) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return undefined;
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
          QUICK,
        );
        // "bytes 0-9/1234" for a range, else the length is the whole file's.
        const total = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
        const size = total === undefined ? (answer.ContentLength ?? 0) : Number(total);
        const file: StoredFile = { key, size, contentType };
        if (!answer.Body) throw new Error(`The S3 answer for ${key} has no body`);
        return { stream: answer.Body.transformToWebStream() as ReadableStream<Uint8Array>, file };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async read(key) {
      const found = await storage.get(key);
      if (!found) return undefined;
      return new Uint8Array(await new Response(found.stream).arrayBuffer());
    },

    async blob(key) {
      const file = await storage.stat(key);
      return file && windowedSource(file.size, (start, end) => read(key, start, end - 1));
    },

    async delete(key) {
      if (contentTypeOfKey(key)) {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), QUICK);
      }
    },

    async *list() {
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket })) {
        for (const object of page.Contents ?? []) {
          const contentType = object.Key === undefined ? undefined : contentTypeOfKey(object.Key);
          if (!contentType || !object.LastModified) continue;
          yield {
            key: object.Key!,
            size: object.Size ?? 0,
            contentType,
            storedAt: object.LastModified,
          };
        }
      }
    },

    async removeIncomplete(before) {
      let removed = 0;
      let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
      for (;;) {
        const page = await client.send(
          new ListMultipartUploadsCommand({ Bucket: bucket, ...markers }),
        );
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !contentTypeOfKey(upload.Key) || !upload.Initiated) continue;
          if (upload.Initiated >= before) continue;
          await client.send(
            new AbortMultipartUploadCommand({
              Bucket: bucket,
              Key: upload.Key,
              UploadId: upload.UploadId,
            }),
          );
          removed += 1;
        }
        if (!page.IsTruncated) return removed;
        markers = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
      }
    },

    check: () => checkBucket(client, bucket),
  };
  return storage;
}

/**
 * A ByteSource of `size` bytes whose slices are fetched by `fetch(start, end)` (end excluded)
 * a window of at least READ_WINDOW bytes at a time, so the content checks' many small reads
 * (PNG chunk headers) cost one request per window rather than one each.
 */
function windowedSource(
  size: number,
  fetch: (start: number, end: number) => Promise<Uint8Array<ArrayBuffer>>,
): ByteSource {
  let window: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  let windowStart = 0;
  return {
    size,
    slice(start = 0, end = size) {
      const from = Math.max(0, Math.min(start, size));
      const to = Math.max(from, Math.min(end, size));
      return {
        async arrayBuffer() {
          if (from < windowStart || to > windowStart + window.byteLength) {
            const fetchEnd = Math.min(size, Math.max(to, from + READ_WINDOW));
            window = from === fetchEnd ? new Uint8Array(0) : await fetch(from, fetchEnd);
            windowStart = from;
          }
          return window.slice(from - windowStart, to - windowStart).buffer;
        },
      };
    },
  };
}

/** Storage in the bucket the settings name, checked first (see `checkBucket`). */
export async function openS3Storage(settings: S3Settings): Promise<Storage> {
  const client = createS3Client(settings);
  await checkBucket(client, settings.bucket);
  return createS3Storage(client, settings.bucket);
}

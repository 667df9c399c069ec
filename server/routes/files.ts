/**
 * GET /files/{key}: stored uploads, served without authentication (keys are unguessable 96-bit
 * random ids). A key names one file forever, so answers are cacheable for a year, and the key
 * itself is the ETag. Anything that is not a well-formed key (a path, `..`, an encoded slash)
 * is a 404 before the storage is asked, so no request can reach outside the files folder.
 * `?download` answers the file as an attachment under its original name (server/stored-files.ts).
 * `?delivery` on a model answers its delivery version once it has one, else the model itself
 * (server/deliveries.ts); that answer may change, so it is cached for an hour, its ETag naming
 * the file served.
 * One byte range (`Range: bytes=…`, honouring `If-Range`) is answered 206 with just those
 * bytes; several ranges get the whole file. A model asked for whole by a browser that accepts
 * brotli is sent compressed (server/http/compressed-models.ts), under an ETag of its own. The bytes stream from the storage, local disk or
 * the S3 bucket alike (docs/operating.md "Files in an S3 bucket" says why not a redirect to the bucket).
 */
import { Hono } from 'hono';
import { withoutFormatControls } from '../../core/files/file-name';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { errorResponse } from '../http/errors';
import { findDelivery } from '../delivery-records';
import { contentTypeOfKey, keyOfFileUrl } from '../storage';
import type { ByteRange } from '../storage';
import { storedFileInfo } from '../stored-files';
import {
  acceptsBrotli,
  compressedModels,
  MAX_COMPRESSED_MODEL_BYTES,
} from '../http/compressed-models';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const DELIVERED = 'public, max-age=3600';

/** The key of the file `?delivery` serves for `key`: its delivery version's, or its own. */
async function deliveredKey(deps: Deps, key: string): Promise<string> {
  if (contentTypeOfKey(key) !== 'model/gltf-binary') return key;
  const delivery = await findDelivery(deps.db, key);
  const url = delivery?.status === 'ready' ? delivery.url : null;
  return (url && keyOfFileUrl(url)) ?? key;
}

/** Routes mounted at /files, from their declarations (contract/routes.ts). */
export function fileRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const notFound = (key: string) => `No stored file ${JSON.stringify(key)}`;
  /** `?download`: saved under the name it was uploaded with. */
  const attachmentOf = async (key: string) => {
    const info = await storedFileInfo(deps.db, deps.storage, key);
    return attachment(info?.name ?? key);
  };

  const compressed = compressedModels();

  declaredRoutes(app, deps, '/files')('get', '/files/{key}', undefined, async (c) => {
    const requested = c.req.param('key')!;
    const delivery = c.req.query('delivery') !== undefined;
    const key = delivery ? await deliveredKey(deps, requested) : requested;
    const file = await deps.storage.stat(key);
    if (!file) return errorResponse(c, 404, 'NOT_FOUND', notFound(requested));
    // Models go brotli-compressed to browsers that accept it, whole (a range is of the file).
    const model = file.contentType === 'model/gltf-binary';
    const brotli =
      model &&
      c.req.header('range') === undefined &&
      file.size <= MAX_COMPRESSED_MODEL_BYTES &&
      acceptsBrotli(c.req.header('accept-encoding'));
    // Each representation has its own tag.
    const etag = brotli ? `"${key}.br"` : `"${key}"`;
    const headers = {
      'Cache-Control': delivery ? DELIVERED : IMMUTABLE,
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
      'Accept-Ranges': 'bytes',
      ...(model ? { Vary: 'Accept-Encoding' } : {}),
    };
    const matches = (c.req.header('if-none-match') ?? '')
      .split(',')
      .some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}` || tag.trim() === '*');
    if (matches) return c.body(null, 304, headers);
    // Undefined while another model is being compressed (or the file went): sent as stored.
    const body = brotli ? await compressed.get(key, () => deps.storage.read(key)) : undefined;
    if (body) {
      return c.body(body as Uint8Array<ArrayBuffer>, 200, {
        ...headers,
        'Content-Type': file.contentType,
        'Content-Encoding': 'br',
        'Content-Length': String(body.byteLength),
        ...(c.req.query('download') !== undefined
          ? { 'Content-Disposition': await attachmentOf(key) }
          : {}),
      });
    }
    // As stored from here on, under the file's own tag.
    const stored = { ...headers, ETag: `"${key}"` };
    const range = requestedRange(
      c.req.header('range'),
      c.req.header('if-range'),
      stored.ETag,
      file.size,
    );
    if (range === 'unsatisfiable') {
      c.header('Content-Range', `bytes */${file.size}`);
      return errorResponse(
        c,
        416,
        'RANGE_NOT_SATISFIABLE',
        `The file has ${file.size} bytes; the range ${c.req.header('range')} lies past its end`,
      );
    }
    const found = await deps.storage.get(key, range);
    if (!found) return errorResponse(c, 404, 'NOT_FOUND', notFound(requested));
    return c.body(found.stream, range ? 206 : 200, {
      ...stored,
      'Content-Type': found.file.contentType,
      'Content-Length': String(range ? range.end - range.start + 1 : found.file.size),
      ...(range ? { 'Content-Range': `bytes ${range.start}-${range.end}/${file.size}` } : {}),
      ...(c.req.query('download') !== undefined
        ? { 'Content-Disposition': await attachmentOf(key) }
        : {}),
    });
  });

  // Deeper paths are never files; answer them here rather than with the SPA's index.html.
  app.all('*', (c) => errorResponse(c, 404, 'NOT_FOUND', notFound(c.req.path)));
  return app;
}

/**
 * The one byte range `header` (a Range header) asks for in a file of `size` bytes: undefined
 * for the whole file (no header, one that is not a single byte range, an end before its start,
 * or an `If-Range` naming another version), 'unsatisfiable' for one past the end (RFC 9110
 * 14.2).
 */
export function requestedRange(
  header: string | undefined,
  ifRange: string | undefined,
  etag: string,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined || (ifRange !== undefined && ifRange.trim() !== etag)) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || match[1]! + match[2]! === '') return undefined;
  if (match[1] === '') {
    const length = Number(match[2]);
    return length === 0 || size === 0
      ? 'unsatisfiable'
      : { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(match[1]);
  if (start >= size) return 'unsatisfiable';
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return end < start ? undefined : { start, end };
}

/**
 * `Content-Disposition` saving as `name`: an ASCII fallback for old clients and the exact
 * UTF-8 name (RFC 6266 / RFC 5987), without bidirectional controls that could disguise it.
 */
export function attachment(fileName: string): string {
  const name = withoutFormatControls(fileName);
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** GET /v1/files/{key} (signed in): a stored file's original name, size and type. */
export function storedFileInfoRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  declaredRoutes(app, deps, '/v1/files')('get', '/v1/files/{key}', undefined, async (c) => {
    const key = c.req.param('key')!;
    const info = await storedFileInfo(deps.db, deps.storage, key);
    if (!info) return errorResponse(c, 404, 'NOT_FOUND', `No stored file ${JSON.stringify(key)}`);
    return c.json({ data: info });
  });
  return app;
}

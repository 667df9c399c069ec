/**
 * GET /files/{key}: stored uploads, served without authentication (keys are unguessable 96-bit
 * random ids). A key names one file forever, so answers are cacheable for a year, and the key
 * itself is the ETag. Anything that is not a well-formed key (a path, `..`, an encoded slash)
 * is a 404 before the storage is asked, so no request can reach outside the files folder.
 * `?download` answers the file as an attachment under its original name (server/stored-files.ts).
 * `?delivery` on a model answers its delivery version once it has one, else the model itself
 * (server/deliveries.ts); that answer may change, so it is cached for an hour, its ETag naming
 * the file served.
 */
import { Hono } from 'hono';
import { requireAuth, type AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { errorResponse } from '../http/errors';
import { findDelivery } from '../deliveries';
import { contentTypeOfKey, keyOfFileUrl } from '../storage';
import { storedFileInfo } from '../stored-files';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const DELIVERED = 'public, max-age=3600';

/** The key of the file `?delivery` serves for `key`: its delivery version's, or its own. */
async function deliveredKey(deps: Deps, key: string): Promise<string> {
  if (contentTypeOfKey(key) !== 'model/gltf-binary') return key;
  const delivery = await findDelivery(deps.db, key);
  const url = delivery?.status === 'ready' ? delivery.url : null;
  return (url && keyOfFileUrl(url)) ?? key;
}

/** Routes mounted at /files. */
export function fileRoutes(deps: Deps) {
  const app = new Hono();
  const notFound = (key: string) => `No stored file ${JSON.stringify(key)}`;

  app.get('/:key', async (c) => {
    const requested = c.req.param('key');
    const delivery = c.req.query('delivery') !== undefined;
    const key = delivery ? await deliveredKey(deps, requested) : requested;
    const etag = `"${key}"`;
    const headers = {
      'Cache-Control': delivery ? DELIVERED : IMMUTABLE,
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
    };
    const matches = (c.req.header('if-none-match') ?? '')
      .split(',')
      .some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}` || tag.trim() === '*');
    if (matches && (await deps.storage.stat(key))) {
      return c.body(null, 304, headers);
    }
    const found = await deps.storage.get(key);
    if (!found) return errorResponse(c, 404, 'NOT_FOUND', notFound(requested));
    const download = c.req.query('download') !== undefined;
    const info = download ? await storedFileInfo(deps.db, deps.storage, key) : undefined;
    return c.body(found.stream, 200, {
      ...headers,
      'Content-Type': found.file.contentType,
      'Content-Length': String(found.file.size),
      ...(info ? { 'Content-Disposition': attachment(info.name) } : {}),
    });
  });

  // Deeper paths are never files; answer them here rather than with the SPA's index.html.
  app.all('*', (c) => errorResponse(c, 404, 'NOT_FOUND', notFound(c.req.path)));
  return app;
}

/**
 * `Content-Disposition` saving as `name`: an ASCII fallback for old clients and the exact
 * UTF-8 name (RFC 6266 / RFC 5987).
 */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** GET /v1/files/{key} (signed in): a stored file's original name, size and type. */
export function storedFileInfoRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  app.get('/:key', requireAuth(deps), async (c) => {
    const key = c.req.param('key');
    const info = await storedFileInfo(deps.db, deps.storage, key);
    if (!info) return errorResponse(c, 404, 'NOT_FOUND', `No stored file ${JSON.stringify(key)}`);
    return c.json({ data: info });
  });
  return app;
}

/**
 * GET /files/{key}: stored uploads, served without authentication (keys are unguessable 96-bit
 * random ids). A key names one file forever, so answers are cacheable for a year, and the key
 * itself is the ETag. Anything that is not a well-formed key (a path, `..`, an encoded slash)
 * is a 404 before the storage is asked, so no request can reach outside the files folder.
 */
import { Hono } from 'hono';
import type { Deps } from '../deps';
import { errorResponse } from '../http/errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Routes mounted at /files. */
export function fileRoutes(deps: Deps) {
  const app = new Hono();
  const notFound = (key: string) => `No stored file ${JSON.stringify(key)}`;

  app.get('/:key', async (c) => {
    const key = c.req.param('key');
    const etag = `"${key}"`;
    const headers = {
      'Cache-Control': IMMUTABLE,
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
    if (!found) return errorResponse(c, 404, 'NOT_FOUND', notFound(key));
    return c.body(found.stream, 200, {
      ...headers,
      'Content-Type': found.file.contentType,
      'Content-Length': String(found.file.size),
    });
  });

  // Deeper paths are never files; answer them here rather than with the SPA's index.html.
  app.all('*', (c) => errorResponse(c, 404, 'NOT_FOUND', notFound(c.req.path)));
  return app;
}

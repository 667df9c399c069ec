/**
 * GET /v1/openapi.json: the OpenAPI 3.1 document of this API, built from the contract's route
 * table (contract/openapi.ts). GET /v1/docs: the document rendered by Swagger UI, whose files
 * (the swagger-ui-dist package) this server serves itself: the page loads nothing from
 * another host, and its script is a file, not inline (the page's Content-Security-Policy).
 * Mounted only with API_DOCS=on (server/config.ts): off by default in production.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import { openApiDocument } from '../../contract/openapi';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { DOCS_PATH } from '../http/paths';

/** The document's `info.version`: the API's first version. */
const API_VERSION = '1.0.0';

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Avatar Studio API</title>
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/init.js"></script>
  </body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
});
`;

/**
 * The renderer's files this page uses, by name, and their types: a Map, so a name such as
 * `valueOf` or `__proto__` in the address finds nothing rather than an object's own property.
 */
const ASSETS = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
]);

/** Where the swagger-ui-dist package keeps its files (looked up at the first request for one). */
const distDir = () =>
  dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Routes mounted at /v1, from their declarations (contract/routes.ts). */
export function openApiRoutes(deps: Deps) {
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1');
  let document: ReturnType<typeof openApiDocument> | undefined;
  const files = new Map<string, Promise<Buffer>>();

  on('get', '/v1/openapi.json', undefined, (c) =>
    c.json((document ??= openApiDocument(API_VERSION))),
  );
  on('get', '/v1/docs', undefined, (c) => c.html(PAGE));
  on('get', '/v1/docs/{file}', undefined, async (c) => {
    const name = c.req.param('file')!;
    if (name === 'init.js')
      return c.body(INIT, 200, { 'content-type': ASSETS.get('swagger-ui-bundle.js')! });
    const type = ASSETS.get(name);
    if (!type) fail(404, 'NOT_FOUND', `No route for GET ${c.req.path}`);
    if (!files.has(name)) files.set(name, readFile(join(distDir(), name)));
    return c.body(new Uint8Array(await files.get(name)!), 200, { 'content-type': type });
  });
  return app;
}

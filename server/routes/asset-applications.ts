/**
 * An asset's applications and an application's export, mounted on /v1/assets and
 * /private/v1/assets next to the asset routes, each from its declaration (contract/routes.ts):
 * GET, POST, PATCH, DELETE /{id}/application and GET /export/{applicationId}
 * (server/asset-application-store.ts does each in the database).
 *
 * A locked asset can still be added, moved and removed: locking protects the asset's own
 * content (docs/api.md "Applications"), while these routes change the application's list.
 */
import { Hono, type Context } from 'hono';
import {
  assetApplicationAddBodySchema,
  assetApplicationMoveBodySchema,
  assetApplicationRemoveBodySchema,
} from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { parseListQuery, runList } from '../list';
import { getAsset } from '../asset-store';
import {
  addToApplication,
  assetApplicationListSpec,
  exportApplication,
  moveInApplication,
  removeFromApplication,
} from '../asset-application-store';
import { readIfMatch, setVersionTag } from '../versions';
import { withoutFormatControls } from '../../core/files/file-name';

/**
 * `attachment` with the file name twice: quoted ASCII (other characters, quotes and
 * backslashes replaced) for old clients, and RFC 5987 UTF-8 for the rest.
 */
function attachment(name: string): string {
  // An application's name could carry a right-to-left override that disguises the extension.
  const filename = withoutFormatControls(name);
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Routes mounted at `mount`: /v1/assets or /private/v1/assets. */
export function assetApplicationRoutes(deps: Deps, mount: string) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, mount);
  const actor = (c: Context<AuthEnv>) => c.get('auth').userId;

  on('get', `${mount}/export/{applicationId}`, undefined, async (c) => {
    const applicationId = c.req.param('applicationId')!;
    // PUBLIC_URL, never the request's Host: a forged Host would put its own host in the file.
    const origin = deps.config.publicUrl;
    const absolute = (url: string | null) =>
      url !== null && url.startsWith('/') && !url.startsWith('//') ? `${origin}${url}` : url;
    const document = await db.transaction((tx) =>
      exportApplication(tx, applicationId, absolute, actor(c), deps.now),
    );
    c.header('content-disposition', attachment(`${document.application.name}-assets.json`));
    c.header('cache-control', 'no-store');
    return c.json(document);
  });

  on('get', `${mount}/{id}/application`, undefined, async (c) => {
    const assetId = c.req.param('id')!;
    await getAsset(db, assetId);
    const query = parseListQuery(assetApplicationListSpec, c.req.queries());
    return c.json(
      await runList(db, assetApplicationListSpec, query, (params) => [
        `aa.asset_id = ${params.add(assetId)}`,
      ]),
    );
  });

  // Adds the asset at the end of the application, or at `position` (past the end: last).
  on('post', `${mount}/{id}/application`, assetApplicationAddBodySchema, async (c, body) => {
    const { applicationId } = body;
    const assetId = c.req.param('id')!;
    const data = await db.transaction((tx) =>
      addToApplication(tx, { assetId, applicationId, position: body.position }, actor(c), deps.now),
    );
    return c.json({ data });
  });

  // Moves the asset within the application (docs/api.md "Order updates", without a filter). With
  // If-Match (the entry's version), a position someone else changed since then is a 409.
  on('patch', `${mount}/{id}/application`, assetApplicationMoveBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const { applicationId, position } = body;
    const assetId = c.req.param('id')!;
    const data = await db.transaction((tx) =>
      moveInApplication(tx, { assetId, applicationId, position }, base, actor(c), deps.now),
    );
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Removes the asset from the application and closes the gap; answers the removed row. With
  // If-Match (the entry's version), an entry changed since then is not removed (412).
  on('delete', `${mount}/{id}/application`, assetApplicationRemoveBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const { applicationId } = body;
    const assetId = c.req.param('id')!;
    const data = await db.transaction((tx) =>
      removeFromApplication(tx, { assetId, applicationId }, base, actor(c), deps.now),
    );
    return c.json({ data });
  });

  return app;
}

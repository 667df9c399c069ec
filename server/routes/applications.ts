/**
 * Applications and what is placed in them: /v1/applications (list, read; create and rename for
 * admins), /v1/application-assets (ordered assets) and /v1/application-morphed-assets (all also
 * under /private/v1); server/application-store.ts does each in the database.
 */
import { Hono } from 'hono';
import {
  applicationBodySchema,
  applicationMorphedAssetBodySchema,
  positionBodySchema,
} from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { newId } from '../ids';
import { filterFromJson, listHandler, parseListQuery, runList } from '../list';
import { readIfMatch, setVersionTag } from '../versions';
import {
  applicationAssetListSpec,
  applicationListSpec,
  applicationMorphedAssets,
  createApplication,
  getApplication,
  getApplicationAsset,
  moveApplicationAssetFrom,
  placeMorphedAssets,
  renameApplication,
  syncApplicationAsset,
  uniqueName,
} from '../application-store';

/**
 * Routes mounted at `mount`, /v1/applications or /private/v1/applications, from their
 * declarations (contract/routes.ts). Creating and renaming an application needs `manage
 * Application` (admins): a developer's `update Application` orders and places assets in
 * applications, it does not define them.
 */
export function applicationRoutes(deps: Deps, mount: string) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, mount);

  on('get', mount, undefined, listHandler(db, applicationListSpec));

  on('get', `${mount}/{id}`, undefined, async (c) => {
    const data = await getApplication(db, c.req.param('id')!);
    setVersionTag(c, data);
    return c.json({ data });
  });

  on('post', mount, applicationBodySchema, async (c, { name }) => {
    const id = newId();
    const at = deps.now();
    const data = await uniqueName(name, () =>
      db.transaction(async (tx) => {
        const application = await createApplication(tx, { id, name }, c.get('auth').userId, at);
        setVersionTag(c, application);
        await keepAnswer(tx, c, c.json({ data: application }));
        return application;
      }),
    );
    return c.json({ data });
  });

  // A rename; with If-Match, a name someone else changed since that version is a 409 (412 for
  // a version that never existed). The same name again changes and records nothing.
  on('patch', `${mount}/{id}`, applicationBodySchema, async (c, { name }) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const data = await uniqueName(name, () =>
      db.transaction((tx) => renameApplication(tx, id, name, base, c.get('auth').userId, deps.now)),
    );
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

/** Routes mounted at `mount`: /v1/application-assets or /private/v1/application-assets. */
export function applicationAssetRoutes(deps: Deps, mount: string) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, mount);

  on('get', mount, undefined, async (c) => {
    const query = parseListQuery(applicationAssetListSpec, c.req.queries());
    return c.json(await runList(db, applicationAssetListSpec, query));
  });

  // Moves within the row's own application; `filter` narrows the list the position counts in.
  // With If-Match, a position someone else changed since that version is a 409 (with a filter
  // the requested position counts in another list, so any such change is).
  on('patch', `${mount}/{id}/position`, positionBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const filters = filterFromJson(applicationAssetListSpec, body.filter);
    const id = c.req.param('id')!;
    const { applicationId } = await getApplicationAsset(db, id);
    const found = await db.transaction((tx) =>
      moveApplicationAssetFrom(
        tx,
        applicationId,
        { id, position: body.position, filters, filtered: body.filter !== undefined },
        base,
      ),
    );
    if (!found) fail(404, 'NOT_FOUND', `No application asset with id ${id}`);
    const data = await getApplicationAsset(db, id);
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Marks the application's copy as synced with its parent asset now. The copy holds no fields
  // of its own in this API, so syncing records the time (syncedAt) and the event only.
  // With If-Match, a sync someone else made since that version is a 409.
  on('post', `${mount}/{id}/sync-with-parent`, undefined, async (c) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const { userId } = c.get('auth');
    await db.transaction((tx) => syncApplicationAsset(tx, id, base, userId, deps.now()));
    const data = await getApplicationAsset(db, id);
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

/**
 * Routes mounted at `mount`, /v1/application-morphed-assets or
 * /private/v1/application-morphed-assets: POST places morphed assets in an application (all or
 * none) and records addedToApplication on each one's source asset.
 */
export function applicationMorphedAssetRoutes(deps: Deps, mount: string) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();

  declaredRoutes(app, deps, mount)(
    'post',
    mount,
    applicationMorphedAssetBodySchema,
    async (c, body) => {
      const { applicationId } = body;
      const morphedIds = [
        ...new Set('morphedAssetId' in body ? [body.morphedAssetId] : body.morphedAssetIds),
      ];
      const { userId } = c.get('auth');
      const placed = await db.transaction((tx) =>
        placeMorphedAssets(tx, applicationId, morphedIds, userId, deps.now),
      );
      return c.json({ data: await applicationMorphedAssets(db, placed) });
    },
  );

  return app;
}

/**
 * /v1/tags: the tag list (with asset counts), find by id for autocompletes, create, rename,
 * delete, and tagging assets (server/tag-store.ts does each in the database).
 */
import { Hono } from 'hono';
import { assetTagBodySchema, tagBodySchema } from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { keepAnswer } from '../http/idempotency';
import { newId } from '../ids';
import { listHandler } from '../list';
import { readIfMatch, setVersionTag } from '../versions';
import {
  changeTagOnAsset,
  createTag,
  getTag,
  renameTag,
  tagListSpec,
  trashTag,
  uniqueName,
} from '../tag-store';

/** Routes mounted at /v1/tags, each from its declaration (contract/routes.ts). */
export function tagRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/tags');

  on('get', '/v1/tags', undefined, listHandler(db, tagListSpec));

  on('post', '/v1/tags', tagBodySchema, async (c, { name }) => {
    const id = newId();
    const now = deps.now();
    const data = await uniqueName(name, () =>
      db.transaction(async (tx) => {
        const tag = await createTag(tx, { id, name }, c.get('auth').userId, now);
        await keepAnswer(tx, c, c.json({ data: tag }));
        return tag;
      }),
    );
    return c.json({ data });
  });

  // Tagging changes the asset, so it needs `update Asset`; If-Match names the asset's version.
  for (const path of ['/v1/tags/set-tag', '/v1/tags/remove-tag'] as const) {
    on('post', path, assetTagBodySchema, async (c, { assetId, tagId }) => {
      const base = readIfMatch(c);
      const at = deps.now();
      const adds = path === '/v1/tags/set-tag';
      const data = await db.transaction((tx) =>
        changeTagOnAsset(tx, { assetId, tagId, adds }, base, c.get('auth').userId, at),
      );
      setVersionTag(c, data);
      return c.json({ data });
    });
  }

  on('get', '/v1/tags/{tagId}', undefined, async (c) => {
    const data = await getTag(db, c.req.param('tagId')!);
    setVersionTag(c, data);
    return c.json({ data });
  });

  // A rename; with If-Match, a name someone else changed since that version is a 409.
  on('put', '/v1/tags/{tagId}', tagBodySchema, async (c, { name }) => {
    const base = readIfMatch(c);
    const id = c.req.param('tagId')!;
    const data = await uniqueName(name, () =>
      db.transaction((tx) => renameTag(tx, id, name, base, c.get('auth').userId, deps.now())),
    );
    setVersionTag(c, data);
    return c.json({ data });
  });

  // The tag goes to the Trash and leaves every asset it was on; with If-Match, a tag changed
  // since that version is not deleted (412).
  on('delete', '/v1/tags/{tagId}', undefined, async (c) => {
    const base = readIfMatch(c);
    const at = deps.now();
    const id = c.req.param('tagId')!;
    const data = await db.transaction((tx) => trashTag(tx, id, base, c.get('auth').userId, at));
    return c.json({ data });
  });

  return app;
}

/**
 * /v1/tags: the tag list (with asset counts), find by id for autocompletes, create, rename,
 * delete, and tagging assets.
 */
import { Hono } from 'hono';
import { assetTagBodySchema, tagBodySchema, type TagRow } from '../../contract/schemas';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from '../db';
import type { Deps } from '../deps';
import { recordAssetEvents, recordTagEvent } from '../events';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { readBody } from '../http/validate';
import { moveToTrash } from '../trash';
import { newId } from '../ids';
import { findById, isoString, listHandler, searchFilter, type ListSpec } from '../list';
import { changeOf, checkBase, checkWhole, readIfMatch, setVersionTag } from '../versions';
import {
  assetForChange,
  findAssets,
  getAsset,
  shareTags,
  sortedTagIds,
  updateEvents,
} from '../asset-store';

interface TagDbRow {
  id: string;
  name: string;
  asset_count: number;
  created_at: Date;
  updated_at: Date;
  version: number;
}

/** How many assets carry the tag: the stripes migration 033's triggers keep, summed. */
const ASSET_COUNT =
  '(SELECT coalesce(sum(x.n), 0)::int FROM tag_asset_counts x WHERE x.tag_id = t.id)';

const tagListSpec: ListSpec<TagRow> = {
  from: 'tags t',
  columns: `t.id, t.name, t.created_at, t.updated_at, t.version, ${ASSET_COUNT} AS asset_count`,
  orders: { name: 't.name', createdAt: 't.created_at', assetCount: ASSET_COUNT },
  defaultOrder: 'name',
  idColumn: 't.id',
  filters: { search: searchFilter('t.name') },
  toRow: (row: TagDbRow) => ({
    id: row.id,
    name: row.name,
    assetCount: row.asset_count,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
    version: row.version,
  }),
};

function getTag(db: Db, id: string): Promise<TagRow> {
  return findById(db, tagListSpec, id, 'tag');
}

/** Runs a write that may hit the case-insensitive unique name index; answers 409 then. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDbError(error, PG_UNIQUE_VIOLATION)) {
      fail(409, 'CONFLICT', `A tag named "${name}" already exists`);
    }
    throw error;
  }
}

/** Routes mounted at /v1/tags. */
export function tagRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  app.use('*', requireAuth(deps));

  app.get('/', requireAbility('read', 'Tag'), listHandler(db, tagListSpec));

  app.post('/', requireAbility('create', 'Tag'), async (c) => {
    const { name } = await readBody(c, tagBodySchema);
    const id = newId();
    const now = deps.now();
    const data = await uniqueName(name, () =>
      db.transaction(async (tx) => {
        await tx.query(
          'INSERT INTO tags (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)',
          [id, name, now],
        );
        const actorId = c.get('auth').userId;
        await recordTagEvent(tx, { tagId: id, event: 'created', actorId, data: { name }, at: now });
        const tag = await getTag(tx, id);
        await keepAnswer(tx, c, c.json({ data: tag }));
        return tag;
      }),
    );
    return c.json({ data });
  });

  // Tagging changes the asset, so it needs `update Asset`, the tag must exist, and a locked
  // asset is refused (409). A change records the asset's update events; a no-op records none.
  // The tag is locked before the asset (the lock order at `shareTags`), as a delete takes them.
  // If-Match names the asset's version: tags someone else changed since then are a 409.
  for (const [path, sql] of [
    [
      '/set-tag',
      `INSERT INTO asset_tags (asset_id, tag_id, created_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING asset_id`,
    ],
    [
      '/remove-tag',
      'DELETE FROM asset_tags WHERE asset_id = $1 AND tag_id = $2 RETURNING asset_id',
    ],
  ] as const) {
    app.post(path, requireAbility('update', 'Asset'), async (c) => {
      const base = readIfMatch(c);
      const { assetId, tagId } = await readBody(c, assetTagBodySchema);
      const at = deps.now();
      const data = await db.transaction(async (tx) => {
        const tagMissing = (await shareTags(tx, [tagId])).length > 0;
        const before = await assetForChange(tx, assetId);
        if (tagMissing) fail(404, 'NOT_FOUND', `No tag with id ${tagId}`);
        const from = sortedTagIds(before);
        const adds = path === '/set-tag';
        const to = adds ? [...from, tagId].sort() : from.filter((id) => id !== tagId);
        const asked = changeOf('tagIds', from, to, from.includes(tagId) !== adds);
        await checkBase(tx, 'asset', before, base, asked);
        const params = path === '/set-tag' ? [assetId, tagId, at] : [assetId, tagId];
        const { rows } = await tx.query(sql, params);
        if (rows.length === 0) return before;
        await tx.query('UPDATE assets SET updated_at = $2 WHERE id = $1', [assetId, at]);
        const after = await getAsset(tx, assetId);
        const changes = { tagIds: { from: sortedTagIds(before), to: sortedTagIds(after) } };
        await recordAssetEvents(tx, updateEvents(after, changes, c.get('auth').userId, at));
        return after;
      });
      setVersionTag(c, data);
      return c.json({ data });
    });
  }

  app.get('/:tagId', requireAbility('read', 'Tag'), async (c) => {
    const data = await getTag(db, c.req.param('tagId'));
    setVersionTag(c, data);
    return c.json({ data });
  });

  // A rename; with If-Match, a name someone else changed since that version is a 409.
  app.put('/:tagId', requireAbility('update', 'Tag'), async (c) => {
    const base = readIfMatch(c);
    const { name } = await readBody(c, tagBodySchema);
    const id = c.req.param('tagId');
    const data = await uniqueName(name, () =>
      db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM tags WHERE id = $1 FOR UPDATE', [id]);
        const before = await getTag(tx, id);
        await checkBase(tx, 'tag', before, base, changeOf('name', before.name, name));
        const at = deps.now();
        await tx.query('UPDATE tags SET name = $2, updated_at = $3 WHERE id = $1', [id, name, at]);
        if (before.name === name) return getTag(tx, id);
        await recordTagEvent(tx, {
          tagId: id,
          event: 'renamed',
          actorId: c.get('auth').userId,
          data: { changes: { name: { from: before.name, to: name } } },
          at,
        });
        return getTag(tx, id);
      }),
    );
    setVersionTag(c, data);
    return c.json({ data });
  });

  // The tag goes to the Trash (server/trash.ts) and leaves every asset it was on; each of
  // those assets records its update events, locked ones too (the tag is gone for all of them).
  // The tag row is locked first, so no asset can be tagged with it meanwhile (tagging waits on
  // it); the assets are then locked in id order, so two deletes never wait on each other. This
  // is the lock order every route that locks tags and assets keeps (see `shareTags`). With
  // If-Match, a tag changed since that version is not deleted (412).
  app.delete('/:tagId', requireAbility('delete', 'Tag'), async (c) => {
    const base = readIfMatch(c);
    const at = deps.now();
    const data = await db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM tags WHERE id = $1 FOR UPDATE', [c.req.param('tagId')]);
      const tag = await getTag(tx, c.req.param('tagId'));
      checkWhole(tag, base);
      const { rows } = await tx.query<{ id: string }>(
        `SELECT a.id FROM assets a JOIN asset_tags x ON x.asset_id = a.id
         WHERE x.tag_id = $1 ORDER BY a.id FOR UPDATE OF a`,
        [tag.id],
      );
      // Read after the locks: an asset untagged meanwhile is no longer affected.
      const before = (
        await findAssets(
          tx,
          rows.map((row) => row.id),
        )
      ).filter((asset) => asset.tags.some((t) => t.id === tag.id));
      const actorId = c.get('auth').userId;
      await moveToTrash(tx, { kind: 'tag', id: tag.id }, actorId, at);
      await tx.query('DELETE FROM tags WHERE id = $1', [tag.id]);
      const data = { name: tag.name };
      await recordTagEvent(tx, { tagId: tag.id, event: 'deleted', actorId, data, at });
      if (before.length === 0) return tag;
      const ids = before.map((asset) => asset.id);
      await tx.query('UPDATE assets SET updated_at = $2 WHERE id = ANY($1::text[])', [ids, at]);
      const after = await findAssets(tx, ids);
      await recordAssetEvents(
        tx,
        after.flatMap((asset, i) => {
          const changes = { tagIds: { from: sortedTagIds(before[i]!), to: sortedTagIds(asset) } };
          return updateEvents(asset, changes, actorId, at);
        }),
      );
      return tag;
    });
    return c.json({ data });
  });

  return app;
}

/**
 * /v1/tags: the tag list (with asset counts), find by id for autocompletes, create, rename,
 * delete, and tagging assets.
 */
import { Hono } from 'hono';
import { assetTagBodySchema, tagBodySchema, type TagRow } from '../../src/api/schemas';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from '../db';
import type { Deps } from '../deps';
import { recordAssetEvents } from '../events';
import { fail } from '../http/errors';
import { readBody } from '../http/validate';
import { newId } from '../ids';
import { isoString, parseListQuery, runList, searchFilter, type ListSpec } from '../list';
import { assetForChange, getAsset, sortedTagIds, updateEvents } from '../asset-store';

interface TagDbRow {
  id: string;
  name: string;
  asset_count: number;
  created_at: Date;
  updated_at: Date;
}

const tagListSpec: ListSpec<TagRow> = {
  from: `tags t LEFT JOIN LATERAL
    (SELECT count(*)::int AS asset_count FROM asset_tags x WHERE x.tag_id = t.id) c ON true`,
  columns: 't.id, t.name, t.created_at, t.updated_at, c.asset_count',
  orders: { name: 't.name', createdAt: 't.created_at', assetCount: 'c.asset_count' },
  defaultOrder: 'name',
  idColumn: 't.id',
  filters: { search: searchFilter('t.name') },
  toRow: (row: TagDbRow) => ({
    id: row.id,
    name: row.name,
    assetCount: row.asset_count,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  }),
};

async function getTag(db: Db, id: string): Promise<TagRow> {
  const { rows } = await db.query<TagDbRow>(
    `SELECT ${tagListSpec.columns} FROM ${tagListSpec.from} WHERE t.id = $1`,
    [id],
  );
  if (!rows[0]) fail(404, 'NOT_FOUND', `No tag with id ${id}`);
  return tagListSpec.toRow(rows[0] as never);
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

  app.get('/', requireAbility('read', 'Tag'), async (c) => {
    return c.json(await runList(db, tagListSpec, parseListQuery(tagListSpec, c.req.queries())));
  });

  app.post('/', requireAbility('create', 'Tag'), async (c) => {
    const { name } = await readBody(c, tagBodySchema);
    const id = newId();
    const now = deps.now();
    await uniqueName(name, () =>
      db.query('INSERT INTO tags (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)', [
        id,
        name,
        now,
      ]),
    );
    return c.json({ data: await getTag(db, id) });
  });

  // Tagging changes the asset, so it needs `update Asset`, the tag must exist, and a locked
  // asset is refused (409). A change records the asset's update events; a no-op records none.
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
      const { assetId, tagId } = await readBody(c, assetTagBodySchema);
      const at = deps.now();
      const data = await db.transaction(async (tx) => {
        const before = await assetForChange(tx, assetId);
        await getTag(tx, tagId);
        const params = path === '/set-tag' ? [assetId, tagId, at] : [assetId, tagId];
        const { rows } = await tx.query(sql, params);
        if (rows.length === 0) return before;
        await tx.query('UPDATE assets SET updated_at = $2 WHERE id = $1', [assetId, at]);
        const after = await getAsset(tx, assetId);
        const changes = { tagIds: { from: sortedTagIds(before), to: sortedTagIds(after) } };
        await recordAssetEvents(tx, updateEvents(after, changes, c.get('auth').userId, at));
        return after;
      });
      return c.json({ data });
    });
  }

  app.get('/:tagId', requireAbility('read', 'Tag'), async (c) => {
    return c.json({ data: await getTag(db, c.req.param('tagId')) });
  });

  app.put('/:tagId', requireAbility('update', 'Tag'), async (c) => {
    const { name } = await readBody(c, tagBodySchema);
    const id = c.req.param('tagId');
    await getTag(db, id);
    await uniqueName(name, () =>
      db.query('UPDATE tags SET name = $2, updated_at = $3 WHERE id = $1', [id, name, deps.now()]),
    );
    return c.json({ data: await getTag(db, id) });
  });

  // asset_tags rows go with the tag (ON DELETE CASCADE).
  app.delete('/:tagId', requireAbility('delete', 'Tag'), async (c) => {
    const tag = await getTag(db, c.req.param('tagId'));
    await db.query('DELETE FROM tags WHERE id = $1', [tag.id]);
    return c.json({ data: tag });
  });

  return app;
}

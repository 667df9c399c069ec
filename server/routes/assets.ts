/**
 * Asset routes shared by /v1/assets and /private/v1/assets (the private mount is gated by the
 * PrivateApi ability in app.ts): the list and its authorized/editable variants, one asset,
 * delete, lock/unlock, order update and counts per type.
 */
import { Hono } from 'hono';
import { z } from 'zod/mini';
import {
  genderSchema,
  positionBodySchema,
  type Asset,
  type CountByType,
  type Gender,
} from '../../src/api/schemas';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import { readBody } from '../http/validate';
import {
  anyOfFilter,
  booleanFilter,
  filterFromJson,
  isoString,
  parseListQuery,
  runList,
  searchFilter,
  type ListScope,
  type ListSpec,
} from '../list';
import {
  applicationLockKey,
  lockPositions,
  moveToPosition,
  renumberApplicationAssets,
  renumberAssets,
  type OrderedCollection,
} from '../positions';

interface AssetDbRow {
  id: string;
  name: string;
  type: string;
  gender: Gender;
  description: string;
  icon_url: string | null;
  model_url: string | null;
  texture_url: string | null;
  normal_map_url: string | null;
  source_url: string | null;
  is_template: boolean;
  template_id: string | null;
  locked: boolean;
  position: number;
  tags: { id: string; name: string }[];
  created_at: Date;
  updated_at: Date;
}

/** Asset columns of alias `a`, tags aggregated so a page is one query. */
const ASSET_COLUMNS = `a.id, a.name, a.type, a.gender, a.description, a.icon_url, a.model_url,
  a.texture_url, a.normal_map_url, a.source_url, a.is_template, a.template_id, a.locked,
  a.position, a.created_at, a.updated_at,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name, t.id)
            FROM asset_tags x JOIN tags t ON t.id = x.tag_id WHERE x.asset_id = a.id),
           '[]'::json) AS tags`;

function toAsset(row: AssetDbRow): Asset {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    gender: row.gender,
    description: row.description,
    iconUrl: row.icon_url,
    modelUrl: row.model_url,
    textureUrl: row.texture_url,
    normalMapUrl: row.normal_map_url,
    sourceUrl: row.source_url,
    isTemplate: row.is_template,
    templateId: row.template_id,
    locked: row.locked,
    position: row.position,
    tags: row.tags,
    createdAt: isoString(row.created_at),
    updatedAt: isoString(row.updated_at),
  };
}

/** GET /v1/assets and its variants. */
export const assetListSpec: ListSpec<Asset> = {
  from: 'assets a',
  columns: ASSET_COLUMNS,
  orders: {
    name: 'a.name',
    type: 'a.type',
    gender: 'a.gender',
    createdAt: 'a.created_at',
    updatedAt: 'a.updated_at',
    position: 'a.position',
  },
  defaultOrder: 'position',
  idColumn: 'a.id',
  filters: {
    search: searchFilter('a.name'),
    type: anyOfFilter('a.type'),
    gender: anyOfFilter('a.gender', genderSchema.options),
    applicationId: {
      multiple: true,
      where: (p) =>
        `EXISTS (SELECT 1 FROM application_assets x
                 WHERE x.asset_id = a.id AND x.application_id = ANY(${p}::text[]))`,
    },
    tagId: {
      multiple: true,
      where: (p) =>
        `EXISTS (SELECT 1 FROM asset_tags x WHERE x.asset_id = a.id AND x.tag_id = ANY(${p}::text[]))`,
    },
    locked: booleanFilter('a.locked'),
  },
  toRow: toAsset,
};

const ASSETS: OrderedCollection = { table: 'assets', alias: 'a', lockKey: 'assets' };

/** One asset with its tags, or undefined. */
export async function findAsset(db: Db, id: string): Promise<Asset | undefined> {
  const { rows } = await db.query<AssetDbRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets a WHERE a.id = $1`,
    [id],
  );
  return rows[0] && toAsset(rows[0]);
}

/** One asset, or 404. */
export async function getAsset(db: Db, id: string): Promise<Asset> {
  return (await findAsset(db, id)) ?? fail(404, 'NOT_FOUND', `No asset with id ${id}`);
}

/** Lock and unlock accept `{}` or any JSON object (the platform sends one). */
const anyObjectBodySchema = z.record(z.string(), z.unknown());

/** Routes mounted at /v1/assets and /private/v1/assets. */
export function assetRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const auth = requireAuth(deps);

  app.get('/', auth, requireAbility('read', 'Asset'), async (c) => {
    return c.json(await runList(db, assetListSpec, parseListQuery(assetListSpec, c.req.queries())));
  });

  // Assets the caller may read: every asset for roles that read Asset, otherwise the ones
  // assigned to the caller.
  app.get('/authorized', auth, async (c) => {
    const { ability, userId } = c.get('auth');
    const scope: ListScope = (params) =>
      ability.can('read', 'Asset')
        ? []
        : [
            `EXISTS (SELECT 1 FROM user_assets x WHERE x.asset_id = a.id AND x.user_id = ${params.add(userId)})`,
          ];
    const query = parseListQuery(assetListSpec, c.req.queries());
    return c.json(await runList(db, assetListSpec, query, scope));
  });

  // Assets the caller may change: unlocked ones, for roles that update Asset.
  app.get('/editable', auth, async (c) => {
    const canUpdate = c.get('auth').ability.can('update', 'Asset');
    const scope: ListScope = () => [canUpdate ? 'NOT a.locked' : 'false'];
    const query = parseListQuery(assetListSpec, c.req.queries());
    return c.json(await runList(db, assetListSpec, query, scope));
  });

  app.get('/countByType', auth, requireAbility('read', 'Asset'), async (c) => {
    const { rows } = await db.query<{ type: string; count: number }>(
      'SELECT type, count(*)::int AS count FROM assets GROUP BY type ORDER BY type',
    );
    const data: CountByType = rows.map(({ type, count }) => ({ type, count }));
    return c.json({ data });
  });

  app.get('/:id', auth, requireAbility('read', 'Asset'), async (c) => {
    return c.json({ data: await getAsset(db, c.req.param('id')) });
  });

  // A locked asset is protected from deletion; unlock it first.
  app.delete('/:id', auth, requireAbility('delete', 'Asset'), async (c) => {
    const id = c.req.param('id');
    const data = await db.transaction(async (tx) => {
      await lockPositions(tx, ASSETS.lockKey);
      const asset = await getAsset(tx, id);
      if (asset.locked) fail(409, 'ASSET_LOCKED', 'The asset is locked; unlock it first');
      const { rows } = await tx.query<{ application_id: string }>(
        'SELECT application_id FROM application_assets WHERE asset_id = $1 ORDER BY application_id',
        [id],
      );
      const applicationIds = rows.map((row) => row.application_id);
      // Sorted, so two deletes never wait on each other's locks in opposite order.
      for (const applicationId of applicationIds) {
        await lockPositions(tx, applicationLockKey(applicationId));
      }
      await tx.query('DELETE FROM assets WHERE id = $1', [id]);
      await tx.query('UPDATE users SET assets = array_remove(assets, $1) WHERE $1 = ANY(assets)', [
        id,
      ]);
      await renumberAssets(tx);
      await renumberApplicationAssets(tx, applicationIds);
      return asset;
    });
    return c.json({ data });
  });

  for (const [action, locked] of [
    ['lock', true],
    ['unlock', false],
  ] as const) {
    app.put(`/:id/${action}`, auth, requireAbility('update', 'Asset'), async (c) => {
      await readBody(c, anyObjectBodySchema);
      const id = c.req.param('id');
      await db.query('UPDATE assets SET locked = $2, updated_at = $3 WHERE id = $1', [
        id,
        locked,
        deps.now(),
      ]);
      return c.json({ data: await getAsset(db, id) });
    });
  }

  app.patch('/:id/position', auth, requireAbility('update', 'Asset'), async (c) => {
    const body = await readBody(c, positionBodySchema);
    const filters = filterFromJson(assetListSpec, body.filter);
    const id = c.req.param('id');
    const found = await db.transaction((tx) =>
      moveToPosition(tx, assetListSpec, ASSETS, { id, position: body.position, filters }),
    );
    if (!found) fail(404, 'NOT_FOUND', `No asset with id ${id}`);
    return c.json({ data: await getAsset(db, id) });
  });

  return app;
}

/**
 * Asset routes shared by /v1/assets and /private/v1/assets (the private mount is gated by the
 * PrivateApi ability in app.ts): the list and its authorized/editable variants, one asset,
 * create, edit, delete, lock/unlock, order update, counts per type, the back-office changelog,
 * the glTF validator, and the icon and texture services; copying a template is private only.
 *
 * A locked asset cannot be changed (409 ASSET_LOCKED) until it is unlocked. Every mutation
 * records its asset events (server/events.ts) in the transaction that makes the change.
 */
import { Hono, type Context } from 'hono';
import {
  assetBulkDeleteBodySchema,
  assetCreateBodySchema,
  assetFromTemplateBodySchema,
  assetLockBodySchema,
  assetPatchBodySchema,
  assetPredictTextureBodySchema,
  assetValidateBodySchema,
  positionBodySchema,
  type Asset,
  type AssetCreateBody,
  type CountByType,
  type UploadResult,
} from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import { deliveredModelUrl } from '../../core/model-delivery';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import {
  assetEventListSpec,
  CHANGELOG_HIDDEN_KEYS,
  recordAssetEvent,
  recordAssetEvents,
} from '../events';
import { holdFileReferences } from '../file-sweeper';
import { moveToTrash } from '../trash';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import {
  filterConditions,
  filterFromJson,
  listHandler,
  parseListQuery,
  runList,
  SqlParams,
  type KeptCount,
  type ListScope,
} from '../list';
import { validateStoredModel } from '../model-validator';
import { applicationLockKey, lockPositions, moveToPosition } from '../positions';
import { fileUrl } from '../storage';
import {
  ASSETS,
  assetForChange,
  assetListSpec,
  checkFileFields,
  findAsset,
  findAssets,
  forgetAssignments,
  getAsset,
  insertAsset,
  storedFileFor,
  updateAsset,
} from '../asset-store';
import { runModelService, serviceUrl } from '../model-services';
import { nameWithExtensionOf, recordStoredFile } from '../stored-files';
import {
  changeOf,
  checkBase,
  checkWhole,
  readIfMatch,
  refuseIfMatch,
  setVersionTag,
} from '../versions';

const actorOf = (c: Context<AuthEnv>) => c.get('auth').userId;

/** Records `event` on an asset with the whole asset as its data (created, deleted). */
function recordWhole(
  tx: Db,
  c: Context<AuthEnv>,
  event: 'created' | 'deleted',
  asset: Asset,
  at: Date,
) {
  return recordAssetEvent(tx, {
    assetId: asset.id,
    event,
    actorId: actorOf(c),
    data: { asset },
    at,
  });
}

/**
 * The whole catalogue's count under a filter by type alone or by one tag alone: the sums
 * migration 033's triggers keep (counting one tag's assets looked each one up).
 */
const keptAssetCount: KeptCount = (params, { type, tagId, ...others }) => {
  if (Object.keys(others).length > 0) return undefined;
  if (type && !tagId) {
    return `SELECT coalesce(sum(n), 0)::int AS total FROM asset_type_counts
            WHERE type = ANY(${params.add(type)}::text[])`;
  }
  if (tagId?.length === 1 && !type) {
    return `SELECT coalesce(sum(n), 0)::int AS total FROM tag_asset_counts
            WHERE tag_id = ${params.add(tagId[0]!)}`;
  }
  return undefined;
};

/**
 * Routes mounted at /v1/assets and /private/v1/assets; `{ privateApi: true }` adds the
 * private-only ones (copy of a template).
 */
export function assetRoutes(deps: Deps, options: { privateApi?: boolean } = {}) {
  const { db, storage } = deps;
  const app = new Hono<AuthEnv>();
  const mount = options.privateApi ? '/private/v1/assets' : '/v1/assets';
  const on = declaredRoutes(app, deps, mount);

  on('get', mount, undefined, listHandler(db, assetListSpec, keptAssetCount));

  // Assets the caller may read: every asset for roles that read Asset, otherwise the ones
  // assigned to the caller.
  const authorizedScope =
    (c: Context<AuthEnv>): ListScope =>
    (params) => {
      const { ability, userId } = c.get('auth');
      return ability.can('read', 'Asset')
        ? []
        : [
            `EXISTS (SELECT 1 FROM user_assets x WHERE x.asset_id = a.id AND x.user_id = ${params.add(userId)})`,
          ];
    };

  on('get', `${mount}/authorized`, undefined, async (c) => {
    const query = parseListQuery(assetListSpec, c.req.queries());
    return c.json(await runList(db, assetListSpec, query, authorizedScope(c)));
  });

  // The default pick (docs/api.md "Lists"): per type, the first asset in the catalogue
  // order among those the caller is authorized to use that match the filters.
  on('get', `${mount}/authorize-default`, undefined, async (c) => {
    const { filters, ...rest } = parseListQuery(assetListSpec, c.req.queries());
    const scope: ListScope = (params) => {
      const conditions = [
        ...authorizedScope(c)(params),
        ...filterConditions(assetListSpec, filters, params),
      ];
      return [
        `a.id IN (SELECT DISTINCT ON (a.type) a.id FROM assets a
           ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
           ORDER BY a.type, a.position, a.rank, a.id)`,
      ];
    };
    return c.json(await runList(db, assetListSpec, { ...rest, filters: {} }, scope));
  });

  // Assets the caller may change: unlocked ones, for roles that update Asset.
  on('get', `${mount}/editable`, undefined, async (c) => {
    const canUpdate = c.get('auth').ability.can('update', 'Asset');
    const scope: ListScope = () => [canUpdate ? 'NOT a.locked' : 'false'];
    const query = parseListQuery(assetListSpec, c.req.queries());
    return c.json(await runList(db, assetListSpec, query, scope));
  });

  // Takes the filters of the asset list (page, limit and order are accepted and ignored).
  on('get', `${mount}/countByType`, undefined, async (c) => {
    const { filters } = parseListQuery(assetListSpec, c.req.queries());
    const params = new SqlParams();
    const conditions = filterConditions(assetListSpec, filters, params);
    // Unfiltered, the counts kept by migration 033's triggers: grouping every asset would
    // cost in proportion to the catalogue.
    const { rows } = await db.query<{ type: string; count: number }>(
      conditions.length === 0
        ? `SELECT type, sum(n)::int AS count FROM asset_type_counts
           GROUP BY type HAVING sum(n) > 0 ORDER BY type`
        : `SELECT a.type, count(*)::int AS count FROM assets a WHERE ${conditions.join(' AND ')}
           GROUP BY a.type ORDER BY a.type`,
      params.values,
    );
    const data: CountByType = rows.map(({ type, count }) => ({ type, count }));
    return c.json({ data });
  });

  on('post', mount, assetCreateBodySchema, async (c, body: AssetCreateBody) => {
    const at = deps.now();
    const data = await db.transaction(async (tx) => {
      await holdFileReferences(tx);
      await checkFileFields(storage, body);
      const id = await insertAsset(
        tx,
        {
          name: body.name,
          type: body.type,
          gender: body.gender,
          description: body.description ?? '',
          iconUrl: body.iconUrl ?? null,
          modelUrl: body.modelUrl ?? null,
          textureUrl: body.textureUrl ?? null,
          normalMapUrl: body.normalMapUrl ?? null,
          sourceUrl: body.sourceUrl ?? null,
          isTemplate: body.isTemplate ?? false,
          templateId: null,
        },
        body.tagIds ?? [],
        at,
      );
      const asset = await getAsset(tx, id);
      await recordWhole(tx, c, 'created', asset, at);
      await keepAnswer(tx, c, c.json({ data: asset }));
      return asset;
    });
    return c.json({ data });
  });

  if (options.privateApi) {
    // A new, unlocked asset with the template's fields, files and tags (files are immutable,
    // so the copy shares them); it remembers its template in templateId.
    on('post', `${mount}/using-template`, assetFromTemplateBodySchema, async (c, body) => {
      const { templateId, name } = body;
      const at = deps.now();
      const data = await db.transaction(async (tx) => {
        // The copy refers to the template's files: a sweep must not remove them meanwhile.
        await holdFileReferences(tx);
        const template = await getAsset(tx, templateId);
        if (!template.isTemplate) {
          fail(400, 'VALIDATION_ERROR', `templateId: Asset ${templateId} is not a template`);
        }
        const id = await insertAsset(
          tx,
          { ...template, name: name ?? template.name, isTemplate: false, templateId },
          template.tags.map((tag) => tag.id),
          at,
        );
        const asset = await getAsset(tx, id);
        await recordAssetEvent(tx, {
          assetId: id,
          event: 'created',
          actorId: actorOf(c),
          data: { asset, templateId },
          at,
        });
        await keepAnswer(tx, c, c.json({ data: asset }));
        return asset;
      });
      return c.json({ data });
    });
  }

  on('post', `${mount}/validate`, assetValidateBodySchema, async (c, { modelUrl }) => {
    const model = await storedFileFor(storage, 'modelUrl', modelUrl, 'model');
    const bytes =
      (await storage.read(model.key)) ??
      fail(400, 'VALIDATION_ERROR', `modelUrl: No stored file ${modelUrl}`);
    return c.json({ data: await validateStoredModel(bytes, modelUrl) });
  });

  on('post', `${mount}/predict-texture`, assetPredictTextureBodySchema, async (c, { modelUrl }) => {
    const url = serviceUrl(
      deps.config.texturePredictorUrl,
      'TEXTURE_PREDICTOR_URL',
      'Texture prediction',
    );
    const model = await storedFileFor(storage, 'modelUrl', modelUrl, 'model');
    const texture = await runModelService(
      storage,
      { url, name: 'texture predictor' },
      model,
      'texture',
    );
    const name = nameWithExtensionOf('predicted texture', texture.key);
    const data: UploadResult = await recordStoredFile(db, texture, name, actorOf(c), deps.now());
    return c.json({ data });
  });

  on('get', `${mount}/{id}`, undefined, async (c) => {
    const data = await getAsset(db, c.req.param('id')!);
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Any subset of the fields; an update that changes nothing writes and records nothing. With
  // If-Match, fields changed by someone else since that version are a 409 (server/versions.ts).
  on('patch', `${mount}/{id}`, assetPatchBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const data = await db.transaction(async (tx) => {
      await holdFileReferences(tx);
      await checkFileFields(storage, body);
      return updateAsset(tx, id, body, actorOf(c), deps.now(), base);
    });
    setVersionTag(c, data);
    return c.json({ data });
  });

  // Several assets at once, all or none: an unknown id (404) or a locked asset (409, naming
  // every locked one) deletes nothing. Deleted assets go to the Trash (server/trash.ts). Each deleted asset records `asset.bulk-deleted.v1`.
  on('post', `${mount}/bulk-delete`, assetBulkDeleteBodySchema, async (c, body) => {
    refuseIfMatch(c);
    const ids = [...new Set(body.ids)].sort();
    const at = deps.now();
    const data = await db.transaction(async (tx) => {
      await lockPositions(tx, ASSETS.lockKey);
      const { rows } = await tx.query<{ id: string; name: string; locked: boolean }>(
        'SELECT id, name, locked FROM assets WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
        [ids],
      );
      const missing = ids.filter((id) => !rows.some((row) => row.id === id));
      if (missing.length > 0) fail(404, 'NOT_FOUND', `No assets with ids ${missing.join(', ')}`);
      const locked = rows.filter((row) => row.locked).map((row) => row.name);
      if (locked.length > 0) {
        fail(
          409,
          'ASSET_LOCKED',
          `Locked assets cannot be deleted; unlock them first: ${locked.join(', ')}`,
        );
      }
      const assets = await findAssets(tx, ids);
      const placements = await tx.query<{ application_id: string }>(
        `SELECT DISTINCT application_id FROM application_assets
         WHERE asset_id = ANY($1::text[]) ORDER BY application_id`,
        [ids],
      );
      const applicationIds = placements.rows.map((row) => row.application_id);
      for (const applicationId of applicationIds) {
        await lockPositions(tx, applicationLockKey(applicationId));
      }
      for (const id of ids) await moveToTrash(tx, { kind: 'asset', id }, actorOf(c), at);
      await forgetAssignments(tx, ids);
      await tx.query('DELETE FROM assets WHERE id = ANY($1::text[])', [ids]);
      await recordAssetEvents(
        tx,
        assets.map((asset) => ({
          assetId: asset.id,
          event: 'bulkDeleted' as const,
          actorId: actorOf(c),
          data: { asset, ids },
          at,
        })),
      );
      return { deleted: ids };
    });
    return c.json({ data });
  });

  // A locked asset is protected from deletion; unlock it first. It goes to the Trash.
  on('delete', `${mount}/{id}`, undefined, async (c) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const at = deps.now();
    const data = await db.transaction(async (tx) => {
      await lockPositions(tx, ASSETS.lockKey);
      const asset = await assetForChange(tx, id);
      checkWhole(asset, base);
      const { rows } = await tx.query<{ application_id: string }>(
        'SELECT application_id FROM application_assets WHERE asset_id = $1 ORDER BY application_id',
        [id],
      );
      const applicationIds = rows.map((row) => row.application_id);
      // Sorted, so two deletes never wait on each other's locks in opposite order.
      for (const applicationId of applicationIds) {
        await lockPositions(tx, applicationLockKey(applicationId));
      }
      await moveToTrash(tx, { kind: 'asset', id }, actorOf(c), at);
      await forgetAssignments(tx, [id]);
      await tx.query('DELETE FROM assets WHERE id = $1', [id]);
      await recordWhole(tx, c, 'deleted', asset, at);
      return asset;
    });
    return c.json({ data });
  });

  // Idempotent: locking a locked asset (or unlocking an unlocked one) changes and records
  // nothing. A `reason` in the body is recorded in the event. With If-Match, a lock state
  // someone else changed since that version is a 409 (server/versions.ts).
  for (const [action, locked] of [
    ['lock', true],
    ['unlock', false],
  ] as const) {
    on('put', `${mount}/{id}/${action}`, assetLockBodySchema, async (c, { reason }) => {
      const base = readIfMatch(c);
      const id = c.req.param('id')!;
      const at = deps.now();
      const data = await db.transaction(async (tx) => {
        const { rows: held } = await tx.query<{ locked: boolean; version: number }>(
          'SELECT locked, version FROM assets WHERE id = $1 FOR UPDATE',
          [id],
        );
        if (held[0]) {
          const changes = changeOf('locked', held[0].locked, locked);
          await checkBase(tx, 'asset', { id, version: held[0].version }, base, changes);
        }
        const { rows } = await tx.query<{ id: string }>(
          `UPDATE assets SET locked = $2, updated_at = $3
           WHERE id = $1 AND locked <> $2 RETURNING id`,
          [id, locked, at],
        );
        if (rows[0]) {
          await recordAssetEvent(tx, {
            assetId: id,
            event: 'locked',
            actorId: actorOf(c),
            data: { locked, ...(reason ? { reason } : {}) },
            at,
          });
        }
        return getAsset(tx, id);
      });
      setVersionTag(c, data);
      return c.json({ data });
    });
  }

  // With If-Match, a position someone else changed since that version is a 409 (with a filter
  // the position counts in another list, so any such change is), as for application entries.
  on('patch', `${mount}/{id}/position`, positionBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const filters = filterFromJson(assetListSpec, body.filter);
    const id = c.req.param('id')!;
    const found = await db.transaction(async (tx) => {
      if (base !== undefined) {
        await lockPositions(tx, ASSETS.lockKey);
        const { rows } = await tx.query<{ position: number; version: number }>(
          'SELECT position, version FROM assets WHERE id = $1 FOR UPDATE',
          [id],
        );
        if (rows[0]) {
          const moves = body.filter !== undefined || rows[0].position !== body.position;
          const changes = changeOf('position', rows[0].position, body.position, moves);
          await checkBase(tx, 'asset', { id, version: rows[0].version }, base, changes);
        }
      }
      return moveToPosition(tx, assetListSpec, ASSETS, { id, position: body.position, filters });
    });
    if (!found) fail(404, 'NOT_FOUND', `No asset with id ${id}`);
    return c.json({ data: await getAsset(db, id) });
  });

  // The asset's events, newest first; still readable after the asset was deleted.
  on('get', `${mount}/{id}/backoffice-changelog`, undefined, async (c) => {
    const id = c.req.param('id')!;
    const query = parseListQuery(assetEventListSpec, c.req.queries());
    const result = await runList(db, assetEventListSpec, query, (params) => [
      `e.asset_id = ${params.add(id)}`,
      `NOT (e.routing_key = ANY(${params.add(CHANGELOG_HIDDEN_KEYS)}::text[]))`,
    ]);
    if (result.pagination.totalDocs === 0 && !(await findAsset(db, id))) {
      fail(404, 'NOT_FOUND', `No asset with id ${id}`);
    }
    return c.json(result);
  });

  // Renders the icon from the model with the configured renderer and stores it as iconUrl.
  // With If-Match, an icon someone else changed since that version is a 409.
  on('post', `${mount}/{id}/generate-icon-from-model`, undefined, async (c) => {
    const base = readIfMatch(c);
    const url = serviceUrl(deps.config.iconRendererUrl, 'ICON_RENDERER_URL', 'Icon rendering');
    const id = c.req.param('id')!;
    const asset = await getAsset(db, id);
    if (asset.locked) fail(409, 'ASSET_LOCKED', 'The asset is locked; unlock it first');
    if (!asset.modelUrl) fail(400, 'VALIDATION_ERROR', 'The asset has no model to render');
    // The delivery version when it has one: the same picture from fewer bytes to send.
    const model = await storedFileFor(storage, 'modelUrl', deliveredModelUrl(asset)!, 'model');
    const icon = await runModelService(storage, { url, name: 'icon renderer' }, model, 'icon');
    const data = await db.transaction(async (tx) => {
      const name = nameWithExtensionOf(`${asset.name} icon`, icon.key);
      await recordStoredFile(tx, icon, name, actorOf(c), deps.now());
      return updateAsset(tx, id, { iconUrl: fileUrl(icon.key) }, actorOf(c), deps.now(), base);
    });
    setVersionTag(c, data);
    return c.json({ data });
  });

  return app;
}

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
  type AssetCreateBody,
  type UploadResult,
} from '../../contract/schemas';
import type { AuthEnv } from '../auth/middleware';
import { deliveredModelUrl } from '../../core/model-delivery';
import type { Deps } from '../deps';
import { declaredRoutes } from '../http/declared';
import { assetEventListSpec, recordAssetEvent } from '../events';
import { holdFileReferences } from '../file-sweeper';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import { listHandler, parseListQuery } from '../list';
import { validateStoredModel } from '../model-validator';
import { fileUrl } from '../storage';
import {
  assetChangelog,
  authorizedAssets,
  countByType,
  defaultAssets,
  editableAssets,
  keptAssetCount,
} from '../asset-lists';
import {
  assetListSpec,
  checkFileFields,
  getAsset,
  insertAsset,
  storedFileFor,
  updateAsset,
} from '../asset-store';
import { deleteAsset, deleteAssets, moveAsset, setAssetLock } from '../asset-writes';
import { runModelService, serviceUrl } from '../model-services';
import { nameWithExtensionOf, recordStoredFile } from '../stored-files';
import { readIfMatch, refuseIfMatch, setVersionTag } from '../versions';

const actorOf = (c: Context<AuthEnv>) => c.get('auth').userId;

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

  // The variants of the list (server/asset-lists.ts), each under the list's query.
  const queryOf = (c: Context<AuthEnv>) => parseListQuery(assetListSpec, c.req.queries());
  on('get', `${mount}/authorized`, undefined, async (c) =>
    c.json(await authorizedAssets(db, c.get('auth'), queryOf(c))),
  );
  on('get', `${mount}/authorize-default`, undefined, async (c) =>
    c.json(await defaultAssets(db, c.get('auth'), queryOf(c))),
  );
  on('get', `${mount}/editable`, undefined, async (c) =>
    c.json(await editableAssets(db, c.get('auth'), queryOf(c))),
  );
  // Takes the filters of the asset list (page, limit and order are accepted and ignored).
  on('get', `${mount}/countByType`, undefined, async (c) =>
    c.json({ data: await countByType(db, queryOf(c).filters) }),
  );

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
      await recordAssetEvent(tx, {
        assetId: id,
        event: 'created',
        actorId: actorOf(c),
        data: { asset },
        at,
      });
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

  // Several assets at once, all or none, into the Trash (server/asset-writes.ts).
  on('post', `${mount}/bulk-delete`, assetBulkDeleteBodySchema, async (c, body) => {
    refuseIfMatch(c);
    const ids = [...new Set(body.ids)].sort();
    await db.transaction((tx) => deleteAssets(tx, ids, actorOf(c), deps.now()));
    return c.json({ data: { deleted: ids } });
  });

  // A locked asset is protected from deletion; unlock it first. It goes to the Trash.
  on('delete', `${mount}/{id}`, undefined, async (c) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const data = await db.transaction((tx) => deleteAsset(tx, id, actorOf(c), deps.now(), base));
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
      const data = await db.transaction(async (tx) => {
        await setAssetLock(tx, id, { locked, reason }, actorOf(c), deps.now(), base);
        return getAsset(tx, id);
      });
      setVersionTag(c, data);
      return c.json({ data });
    });
  }

  // Into the catalogue order or a filtered list's (server/asset-writes.ts `moveAsset`).
  on('patch', `${mount}/{id}/position`, positionBodySchema, async (c, body) => {
    const base = readIfMatch(c);
    const id = c.req.param('id')!;
    const found = await db.transaction((tx) => moveAsset(tx, id, body, base));
    if (!found) fail(404, 'NOT_FOUND', `No asset with id ${id}`);
    return c.json({ data: await getAsset(db, id) });
  });

  on('get', `${mount}/{id}/backoffice-changelog`, undefined, async (c) => {
    const query = parseListQuery(assetEventListSpec, c.req.queries());
    return c.json(await assetChangelog(db, c.req.param('id')!, query));
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

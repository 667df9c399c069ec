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
import { z } from 'zod/mini';
import {
  assetCreateBodySchema,
  assetFromTemplateBodySchema,
  assetPatchBodySchema,
  assetPredictTextureBodySchema,
  assetValidateBodySchema,
  genderSchema,
  positionBodySchema,
  type Asset,
  type AssetCreateBody,
  type AssetPatchBody,
  type CountByType,
  type Gender,
  type UploadKind,
  type UploadResult,
} from '../../src/api/schemas';
import { UPLOAD_RULES } from '../../src/files/rules';
import type { SniffedType } from '../../src/files/sniff';
import { requireAbility, requireAuth, type AuthEnv } from '../auth/middleware';
import type { Db } from '../db';
import type { Deps } from '../deps';
import {
  assetEventListSpec,
  recordAssetEvent,
  recordAssetEvents,
  type AssetEventInput,
} from '../events';
import { fail } from '../http/errors';
import { readBody } from '../http/validate';
import { newId } from '../ids';
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
import { validateGlb } from '../model-validator';
import {
  applicationLockKey,
  lockPositions,
  moveToPosition,
  renumberApplicationAssets,
  renumberAssets,
  type OrderedCollection,
} from '../positions';
import { contentTypeOfKey, fileUrl, keyOfFileUrl, type Storage, type StoredFile } from '../storage';
import { storeUpload } from './uploads';

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

/** The stored-file fields of an asset and the upload kind each one holds. */
const FILE_FIELDS = {
  iconUrl: 'icon',
  modelUrl: 'model',
  textureUrl: 'texture',
  normalMapUrl: 'texture',
  sourceUrl: 'source',
} as const satisfies Partial<Record<keyof Asset, UploadKind>>;

/** Editable fields of an asset and their columns. */
const COLUMNS = {
  name: 'name',
  type: 'type',
  gender: 'gender',
  description: 'description',
  iconUrl: 'icon_url',
  modelUrl: 'model_url',
  textureUrl: 'texture_url',
  normalMapUrl: 'normal_map_url',
  sourceUrl: 'source_url',
  isTemplate: 'is_template',
} as const satisfies Partial<Record<keyof Asset, string>>;
type EditableField = keyof typeof COLUMNS;
type EditableValues = Pick<Asset, EditableField>;

/** What an update changed, field by field (tags as `tagIds`). */
export type AssetChanges = Record<string, { from: unknown; to: unknown }>;

/**
 * The stored file behind `url` for an upload of `kind`: it must be a `/files/<key>` address of
 * this server, of a type the kind accepts, and exist; anything else is a 400 naming `field`.
 */
export async function storedFileFor(
  storage: Storage,
  field: string,
  url: string,
  kind: UploadKind,
): Promise<StoredFile> {
  const key = keyOfFileUrl(url);
  if (!key) fail(400, 'VALIDATION_ERROR', `${field}: Expected the url of an upload (/files/<key>)`);
  const accepted = Object.keys(UPLOAD_RULES[kind].accept) as SniffedType[];
  if (!accepted.includes(contentTypeOfKey(key)!)) {
    fail(400, 'VALIDATION_ERROR', `${field}: Expected a ${kind} upload (${accepted.join(', ')})`);
  }
  return (
    (await storage.stat(key)) ?? fail(400, 'VALIDATION_ERROR', `${field}: No stored file ${url}`)
  );
}

/** Checks every file address the body sets (null clears a file and needs no check). */
async function checkFileFields(storage: Storage, body: AssetPatchBody) {
  for (const [field, kind] of Object.entries(FILE_FIELDS)) {
    const url = body[field as keyof typeof FILE_FIELDS];
    if (typeof url === 'string') await storedFileFor(storage, field, url, kind);
  }
}

/** Replaces the tags of an asset; unknown tag ids are a 400 naming them (nothing changed). */
async function setTags(tx: Db, assetId: string, tagIds: readonly string[], at: Date) {
  const ids = [...new Set(tagIds)];
  const { rows } = await tx.query<{ id: string }>(
    'SELECT id FROM tags WHERE id = ANY($1::text[])',
    [ids],
  );
  const known = new Set(rows.map((row) => row.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    fail(400, 'VALIDATION_ERROR', `tagIds: Unknown tags ${unknown.join(', ')}`);
  await tx.query('DELETE FROM asset_tags WHERE asset_id = $1 AND NOT (tag_id = ANY($2::text[]))', [
    assetId,
    ids,
  ]);
  await tx.query(
    `INSERT INTO asset_tags (asset_id, tag_id, created_at)
     SELECT $1, id, $3 FROM unnest($2::text[]) AS id ON CONFLICT DO NOTHING`,
    [assetId, ids, at],
  );
}

/** Inserts an asset at the end of the global order; answers its id. */
async function insertAsset(
  tx: Db,
  values: EditableValues & { templateId: string | null },
  tagIds: readonly string[],
  at: Date,
): Promise<string> {
  await lockPositions(tx, ASSETS.lockKey);
  const id = newId();
  const fields = Object.keys(COLUMNS) as EditableField[];
  await tx.query(
    `INSERT INTO assets (id, ${fields.map((f) => COLUMNS[f]).join(', ')}, template_id, locked,
       position, created_at, updated_at)
     VALUES ($1, ${fields.map((_, i) => `$${i + 2}`).join(', ')}, $${fields.length + 2}, false,
       (SELECT COALESCE(max(position), 0) + 1 FROM assets), $${fields.length + 3},
       $${fields.length + 3})`,
    [id, ...fields.map((f) => values[f]), values.templateId, at],
  );
  if (tagIds.length > 0) await setTags(tx, id, tagIds, at);
  return id;
}

/** The asset, row-locked until the transaction ends; 404 unknown, 409 when it is locked. */
export async function assetForChange(tx: Db, id: string): Promise<Asset> {
  const { rows } = await tx.query<{ locked: boolean }>(
    'SELECT locked FROM assets WHERE id = $1 FOR UPDATE',
    [id],
  );
  if (!rows[0]) fail(404, 'NOT_FOUND', `No asset with id ${id}`);
  if (rows[0].locked) fail(409, 'ASSET_LOCKED', 'The asset is locked; unlock it first');
  return getAsset(tx, id);
}

/** The ids of an asset's tags, sorted (the form `changes.tagIds` records). */
export const sortedTagIds = (asset: Asset) => asset.tags.map((tag) => tag.id).sort();

/** The fields `body` would change on `asset` (tags compared as sets, as `tagIds`). */
function changesOf(asset: Asset, body: AssetPatchBody): AssetChanges {
  const changes: AssetChanges = {};
  for (const field of Object.keys(COLUMNS) as EditableField[]) {
    const to = body[field];
    if (to !== undefined && to !== asset[field]) changes[field] = { from: asset[field], to };
  }
  if (body.tagIds !== undefined) {
    const from = sortedTagIds(asset);
    const to = [...new Set(body.tagIds)].sort();
    if (from.join() !== to.join()) changes.tagIds = { from, to };
  }
  return changes;
}

/**
 * The events of an update: `updated` (v1 with the changes, v2 with the asset after), plus
 * `model-updated` and `type-or-gender-changed` when those fields changed.
 */
export function updateEvents(
  after: Asset,
  changes: AssetChanges,
  actorId: string,
  at: Date,
): AssetEventInput[] {
  const event = (name: AssetEventInput['event'], data: Record<string, unknown>) => ({
    assetId: after.id,
    event: name,
    actorId,
    data,
    at,
  });
  const events = [event('updated', { changes }), event('updatedV2', { asset: after })];
  if (changes.modelUrl) events.push(event('modelUpdated', changes.modelUrl));
  const { type, gender } = changes;
  if (type || gender) {
    events.push(
      event('typeOrGenderChanged', {
        changes: { ...(type && { type }), ...(gender && { gender }) },
      }),
    );
  }
  return events;
}

/** Applies `body` to an unlocked asset in `tx` and records the update; answers the asset. */
async function updateAsset(
  tx: Db,
  id: string,
  body: AssetPatchBody,
  actorId: string,
  at: Date,
): Promise<Asset> {
  const before = await assetForChange(tx, id);
  const changes = changesOf(before, body);
  if (Object.keys(changes).length === 0) return before;
  const fields = (Object.keys(changes) as (EditableField | 'tagIds')[]).filter(
    (field): field is EditableField => field !== 'tagIds',
  );
  await tx.query(
    `UPDATE assets SET updated_at = $2${fields.map((f, i) => `, ${COLUMNS[f]} = $${i + 3}`).join('')}
     WHERE id = $1`,
    [id, at, ...fields.map((f) => body[f] ?? null)],
  );
  if (changes.tagIds && body.tagIds) await setTags(tx, id, body.tagIds, at);
  const after = await getAsset(tx, id);
  await recordAssetEvents(tx, updateEvents(after, changes, actorId, at));
  return after;
}

/** How long the icon renderer or texture predictor may take. */
const SERVICE_TIMEOUT_MS = 120_000;

/** The URL of an optional service, or 501 naming the variable that would configure it. */
function serviceUrl(url: string | undefined, variable: string, what: string): string {
  return (
    url ??
    fail(
      501,
      'NOT_IMPLEMENTED',
      `${what} is not configured on this server: set ${variable} to the URL of a service that does it`,
    )
  );
}

/**
 * Sends a stored model to a service (POST, body = the .glb bytes) and stores the image it
 * answers under the rules of `kind`. Failures and refused answers are 502 BAD_GATEWAY.
 */
async function runModelService(
  storage: Storage,
  service: { url: string; name: string },
  model: StoredFile,
  kind: UploadKind,
): Promise<StoredFile> {
  const found = await storage.get(model.key);
  if (!found) fail(400, 'VALIDATION_ERROR', `modelUrl: No stored file ${fileUrl(model.key)}`);
  let response: Response;
  try {
    response = await fetch(service.url, {
      method: 'POST',
      headers: { 'content-type': model.contentType },
      body: found.stream,
      duplex: 'half',
      signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS),
    } as RequestInit & { duplex: 'half' });
  } catch (error) {
    await found.stream.cancel().catch(() => undefined);
    fail(502, 'BAD_GATEWAY', `The ${service.name} could not be reached: ${String(error)}`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    fail(502, 'BAD_GATEWAY', `The ${service.name} answered HTTP ${response.status}`);
  }
  try {
    return await storeUpload(storage, kind, response.body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    fail(502, 'BAD_GATEWAY', `The ${service.name} answered an unusable ${kind}: ${reason}`);
  }
}

const actorOf = (c: Context<AuthEnv>) => c.get('auth').userId;

/**
 * Routes mounted at /v1/assets and /private/v1/assets; `{ privateApi: true }` adds the
 * private-only ones (copy of a template).
 */
export function assetRoutes(deps: Deps, options: { privateApi?: boolean } = {}) {
  const { db, storage } = deps;
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

  app.post('/', auth, requireAbility('create', 'Asset'), async (c) => {
    const body: AssetCreateBody = await readBody(c, assetCreateBodySchema);
    await checkFileFields(storage, body);
    const at = deps.now();
    const data = await db.transaction(async (tx) => {
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
      return asset;
    });
    return c.json({ data });
  });

  if (options.privateApi) {
    // A new, unlocked asset with the template's fields, files and tags (files are immutable,
    // so the copy shares them); it remembers its template in templateId.
    app.post('/using-template', auth, requireAbility('create', 'Asset'), async (c) => {
      const { templateId, name } = await readBody(c, assetFromTemplateBodySchema);
      const at = deps.now();
      const data = await db.transaction(async (tx) => {
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
        return asset;
      });
      return c.json({ data });
    });
  }

  app.post('/validate', auth, requireAbility('update', 'Asset'), async (c) => {
    const { modelUrl } = await readBody(c, assetValidateBodySchema);
    const model = await storedFileFor(storage, 'modelUrl', modelUrl, 'model');
    const bytes =
      (await storage.read(model.key)) ??
      fail(400, 'VALIDATION_ERROR', `modelUrl: No stored file ${modelUrl}`);
    const data =
      (await validateGlb(bytes, modelUrl)) ??
      fail(400, 'VALIDATION_ERROR', 'modelUrl: The validator cannot read this file as glTF');
    return c.json({ data });
  });

  app.post('/predict-texture', auth, requireAbility('update', 'Asset'), async (c) => {
    const { modelUrl } = await readBody(c, assetPredictTextureBodySchema);
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
    const data: UploadResult = {
      url: fileUrl(texture.key),
      size: texture.size,
      contentType: texture.contentType,
    };
    return c.json({ data });
  });

  app.get('/:id', auth, requireAbility('read', 'Asset'), async (c) => {
    return c.json({ data: await getAsset(db, c.req.param('id')) });
  });

  // Any subset of the fields; an update that changes nothing writes and records nothing.
  app.patch('/:id', auth, requireAbility('update', 'Asset'), async (c) => {
    const body = await readBody(c, assetPatchBodySchema);
    await checkFileFields(storage, body);
    const id = c.req.param('id');
    const data = await db.transaction((tx) => updateAsset(tx, id, body, actorOf(c), deps.now()));
    return c.json({ data });
  });

  // A locked asset is protected from deletion; unlock it first.
  app.delete('/:id', auth, requireAbility('delete', 'Asset'), async (c) => {
    const id = c.req.param('id');
    const at = deps.now();
    const data = await db.transaction(async (tx) => {
      await lockPositions(tx, ASSETS.lockKey);
      const asset = await assetForChange(tx, id);
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
      await recordAssetEvent(tx, {
        assetId: id,
        event: 'deleted',
        actorId: actorOf(c),
        data: { asset },
        at,
      });
      return asset;
    });
    return c.json({ data });
  });

  // Idempotent: locking a locked asset (or unlocking an unlocked one) changes and records
  // nothing.
  for (const [action, locked] of [
    ['lock', true],
    ['unlock', false],
  ] as const) {
    app.put(`/:id/${action}`, auth, requireAbility('update', 'Asset'), async (c) => {
      await readBody(c, anyObjectBodySchema);
      const id = c.req.param('id');
      const at = deps.now();
      const data = await db.transaction(async (tx) => {
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
            data: { locked },
            at,
          });
        }
        return getAsset(tx, id);
      });
      return c.json({ data });
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

  // The asset's events, newest first; still readable after the asset was deleted.
  app.get('/:id/backoffice-changelog', auth, requireAbility('update', 'Asset'), async (c) => {
    const id = c.req.param('id');
    const query = parseListQuery(assetEventListSpec, c.req.queries());
    const result = await runList(db, assetEventListSpec, query, (params) => [
      `e.asset_id = ${params.add(id)}`,
    ]);
    if (result.pagination.totalDocs === 0 && !(await findAsset(db, id))) {
      fail(404, 'NOT_FOUND', `No asset with id ${id}`);
    }
    return c.json(result);
  });

  // Renders the icon from the model with the configured renderer and stores it as iconUrl.
  app.post('/:id/generate-icon-from-model', auth, requireAbility('update', 'Asset'), async (c) => {
    const url = serviceUrl(deps.config.iconRendererUrl, 'ICON_RENDERER_URL', 'Icon rendering');
    const id = c.req.param('id');
    const asset = await getAsset(db, id);
    if (asset.locked) fail(409, 'ASSET_LOCKED', 'The asset is locked; unlock it first');
    if (!asset.modelUrl) fail(400, 'VALIDATION_ERROR', 'The asset has no model to render');
    const model = await storedFileFor(storage, 'modelUrl', asset.modelUrl, 'model');
    const icon = await runModelService(storage, { url, name: 'icon renderer' }, model, 'icon');
    const data = await db.transaction((tx) =>
      updateAsset(tx, id, { iconUrl: fileUrl(icon.key) }, actorOf(c), deps.now()),
    );
    return c.json({ data });
  });

  return app;
}

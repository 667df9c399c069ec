/**
 * The asset store: reading assets (one query a page, tags aggregated), creating and changing
 * them with their tags and files, and the asset events each change records. Routes validate
 * input and call these inside their transaction.
 */
import {
  genderSchema,
  type Asset,
  type AssetPatchBody,
  type Gender,
  type ModelDelivery,
  type UploadKind,
} from '../contract/schemas';
import { UPLOAD_RULES } from '../core/files/rules';
import type { SniffedType } from '../core/files/sniff';
import type { Db } from './db';
import { DELIVERY_JSON } from './delivery-records';
import { recordAssetEvents, type AssetEventInput } from './events';
import { fail } from './http/errors';
import { newId } from './ids';
import { anyOfFilter, booleanFilter, searchFilter, type ListSpec } from './list';
import { isoString } from './timestamps';
import {
  PAGE_PLACE,
  lockPositions,
  pagePlaces,
  placeSql,
  type OrderedCollection,
} from './positions';
import { contentTypeOfKey, keyOfFileUrl, type Storage, type StoredFile } from './storage';
import { checkBase } from './versions';

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
  version: number;
  model_delivery: ModelDelivery | null;
}

/** Asset columns of alias `a` with its place `place`, tags aggregated so a page is one query. */
const assetColumns = (place: string) => `a.id, a.name, a.type, a.gender, a.description,
  a.icon_url, a.model_url, a.texture_url, a.normal_map_url, a.source_url, a.is_template,
  a.template_id, a.locked, ${place} AS position, a.created_at, a.updated_at, a.version,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name, t.id)
            FROM asset_tags x JOIN tags t ON t.id = x.tag_id WHERE x.asset_id = a.id),
           '[]'::json) AS tags,
  (SELECT ${DELIVERY_JSON} FROM model_deliveries d
   WHERE a.model_url LIKE '/files/%' AND d.model_key = substr(a.model_url, 8)) AS model_delivery`;
const ASSET_COLUMNS = assetColumns(placeSql('assets', 'a'));

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
    version: row.version,
    modelDelivery: row.model_delivery,
  };
}

/** GET /v1/assets and its variants. */
export const assetListSpec: ListSpec<Asset> = {
  from: 'assets a',
  columns: ASSET_COLUMNS,
  page: { ...pagePlaces('assets', 'a'), columns: assetColumns(PAGE_PLACE) },
  orders: {
    name: 'a.name',
    type: 'a.type',
    gender: 'a.gender',
    createdAt: 'a.created_at',
    updatedAt: 'a.updated_at',
    position: ['a.position', 'a.rank'],
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
  narrowedBy: (filters) => (filters.tagId?.length === 1 ? oneTagListSpec : undefined),
  toRow: toAsset,
};

/**
 * The assets of one tag: the count and the page's ids are read over the tag's links, which carry
 * copies of the assets' sort keys (migration 040), one index range of the tag whatever its size
 * or the catalogue's. The other filters and the scopes name the asset (`a`), joined to the links
 * they read; a left join, which the planner leaves out where nothing names it.
 */
const oneTagListSpec: ListSpec<Asset> = {
  ...assetListSpec,
  narrowedBy: undefined,
  keys: { from: 'asset_tags k LEFT JOIN assets a ON a.id = k.asset_id', idColumn: 'k.asset_id' },
  orders: {
    name: 'k.asset_name',
    type: 'k.asset_type',
    gender: 'k.asset_gender',
    createdAt: 'k.asset_created_at',
    updatedAt: 'k.asset_updated_at',
    position: ['k.asset_position', 'k.asset_rank'],
  },
  filters: {
    ...assetListSpec.filters,
    tagId: { ...assetListSpec.filters.tagId!, whereOne: (p) => `k.tag_id = ${p}` },
  },
};

export const ASSETS: OrderedCollection = { table: 'assets', alias: 'a', lockKey: 'assets' };

/** One asset with its tags, or undefined. */
export async function findAsset(db: Db, id: string): Promise<Asset | undefined> {
  const { rows } = await db.query<AssetDbRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets a WHERE a.id = $1`,
    [id],
  );
  return rows[0] && toAsset(rows[0]);
}

/** The assets of `ids` that exist, with their tags, in id order; their places counted at once. */
export async function findAssets(db: Db, ids: readonly string[]): Promise<Asset[]> {
  const { with: places, join } = pagePlaces('assets', 'a');
  const { rows } = await db.query<AssetDbRow>(
    `WITH page_ids AS MATERIALIZED (SELECT DISTINCT unnest($1::text[]) AS id), ${places}
     SELECT ${assetColumns(PAGE_PLACE)} FROM assets a JOIN page_ids ON page_ids.id = a.id ${join}
     ORDER BY a.id`,
    [ids],
  );
  return rows.map(toAsset);
}

/** One asset, or 404. */
export async function getAsset(db: Db, id: string): Promise<Asset> {
  return (await findAsset(db, id)) ?? fail(404, 'NOT_FOUND', `No asset with id ${id}`);
}

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
export async function checkFileFields(storage: Storage, body: AssetPatchBody) {
  for (const [field, kind] of Object.entries(FILE_FIELDS)) {
    const url = body[field as keyof typeof FILE_FIELDS];
    if (typeof url === 'string') await storedFileFor(storage, field, url, kind);
  }
}

/**
 * Lock order of tags and assets: a transaction that locks both takes the tags first (in id
 * order), then the assets (in id order). Deleting a tag must go that way (it locks the tag,
 * then finds the assets it is on and locks them), so everything else does too: a change that
 * held an asset while it waited for a tag a delete holds would wait on that delete while the
 * delete waits on it (40P01 on PostgreSQL). Putting a tag on or taking it off takes the tag
 * FOR SHARE, so such changes run side by side and a delete waits for them; one that waits for
 * a delete finds the tag gone. Without it, tagging would still lock the tag, through the
 * asset_tags foreign key, but late (after the asset) and failing with a 500 once it is gone.
 * Every route that tags or untags assets, one or many, and the tag delete, follow this order.
 *
 * Locks the tags of `tagIds` FOR SHARE; answers the ids among them that are no tags.
 */
export async function shareTags(tx: Db, tagIds: readonly string[]): Promise<string[]> {
  const ids = [...new Set(tagIds)];
  if (ids.length === 0) return [];
  const { rows } = await tx.query<{ id: string }>(
    'SELECT id FROM tags WHERE id = ANY($1::text[]) ORDER BY id FOR SHARE',
    [ids],
  );
  const known = new Set(rows.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

/** Answers 400 naming the `unknown` tag ids of a body's tagIds, if any. */
function refuseUnknownTags(unknown: readonly string[]) {
  if (unknown.length > 0)
    fail(400, 'VALIDATION_ERROR', `tagIds: Unknown tags ${unknown.join(', ')}`);
}

/** Replaces the tags of an asset with `tagIds`, tags the caller has locked (`shareTags`). */
async function setTags(tx: Db, assetId: string, tagIds: readonly string[], at: Date) {
  const ids = [...new Set(tagIds)];
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
export async function insertAsset(
  tx: Db,
  values: EditableValues & { templateId: string | null },
  tagIds: readonly string[],
  at: Date,
): Promise<string> {
  refuseUnknownTags(await shareTags(tx, tagIds));
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

/**
 * Applies `body` to an unlocked asset in `tx` and records the update; answers the asset. With
 * a `base` version (If-Match), a field someone changed since then is a conflict (`checkBase`).
 */
export async function updateAsset(
  tx: Db,
  id: string,
  body: AssetPatchBody,
  actorId: string,
  at: Date,
  base?: number,
): Promise<Asset> {
  // The tags before the asset (see `shareTags`); an unknown asset or a locked one answers first.
  const unknownTags = body.tagIds ? await shareTags(tx, body.tagIds) : [];
  const before = await assetForChange(tx, id);
  refuseUnknownTags(unknownTags);
  const changes = changesOf(before, body);
  await checkBase(tx, 'asset', before, base, changes);
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

/**
 * Adds `tagId` to the assets `ids` (or removes it from them), which the caller has locked and
 * found unlocked, and moves the changed ones' updated_at: answers the ids changed (sorted) and
 * their `updated` events (tagIds from and to), for the caller to record.
 */
export async function changeTagOnAssets(
  tx: Db,
  ids: readonly string[],
  tag: { tagId: string; adds: boolean },
  actorId: string,
  at: Date,
): Promise<{ changed: string[]; events: AssetEventInput[] }> {
  const before = new Map((await findAssets(tx, ids)).map((asset) => [asset.id, asset]));
  const { rows: touched } = tag.adds
    ? await tx.query<{ asset_id: string }>(
        `INSERT INTO asset_tags (asset_id, tag_id, created_at)
         SELECT x, $2, $3 FROM unnest($1::text[]) AS x
         ON CONFLICT DO NOTHING RETURNING asset_id`,
        [ids, tag.tagId, at],
      )
    : await tx.query<{ asset_id: string }>(
        `DELETE FROM asset_tags WHERE asset_id = ANY($1::text[]) AND tag_id = $2
         RETURNING asset_id`,
        [ids, tag.tagId],
      );
  const changed = [...new Set(touched.map((row) => row.asset_id))].sort();
  if (changed.length === 0) return { changed, events: [] };
  await tx.query('UPDATE assets SET updated_at = $2 WHERE id = ANY($1::text[])', [changed, at]);
  const events = (await findAssets(tx, changed)).flatMap((after) =>
    updateEvents(
      after,
      { tagIds: { from: sortedTagIds(before.get(after.id)!), to: sortedTagIds(after) } },
      actorId,
      at,
    ),
  );
  return { changed, events };
}

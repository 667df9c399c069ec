/**
 * The asset list's variants (all assets, those the caller is authorized to use, the default
 * pick per type, those the caller may change), the counts per type and one asset's changelog:
 * each is the list of `assetListSpec` (or the events' list) under a scope of its own.
 */
import type { CountByType } from '../contract/schemas';
import { assetListSpec, findAsset } from './asset-store';
import type { AccessClaims } from './auth/access-token';
import type { Db } from './db';
import { assetEventListSpec, CHANGELOG_HIDDEN_KEYS } from './events';
import { fail } from './http/errors';
import {
  filterConditions,
  runList,
  SqlParams,
  type KeptCount,
  type ListQuery,
  type ListScope,
} from './list';

/** Who asks: who they are and what they may do. */
type Caller = Pick<AccessClaims, 'userId' | 'ability'>;

/**
 * The whole catalogue's count under a filter by type alone or by one tag alone: the sums
 * migration 033's triggers keep (counting one tag's assets looked each one up).
 */
export const keptAssetCount: KeptCount = (params, { type, tagId, ...others }) => {
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
 * Assets the caller may use: every asset for roles that read Asset, otherwise the ones
 * assigned to the caller.
 */
const authorizedScope =
  ({ ability, userId }: Caller): ListScope =>
  (params) =>
    ability.can('read', 'Asset')
      ? []
      : [
          `EXISTS (SELECT 1 FROM user_assets x WHERE x.asset_id = a.id AND x.user_id = ${params.add(userId)})`,
        ];

/** A page of the assets the caller may use. */
export const authorizedAssets = (db: Db, caller: Caller, query: ListQuery) =>
  runList(db, assetListSpec, query, authorizedScope(caller));

/**
 * The default pick (docs/api.md "Lists"): per type, the first asset in the catalogue order
 * among those the caller may use that match the filters.
 */
export function defaultAssets(db: Db, caller: Caller, { filters, ...rest }: ListQuery) {
  const scope: ListScope = (params) => {
    const conditions = [
      ...authorizedScope(caller)(params),
      ...filterConditions(assetListSpec, filters, params),
    ];
    return [
      `a.id IN (SELECT DISTINCT ON (a.type) a.id FROM assets a
         ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
         ORDER BY a.type, a.position, a.rank, a.id)`,
    ];
  };
  return runList(db, assetListSpec, { ...rest, filters: {} }, scope);
}

/** A page of the assets the caller may change: unlocked ones, for roles that update Asset. */
export function editableAssets(db: Db, caller: Caller, query: ListQuery) {
  const canUpdate = caller.ability.can('update', 'Asset');
  return runList(db, assetListSpec, query, () => [canUpdate ? 'NOT a.locked' : 'false']);
}

/** How many assets of each type match `filters` (types with none left out). */
export async function countByType(db: Db, filters: ListQuery['filters']): Promise<CountByType> {
  const params = new SqlParams();
  const conditions = filterConditions(assetListSpec, filters, params);
  // Unfiltered, the counts kept by migration 033's triggers: grouping every asset would cost in
  // proportion to the catalogue.
  const { rows } = await db.query<{ type: string; count: number }>(
    conditions.length === 0
      ? `SELECT type, sum(n)::int AS count FROM asset_type_counts
         GROUP BY type HAVING sum(n) > 0 ORDER BY type`
      : `SELECT a.type, count(*)::int AS count FROM assets a WHERE ${conditions.join(' AND ')}
         GROUP BY a.type ORDER BY a.type`,
    params.values,
  );
  return rows.map(({ type, count }) => ({ type, count }));
}

/** A page of asset `id`'s events, newest first; still readable once the asset is deleted. */
export async function assetChangelog(db: Db, id: string, query: ListQuery) {
  const result = await runList(db, assetEventListSpec, query, (params) => [
    `e.asset_id = ${params.add(id)}`,
    `NOT (e.routing_key = ANY(${params.add(CHANGELOG_HIDDEN_KEYS)}::text[]))`,
  ]);
  if (result.pagination.totalDocs === 0 && !(await findAsset(db, id))) {
    fail(404, 'NOT_FOUND', `No asset with id ${id}`);
  }
  return result;
}

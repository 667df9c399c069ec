/**
 * The cached reads of assets and what each change of one refreshes (mutations.ts calls these
 * after its requests). Every cached read of one asset sits under `['assets', id]`, so "this asset
 * changed" is one prefix.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { endpoint, ENDPOINTS, type ApiScope } from '../../../../contract/paths';
import type { Asset } from '../../../../contract/schemas';
import { assetApplications } from './placements';
import { assetChangelog, countByType, getAsset, type ScopeOption } from './requests';
import { invalidateLists } from '../../../api/lists';
import { queryClient } from '../../../api/query';

/** Cache keys of asset reads. */
const assetKeys = {
  /** Prefix of everything read about one asset. */
  all: (id: string) => ['assets', id] as const,
  record: (id: string, scope: ApiScope) => ['assets', id, scope] as const,
  changelog: (id: string) => ['assets', id, 'changelog'] as const,
  applications: (id: string) => ['assets', id, 'applications'] as const,
  counts: ['asset-counts'] as const,
};

/** One asset (the page, the template of a new asset). */
export const assetQuery = (id: string, { scope = 'public' }: ScopeOption = {}) =>
  queryOptions({
    queryKey: assetKeys.record(id, scope),
    queryFn: ({ signal }) => getAsset(id, { scope, signal }),
  });

/** A template of a new asset, read through the private API (templates need not be public). */
export const assetTemplateQuery = (id: string) => assetQuery(id, { scope: 'private' });

/**
 * The asset page's route loader reads its sections on each visit (and on hover, for a visit
 * about to come); the panels mounting after it show that read rather than make a second.
 * A change while they show still reads them again (the invalidations below, live events).
 */
const READ_BY_THE_LOADER = { refetchOnMount: false } as const;

/** Changelog entries per "Load more". */
const CHANGELOG_PAGE_SIZE = 10;

/** The asset's back-office changelog, newest first, one page per "Load more". */
export const assetChangelogQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: assetKeys.changelog(id),
    queryFn: ({ pageParam }) => assetChangelog(id, { page: pageParam, limit: CHANGELOG_PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.pagination.hasNextPage ? pages.length + 1 : undefined),
    ...READ_BY_THE_LOADER,
  });

/** The applications holding the asset (the asset page shows up to 100). */
export const assetApplicationsQuery = (id: string) =>
  queryOptions({
    queryKey: assetKeys.applications(id),
    queryFn: async () => (await assetApplications(id, { limit: 100 })).data,
    ...READ_BY_THE_LOADER,
  });

/** How many assets exist per type (the dashboard). */
export const assetCountsQuery = () =>
  queryOptions({ queryKey: assetKeys.counts, queryFn: () => countByType() });

/** Lists whose rows are assets or show an asset's fields. */
const showsAssets = (endpoint: string) =>
  /(^|\/)(assets|application-assets|user-assets|morphed-assets)(\/|\?|$)/.test(endpoint);

/** Reads of one asset other than its record: stale now, read again while on screen. */
const invalidateDerived = (id: string) =>
  queryClient.invalidateQueries({
    queryKey: assetKeys.all(id),
    predicate: ({ queryKey }) => queryKey[2] !== 'public' && queryKey[2] !== 'private',
  });

/**
 * After a change answered with the stored asset (save, lock, tags, icon): the answer becomes
 * the cached record, and the changelog and the lists showing assets are read again.
 */
export async function assetUpdated(asset: Asset): Promise<void> {
  queryClient.setQueryData(assetKeys.record(asset.id, 'public'), asset);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: assetKeys.record(asset.id, 'private') }),
    invalidateDerived(asset.id),
    invalidateLists(showsAssets),
  ]);
}

/** After a new asset: lists and counts are read again; its page opens with the answer. */
export async function assetCreated(asset: Asset): Promise<void> {
  queryClient.setQueryData(assetKeys.record(asset.id, 'public'), asset);
  await Promise.all([
    invalidateLists(showsAssets),
    queryClient.invalidateQueries({ queryKey: assetKeys.counts }),
  ]);
}

/**
 * After a delete: lists and counts are read again, and the asset's own reads go. The page still
 * showing it keeps its data until it leaves; coming back reads again (and finds it gone).
 */
export async function assetDeleted(id: string): Promise<void> {
  queryClient.removeQueries({ queryKey: assetKeys.all(id), type: 'inactive' });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: assetKeys.all(id), refetchType: 'none' }),
    invalidateLists(showsAssets),
    queryClient.invalidateQueries({ queryKey: assetKeys.counts }),
  ]);
}

/**
 * After a change recorded on the asset that does not answer with it (applications, users,
 * morph jobs): its applications and changelog are read again, and the lists of `endpoints`.
 */
export async function assetRelationsChanged(
  id: string,
  shows: (endpoint: string) => boolean = showsAssets,
): Promise<void> {
  await Promise.all([invalidateDerived(id), invalidateLists(shows)]);
}

/** After a change of where asset `id` is placed: its applications and changelog, and the application lists. */
export const placementsChanged = (id: string) =>
  assetRelationsChanged(id, (path) => path.startsWith(endpoint(ENDPOINTS.applicationAssets)));

/**
 * After assets were assigned to or taken from a user: user-asset lists, the assets' holders and
 * their changelogs.
 */
export async function assetsAssigned(assetIds: readonly string[]): Promise<void> {
  // Every user's list and every asset's holders: the paths up to their ids.
  const lists = endpoint(ENDPOINTS.userAssets, { userId: '' });
  const holders = endpoint(ENDPOINTS.assetUsers, { assetId: '' });
  const showsUserAssets = (path: string) => path.startsWith(lists) || path.startsWith(holders);
  await Promise.all(assetIds.map((id) => assetRelationsChanged(id, showsUserAssets)));
}

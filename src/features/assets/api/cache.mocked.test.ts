/**
 * The asset page's sections are read by the route's loader and shown by panels that mount once
 * it has finished: each section must reach the server once per visit, not once for the loader
 * and again for the panel.
 */
import { InfiniteQueryObserver, QueryObserver } from '@tanstack/query-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../api/query';
import { assetApplicationsQuery, assetChangelogQuery } from './cache';
import { assetApplications } from './placements';
import { assetChangelog, type Page } from './requests';

vi.mock('./requests', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./requests')>()),
  assetChangelog: vi.fn(),
}));
vi.mock('./placements', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./placements')>()),
  assetApplications: vi.fn(),
}));

/** An empty first page, as either section's request answers it. */
const page = <R>(): Page<R> => ({
  data: [],
  pagination: { page: 1, limit: 10, totalDocs: 0, totalPages: 0, hasNextPage: false },
});

afterEach(() => {
  queryClient.clear();
  vi.clearAllMocks();
});

describe("the asset page's sections", () => {
  it('are read once: by the loader, and the panels show what it read', async () => {
    vi.mocked(assetApplications).mockResolvedValue(page());
    vi.mocked(assetChangelog).mockResolvedValue(page());
    // The route's loader.
    await Promise.all([
      queryClient.prefetchQuery(assetApplicationsQuery('a1')),
      queryClient.prefetchInfiniteQuery(assetChangelogQuery('a1')),
    ]);
    // The panels mount (useQuery, useInfiniteQuery).
    const applications = new QueryObserver(queryClient, assetApplicationsQuery('a1'));
    const changelog = new InfiniteQueryObserver(queryClient, assetChangelogQuery('a1'));
    const stop = [applications.subscribe(() => {}), changelog.subscribe(() => {})];
    await vi.waitFor(() => expect(applications.getCurrentResult().data).toEqual([]));
    await Promise.resolve();
    expect(applications.getCurrentResult().isFetching).toBe(false);
    expect(changelog.getCurrentResult().isFetching).toBe(false);
    expect(assetApplications).toHaveBeenCalledTimes(1);
    expect(assetChangelog).toHaveBeenCalledTimes(1);
    for (const unsubscribe of stop) unsubscribe();
  });

  it('are read again when a change makes them stale while the page shows them', async () => {
    vi.mocked(assetApplications).mockResolvedValue(page());
    await queryClient.prefetchQuery(assetApplicationsQuery('a1'));
    const applications = new QueryObserver(queryClient, assetApplicationsQuery('a1'));
    const unsubscribe = applications.subscribe(() => {});
    await queryClient.invalidateQueries({ queryKey: ['assets', 'a1'] });
    expect(assetApplications).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../../contract/schemas';
import { applyLiveMessage } from '../../../api/live-cache';
import { jsonResponse, serveRequests, testAsset } from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { AssetPage } from './asset-page';

/*
 * What React does with the asset page's open pickers when a live refresh lands: it re-renders
 * them in place (no remount), so they stay open. What the browser does (it scrolls to keep the
 * page still as content above grows) is tests/e2e/live-pickers.test.ts.
 */
setUpScreenTests();

const page = (data: unknown[]) => ({
  data,
  pagination: { page: 1, limit: 5, totalDocs: data.length, totalPages: 1, hasNextPage: false },
});
const bodies = [
  { id: 'b1', name: 'Body', type: 'body', gender: 'female', iconUrl: null },
  { id: 'b2', name: 'Body', type: 'body', gender: 'male', iconUrl: null },
];

/** The asset `a1` and its sections; each read of the asset answers a newer version of it. */
function serve() {
  let reads = 0;
  serveRequests(async (url) => {
    await Promise.resolve();
    const path = url.pathname;
    if (/\/assets\/a1$/.test(path)) {
      reads += 1;
      const updatedAt = new Date(Date.UTC(2030, 0, 1, 0, reads)).toISOString();
      return jsonResponse(200, { data: testAsset({ description: `Read ${reads}`, updatedAt }) });
    }
    if (path.endsWith('/services')) return jsonResponse(200, { data: {} });
    if (path.endsWith('/assets') && url.searchParams.get('type') === 'body') {
      return jsonResponse(200, page(bodies));
    }
    return jsonResponse(200, page([]));
  });
  return { reads: () => reads };
}

let seq = 0;
/** Another session's change to the asset (or its morph job's progress), as the stream tells it. */
function liveChange(routingKey: string) {
  seq += 1;
  const event: StreamEvent = {
    id: `e${seq}`,
    seq,
    routingKey,
    assetId: 'a1',
    cageMeshId: null,
    actorId: 'u2',
    actorEmail: 'dev@example.com',
    data: {},
    createdAt: '2030-01-01T00:00:00.000Z',
  };
  applyLiveMessage({ type: 'event', event });
}

describe('a live refresh of the asset page', { timeout: 60_000 }, () => {
  it('keeps the open morph body picker open with its options, and a pick still lands', async () => {
    const server = serve();
    const actor = userEvent.setup();
    renderScreen(() => (
      <Suspense fallback="Loading">
        <AssetPage assetId="a1" />
      </Suspense>
    ));
    const morphs = within(
      await screen.findByRole('region', { name: 'Morphed assets' }, { timeout: 5_000 }),
    );
    await actor.click(morphs.getByRole('button', { name: /^Show suggestions/ }));
    await screen.findByRole('option', { name: 'Body', description: 'Female · b1' });
    const opened = screen.getByRole('listbox');
    const readsBefore = server.reads();

    liveChange('asset.updated.v1');
    await waitFor(() => expect(server.reads()).toBeGreaterThan(readsBefore));
    await screen.findByDisplayValue(`Read ${server.reads()}`);

    // The same list, not one put back: the page re-rendered the picker without remounting it.
    const listbox = screen.getByRole('listbox');
    expect(listbox).toBe(opened);
    const female = within(listbox).getByRole('option', {
      name: 'Body',
      description: 'Female · b1',
    });
    expect(within(listbox).getAllByRole('option')).toHaveLength(2);
    await actor.click(female);
    const chosen = morphs.getByRole('grid', { name: 'Body assets', hidden: true });
    expect(within(chosen).getByText('Body').getAttribute('title')).toBe('Body (Female · b1)');
  });

  it('keeps the form’s open Type select open, and a choice still lands', async () => {
    const server = serve();
    const actor = userEvent.setup();
    renderScreen(() => (
      <Suspense fallback="Loading">
        <AssetPage assetId="a1" />
      </Suspense>
    ));
    await actor.click(
      await screen.findByRole('button', { name: /^Top\s+Type/ }, { timeout: 5_000 }),
    );
    await screen.findByRole('option', { name: 'Bottom' });
    const opened = screen.getByRole('listbox');
    const readsBefore = server.reads();

    liveChange('asset.updated.v1');
    await waitFor(() => expect(server.reads()).toBeGreaterThan(readsBefore));
    await screen.findByDisplayValue(`Read ${server.reads()}`);

    expect(screen.getByRole('listbox')).toBe(opened);
    await actor.click(screen.getByRole('option', { name: 'Bottom' }));
    expect(screen.getByRole('button', { name: /^Bottom\s+Type/ })).toBeTruthy();
  });
});

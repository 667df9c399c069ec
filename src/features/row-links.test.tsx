/**
 * The names that lead somewhere, in the rows of a wide screen and the cards of a phone: an
 * application's name to its assets, and in a user's assets and the morph lists each asset
 * named to its page.
 */
import { cleanup, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { defineList } from '../api/list-url';
import { jsonResponse, testAsset, serveRequests } from '../api/testing';
import { renderScreen, setUpScreenTests } from '../machines/testing/render-screen.view';
import { ApplicationsList } from './applications/list/applications-list';
import { MorphQueueList } from './morphs/list/morph-queue-list';
import { MorphedAssetsList } from './morphs/list/morphed-assets-list';
import { UserAssetsPage } from './users/page/user-assets-page';

setUpScreenTests();

const list = defineList({ sortFields: ['name', 'createdAt'], defaultOrder: { createdAt: 'desc' } });
const at = '2030-01-01T00:00:00.000Z';

/** Each list's one row, by the path it is read from. */
const rowsOf: Record<string, unknown> = {
  '/v1/applications': { id: 'app1', name: 'Mirror', createdAt: at, updatedAt: at },
  '/private/v1/user-assets/u2': testAsset({ id: 'a-hat', name: 'Hat' }),
  '/v1/morphed-asset-queue': {
    id: 'q1',
    sourceAssetId: 'a-jacket',
    sourceAssetName: 'Jacket',
    bodyAssetId: 'b-body',
    bodyAssetName: 'Body',
    status: 'completed',
    progress: 100,
    error: null,
    morphedAssetId: null,
    createdAt: at,
    updatedAt: at,
  },
  '/private/v1/morphed-assets': {
    id: 'm1',
    sourceAssetId: 'a-coat',
    bodyAssetId: 'b-body',
    name: 'Coat on Body',
    gender: 'male',
    modelUrl: null,
    createdAt: at,
  },
};

function serve() {
  serveRequests(async (url) => {
    await Promise.resolve();
    if (url.pathname === '/private/v1/users/u2') {
      return jsonResponse(200, { data: { _id: 'u2', email: 'ann@example.com', role: 'user' } });
    }
    const row = rowsOf[url.pathname];
    return jsonResponse(200, {
      data: row ? [row] : [],
      pagination: {
        page: 1,
        limit: 10,
        totalDocs: row ? 1 : 0,
        totalPages: 1,
        hasNextPage: false,
      },
    });
  });
}

/** A phone: lists show each row as a card. */
function stubPhone() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: true,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

/** Where the links of the row named `name` lead, once it is shown. */
async function linksOf(screenOf: () => ReactNode, address: string, name: RegExp) {
  cleanup();
  serve();
  renderScreen(screenOf, { address, validateSearch: list.validateSearch });
  const header = await screen.findByRole('rowheader', { name }, { timeout: 20_000 });
  const row = header.closest<HTMLElement>('[role="row"]')!;
  return within(row)
    .getAllByRole('link')
    .map((link) => link.getAttribute('href'));
}

describe.each([
  ['in the rows of a wide screen', false],
  ['in the cards of a phone', true],
])('names that are links %s', { timeout: 60_000 }, (_, phone) => {
  it("lead from an application's row to its assets", async () => {
    if (phone) stubPhone();
    expect(
      await linksOf(() => <ApplicationsList list={list} />, '/applications', /Mirror/),
    ).toEqual(['/applications/app1/assets']);
  });

  it("lead from a user's asset to its page", async () => {
    if (phone) stubPhone();
    expect(
      await linksOf(() => <UserAssetsPage userId="u2" list={list} />, '/users/u2/assets', /Hat/),
    ).toEqual(['/assets/a-hat']);
  });

  it('lead from a morph job to its source and its body, and from a morphed asset to the asset it was made from', async () => {
    if (phone) stubPhone();
    expect(await linksOf(() => <MorphQueueList list={list} />, '/morph-queue', /Jacket/)).toEqual([
      '/assets/a-jacket',
      '/assets/b-body',
    ]);
    expect(
      await linksOf(() => <MorphedAssetsList list={list} />, '/morphed-assets', /Coat on Body/),
    ).toEqual(['/assets/a-coat']);
  });
});

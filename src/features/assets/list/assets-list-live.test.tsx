import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../../contract/schemas';
import { applyLiveMessage } from '../../../api/live-cache';
import { jsonResponse, serveRequests, testAsset } from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { AssetsList } from './assets-list';
import { assetsListDefinition as list } from './list-definition';

setUpScreenTests();

/** Two assets; another session renames the second (`renamed`), and the list reads it again. */
function serve() {
  let reads = 0;
  let renamed = false;
  serveRequests(async () => {
    await Promise.resolve();
    reads += 1;
    const rows = [
      testAsset({ id: 'a1', name: 'Olive Cyber' }),
      testAsset({ id: 'a2', name: renamed ? 'Mint Beard (new)' : 'Mint Beard' }),
    ];
    const pagination = { page: 1, limit: 25, totalDocs: 2, totalPages: 1, hasNextPage: false };
    return jsonResponse(200, { data: rows, pagination });
  });
  return {
    reads: () => reads,
    rename: () => {
      renamed = true;
    },
  };
}

/** Another session's rename of `a2`, as the stream tells it. */
function renamedElsewhere() {
  const event: StreamEvent = {
    id: 'e1',
    seq: 1,
    routingKey: 'asset.updated.v1',
    assetId: 'a2',
    cageMeshId: null,
    actorId: 'u2',
    actorEmail: 'dev@example.com',
    data: {},
    createdAt: '2030-01-01T00:00:00.000Z',
  };
  applyLiveMessage({ type: 'event', event });
}

describe('a live refresh of the assets list', { timeout: 60_000 }, () => {
  it('keeps a row’s open menu open while the other rows change, and its item still runs', async () => {
    const server = serve();
    const actor = userEvent.setup();
    renderScreen(() => <AssetsList list={list} view="all" />, {
      address: '/assets',
      validateSearch: list.validateSearch,
      paths: { assets: () => null },
    });
    await screen.findByRole('rowheader', { name: /Olive Cyber/ }, { timeout: 20_000 });
    // Once the table measured its rows' content (its resizable table replaces the first one).
    await screen.findAllByRole('slider', { name: /^Resize / }, { timeout: 20_000 });
    await actor.click(screen.getByRole('button', { name: 'Actions: Olive Cyber' }));
    const menu = await screen.findByRole('menu');
    const readsBefore = server.reads();

    server.rename();
    renamedElsewhere();
    await waitFor(() => expect(server.reads()).toBeGreaterThan(readsBefore), { timeout: 10_000 });
    await screen.findByRole('rowheader', { name: /Mint Beard \(new\)/, hidden: true });

    expect(screen.getByRole('menu')).toBe(menu);
    await actor.click(within(menu).getByRole('menuitem', { name: 'Delete' }));
    expect(await screen.findByRole('alertdialog', { name: 'Delete Olive Cyber?' })).toBeTruthy();
  });
});

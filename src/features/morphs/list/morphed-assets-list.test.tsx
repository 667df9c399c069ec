import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { defineList } from '../../../api/list-url';
import { jsonResponse, serveRequests } from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { MorphedAssetsList } from './morphed-assets-list';

setUpScreenTests();

// As the morphed assets route declares it.
const list = defineList({ sortFields: ['name', 'createdAt'], defaultOrder: { createdAt: 'desc' } });

const morphed = (id: string, name: string) => ({
  id,
  sourceAssetId: `a-${id}`,
  bodyAssetId: 'b1',
  name,
  modelUrl: null,
  createdAt: '2030-01-01T00:00:00.000Z',
});
const rows = [morphed('m1', 'Jacket on Body'), morphed('m2', 'Coat on Body')];
const application = { id: 'app1', name: 'Mirror' };
const page = (data: unknown[]) => ({
  data,
  pagination: { page: 1, limit: 25, totalDocs: data.length, totalPages: 1, hasNextPage: false },
});

/** The morphed assets, the application search, and the placements (recorded). */
function serve() {
  const placed: unknown[] = [];
  serveRequests(async (url, request) => {
    await Promise.resolve();
    if (url.pathname === '/v1/application-morphed-assets' && request.method === 'POST') {
      const body = (await request.json()) as { morphedAssetIds: string[] };
      placed.push(body);
      return jsonResponse(200, {
        data: body.morphedAssetIds.map((id) => ({
          id: `p-${id}`,
          applicationId: application.id,
          morphedAssetId: id,
          createdAt: '2030-01-02T00:00:00.000Z',
          morphedAsset: rows.find((row) => row.id === id),
        })),
      });
    }
    if (url.pathname === `/v1/applications/${application.id}`) {
      return jsonResponse(200, { data: application });
    }
    if (url.pathname === '/v1/applications') return jsonResponse(200, page([application]));
    return jsonResponse(200, page(rows));
  });
  return placed;
}

const rowOf = (name: string) =>
  screen.getAllByRole('row').filter((row) => within(row).queryByRole('rowheader', { name }))[0]!;

describe('the morphed assets', { timeout: 60_000 }, () => {
  it('puts the selected ones in the application picked, in one call, and says so', async () => {
    const placed = serve();
    const actor = userEvent.setup();
    renderScreen(() => <MorphedAssetsList list={list} />, {
      address: '/morphed-assets',
      validateSearch: list.validateSearch,
      toasts: true,
    });
    await screen.findByRole('rowheader', { name: 'Coat on Body' }, { timeout: 10_000 });
    await actor.click(within(rowOf('Jacket on Body')).getByRole('checkbox'));
    await actor.click(within(rowOf('Coat on Body')).getByRole('checkbox'));

    const bar = screen.getByRole('toolbar', {
      name: 'Add the selected morphed assets to an application',
    });
    const place = within(bar).getByRole('button', { name: 'Add to application' });
    expect(place.hasAttribute('disabled') || place.getAttribute('aria-disabled') === 'true').toBe(
      true,
    );
    await actor.click(within(bar).getByRole('combobox', { name: 'Application' }));
    await actor.keyboard('Mir');
    await actor.click(await screen.findByRole('option', { name: 'Mirror' }));
    await actor.click(place);

    await screen.findByText('2 morphed assets added to the application');
    expect(placed).toEqual([{ applicationId: 'app1', morphedAssetIds: ['m1', 'm2'] }]);
  });

  it('is not offered to a role that may not place assets in applications', async () => {
    serve();
    renderScreen(() => <MorphedAssetsList list={list} />, {
      address: '/morphed-assets',
      validateSearch: list.validateSearch,
      rules: [['read', 'all']],
    });
    await screen.findByRole('rowheader', { name: 'Coat on Body' }, { timeout: 10_000 });
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});

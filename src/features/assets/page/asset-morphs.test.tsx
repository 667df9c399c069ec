import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Asset } from '../../../../contract/schemas';
import { queryClient } from '../../../api/query';
import { jsonResponse, serveRequests } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { loadPermissions } from '../../../machines/permissions.view';
import { renderScreen } from '../../../machines/testing/render-screen.view';
import { AssetMorphs } from './asset-morphs';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());

const source = { id: 's1', name: 'Jacket' } as Asset;
// Two bodies of the same name: only their gender, icon and id tell them apart.
const bodies = [
  { id: 'b1', name: 'Body', type: 'body', gender: 'female', iconUrl: '/files/b1.png' },
  { id: 'b2', name: 'Body', type: 'body', gender: 'male', iconUrl: null },
];
const entry = (bodyAssetId: string) => ({
  id: `q-${bodyAssetId}`,
  sourceAssetId: 's1',
  sourceAssetName: 'Jacket',
  bodyAssetId,
  bodyAssetName: 'Body',
  status: 'queued',
  progress: 0,
  error: null,
  morphedAssetId: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
});

/** The body search, the generate call (recorded) and the queue's status. */
function serve() {
  const generated: unknown[] = [];
  serveRequests(async (url, request) => {
    await Promise.resolve();
    if (url.pathname.endsWith('/generate')) {
      const body = (await request.json()) as { bodyAssetIds: string[] };
      generated.push(body);
      return jsonResponse(200, { data: body.bodyAssetIds.map(entry) });
    }
    if (url.pathname.endsWith('/status')) {
      return jsonResponse(200, {
        data: url.searchParams.getAll('ids').map((id) => ({
          id,
          status: 'queued',
          progress: 0,
          error: null,
          morphedAssetId: null,
        })),
      });
    }
    const one = /\/assets\/(\w+)$/.exec(url.pathname);
    if (one) return jsonResponse(200, { data: bodies.find((body) => body.id === one[1]) });
    return jsonResponse(200, {
      data: bodies,
      pagination: { page: 1, limit: 5, totalDocs: 2, totalPages: 1, hasNextPage: false },
    });
  });
  return generated;
}

describe('the morph body picker', () => {
  it('tells bodies of the same name apart by gender, icon and id, and empties after Generate', async () => {
    const generated = serve();
    const actor = userEvent.setup();
    renderScreen(() => <AssetMorphs asset={source} />, { toasts: true });
    await actor.click(await screen.findByRole('combobox', { name: 'Body assets' }));
    await actor.keyboard('Body');
    const female = await screen.findByRole('option', { name: 'Body', description: 'Female · b1' });
    expect(screen.getByRole('option', { name: 'Body', description: 'Male · b2' })).toBeTruthy();
    expect(female.querySelector('img')?.getAttribute('src')).toBe('/files/b1.png');

    await actor.click(female);
    await actor.keyboard('{Escape}');
    const chosen = screen.getByRole('grid', { name: 'Body assets' });
    expect(within(chosen).getByText('Body').getAttribute('title')).toBe('Body (Female · b1)');
    await actor.click(screen.getByRole('button', { name: 'Generate morphed assets' }));

    await waitFor(() => expect(generated).toEqual([{ sourceAssetId: 's1', bodyAssetIds: ['b1'] }]));
    await waitFor(() => expect(screen.queryByRole('grid', { name: 'Body assets' })).toBeNull());
  });
});

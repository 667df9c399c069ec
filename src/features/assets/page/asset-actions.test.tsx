import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from '@tanstack/react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpoint, ENDPOINTS } from '../../../../contract/paths';
import type { Asset } from '../../../../contract/schemas';
import { configureHttp } from '../../../api/http';
import { rememberListSearch } from '../../../api/list-return';
import { queryClient } from '../../../api/query';
import { jsonResponse } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { loadPermissions } from '../../../machines/permissions.view';
import { renderScreen } from '../../../machines/testing/render-screen.view';
import { AssetActions } from './asset-actions';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());
afterEach(() => rememberListSearch(endpoint(ENDPOINTS.assets), {}));

const asset = { id: 'a1', name: 'Jacket', locked: false, modelUrl: null } as Asset;

/** The server: the asset's DELETE moves it to the trash; anything else answers nothing. */
function serve() {
  const deleted: string[] = [];
  configureHttp({
    baseUrl: 'http://api.test/',
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      await Promise.resolve();
      if (request.method === 'DELETE') deleted.push(new URL(request.url).pathname);
      return jsonResponse(200, { data: {} });
    },
  });
  return deleted;
}

describe('deleting an asset from its page', () => {
  it('returns to the list as the user left it: its filter, sort and page', async () => {
    const deleted = serve();
    // The list, as the user last saw it in this tab.
    rememberListSearch(endpoint(ENDPOINTS.assets), {
      filter: { type: ['top'] },
      order: 'name',
      page: 3,
    });
    const actor = userEvent.setup();
    const router = renderScreen(() => <Outlet />, {
      paths: {
        '/assets': () => <p>The list</p>,
        '/assets/a1': () => <AssetActions asset={asset} canEdit={false} canDelete />,
      },
      address: '/assets/a1',
      toasts: true,
    });
    await actor.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Jacket?' });
    await actor.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/assets'));
    expect(router.state.location.search).toMatchObject({
      filter: { type: ['top'] },
      order: 'name',
      page: 3,
    });
    expect(deleted).toEqual(['/v1/assets/a1']);
    expect(await screen.findByText('The list')).toBeTruthy();
  });
});

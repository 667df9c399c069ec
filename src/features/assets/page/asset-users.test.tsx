import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Asset } from '../../../../contract/schemas';
import { queryClient } from '../../../api/query';
import { jsonResponse, serveApi } from '../../../api/testing';
import { initI18n, loadBackOfficeTexts } from '../../../i18n';
import { loadPermissions } from '../../../machines/permissions.view';
import { renderScreen } from '../../../machines/testing/render-screen.view';
import { AssetUsers } from './asset-users';

beforeAll(async () => {
  initI18n();
  await loadBackOfficeTexts();
  await loadPermissions();
});
beforeEach(() => queryClient.clear());

const asset = { id: 'a1', name: 'Jacket' } as Asset;
const holder = (id: string, email: string) => ({
  id,
  email,
  role: 'user',
  verifiedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'active',
  disabledAt: null,
  lastSignInAt: null,
});

/** The asset's holders as the server keeps them; DELETE takes one away. */
function serve() {
  let holders = [holder('u7', 'ada@example.com'), holder('u8', 'grace@example.com')];
  return serveApi({
    'GET private/v1/asset-users/a1?page=1&limit=10': () =>
      jsonResponse(200, {
        data: holders,
        pagination: {
          page: 1,
          limit: 10,
          totalDocs: holders.length,
          totalPages: 1,
          hasNextPage: false,
        },
      }),
    'DELETE private/v1/user-assets/u7': () => {
      holders = holders.filter((user) => user.id !== 'u7');
      return jsonResponse(200, { data: { userId: 'u7', assetIds: [] } });
    },
  });
}

describe('the asset page’s users', () => {
  it('shows who holds the asset, each a link to their page, and lets an admin take it back', async () => {
    const server = serve();
    const actor = userEvent.setup();
    renderScreen(() => <AssetUsers asset={asset} canEdit />, { toasts: true });
    const ada = await screen.findByRole('link', { name: 'ada@example.com' });
    expect(ada.getAttribute('href')).toBe('/users/u7');
    expect(screen.getByText('Held by 2 users, newest first:')).toBeTruthy();

    await actor.click(screen.getByRole('button', { name: 'Take it from ada@example.com' }));
    await screen.findByText('Jacket taken from ada@example.com');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'ada@example.com' })).toBeNull());
    expect(server.sent()).toContain('DELETE private/v1/user-assets/u7 {"assetIds":["a1"]}');
    expect(screen.getByText('Held by 1 user, newest first:')).toBeTruthy();
  });

  it('shows a developer the holders with neither Remove nor the picker', async () => {
    serve();
    renderScreen(() => <AssetUsers asset={asset} canEdit={false} />, {
      rules: [
        ['read', 'all'],
        ['access', 'PrivateApi'],
      ],
    });
    expect(await screen.findByRole('link', { name: 'grace@example.com' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Take it from/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Assign to user' })).toBeNull();
  });
});

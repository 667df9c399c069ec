import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defineList } from '../../../api/list-url';
import { jsonResponse, testAsset, serveRequests } from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { UserAssetsPage } from './user-assets-page';

setUpScreenTests();

const list = defineList({ sortFields: ['name'], defaultOrder: { name: 'asc' } });

/** The user u2 and the assets of whoever is asked for; the paths asked for are recorded. */
function serve() {
  const asked: string[] = [];
  serveRequests(async (url) => {
    await Promise.resolve();
    asked.push(url.pathname);
    if (url.pathname.endsWith('/users/u2')) {
      return jsonResponse(200, { data: { _id: 'u2', email: 'ann@example.com', role: 'user' } });
    }
    const owner = url.pathname.split('/').at(-1);
    return jsonResponse(200, {
      data: [testAsset({ id: `a-${owner}`, name: `Hat of ${owner}` })],
      pagination: { page: 1, limit: 25, totalDocs: 1, totalPages: 1, hasNextPage: false },
    });
  });
  return asked;
}

describe("a user's assets", { timeout: 60_000 }, () => {
  it("are read on the private API when the back office opens another user's", async () => {
    const asked = serve();
    renderScreen(() => <UserAssetsPage userId="u2" list={list} />, {
      address: '/users/u2/assets',
      validateSearch: list.validateSearch,
    });
    await screen.findByRole('rowheader', { name: /Hat of u2/ }, { timeout: 20_000 });
    expect(asked).toContain('/private/v1/user-assets/u2');
    expect(asked).not.toContain('/v1/user-assets/u2');
  });

  it("are read on the public API when they are one's own", async () => {
    const asked = serve();
    renderScreen(() => <UserAssetsPage userId="u1" list={list} />, {
      address: '/users/u1/assets',
      validateSearch: list.validateSearch,
    });
    await screen.findByRole('rowheader', { name: /Hat of u1/ }, { timeout: 20_000 });
    expect(asked).toContain('/v1/user-assets/u1');
    expect(asked).not.toContain('/private/v1/user-assets/u1');
  });
});

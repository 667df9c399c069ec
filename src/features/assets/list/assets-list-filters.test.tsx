import { packRules } from '@casl/ability/extra';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { roleRules } from '../../../../contract/ability';
import type { Role } from '../../../../contract/user-schemas';
import { jsonResponse, testAsset, serveRequests } from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { AssetsList } from './assets-list';
import { assetsListDefinition as list } from './list-definition';

setUpScreenTests();

/** An asset on every read, a tag on the tags' suggestions; the paths asked for are recorded. */
function serve() {
  const asked: string[] = [];
  serveRequests(async (url) => {
    await Promise.resolve();
    asked.push(url.pathname);
    const rows =
      url.pathname === '/v1/tags'
        ? [{ id: 't1', name: 'Vintage', createdAt: '2030-01-01T00:00:00.000Z' }]
        : [testAsset({ id: 'a1', name: 'Olive Cyber', type: 'top' })];
    return jsonResponse(200, {
      data: rows,
      pagination: { page: 1, limit: 10, totalDocs: 1, totalPages: 1, hasNextPage: false },
    });
  });
  return asked;
}

/** The assets list as `role` sees it (its rules as the server packs them into the token). */
async function showAs(role: Role) {
  renderScreen(() => <AssetsList list={list} view="all" />, {
    address: '/assets',
    validateSearch: list.validateSearch,
    rules: packRules(roleRules(role, 'u1')),
  });
  await screen.findByRole('rowheader', { name: /Olive Cyber/ }, { timeout: 20_000 });
}

/** A phone: lists show cards, and the filters beyond the search sit in All Filters. */
function stubPhone() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: true,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

/** The labels of the filters offered: in the bar, or in All Filters on a phone. */
async function filterLabels(phone: boolean): Promise<string[]> {
  let scope = screen.getByRole('search', { name: 'Filters' });
  if (phone) {
    await userEvent.click(screen.getByRole('button', { name: /^All Filters/ }));
    scope = await screen.findByRole('dialog', { name: 'All Filters' });
  }
  return Array.from(scope.querySelectorAll('.filter-label, .field-label'), (label) =>
    (label.textContent ?? '').trim(),
  );
}

describe.each([
  ['on a wide screen', false],
  ['on a phone', true],
])('the filters of the assets list %s', { timeout: 60_000 }, (_, phone) => {
  it("offers a guest no Application or Tags filter: a guest may read neither's options", async () => {
    if (phone) stubPhone();
    serve();
    await showAs('anonymous');
    const labels = await filterLabels(phone);
    expect(labels).toEqual(expect.arrayContaining(['Type', 'Gender']));
    expect(labels).not.toContain('Application');
    expect(labels).not.toContain('Tags');
  });

  it('offers a user the Tags filter with its suggestions, and no Application filter', async () => {
    if (phone) stubPhone();
    const asked = serve();
    await showAs('user');
    const labels = await filterLabels(phone);
    expect(labels).toContain('Tags');
    expect(labels).not.toContain('Application');
    await userEvent.type(screen.getByRole('combobox', { name: 'Tags' }), 'V');
    expect(await screen.findByRole('option', { name: 'Vintage' })).toBeTruthy();
    expect(asked).toContain('/v1/tags');
    expect(asked).not.toContain('/v1/applications');
  });
});

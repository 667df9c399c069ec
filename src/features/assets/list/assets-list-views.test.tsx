import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, testAsset, serveRequests } from '../../../api/testing';
import { renderScreen, setUpScreenTests } from '../../../machines/testing/render-screen.view';
import { AssetsList, type AssetsView } from './assets-list';
import { assetsListDefinition as list } from './list-definition';

setUpScreenTests();

const asset = (id: string, name: string, type: string) => testAsset({ id, name, type });

/** Each endpoint answers its own rows; the paths asked for are recorded. */
function serve() {
  const asked: string[] = [];
  const rowsOf: Record<string, unknown[]> = {
    '/v1/assets': [asset('a1', 'Olive Cyber', 'top'), asset('a2', 'Mint Beard', 'beard')],
    '/v1/assets/editable': [asset('a2', 'Mint Beard', 'beard')],
    '/v1/assets/authorize-default': [asset('a3', 'First Top', 'top')],
  };
  serveRequests(async (url) => {
    await Promise.resolve();
    asked.push(`${url.pathname}${url.search}`);
    const rows = rowsOf[url.pathname] ?? [];
    return jsonResponse(200, {
      data: rows,
      pagination: {
        page: 1,
        limit: 25,
        totalDocs: rows.length,
        totalPages: 1,
        hasNextPage: false,
      },
    });
  });
  return asked;
}

const show = (view: AssetsView, address: string, rules?: unknown[]) =>
  renderScreen(() => <AssetsList list={list} view={view} />, {
    address,
    validateSearch: list.validateSearch,
    // The views' own addresses, so that the list writes its query where it is.
    paths: { assets: () => null, 'assets/editable': () => null, 'assets/defaults': () => null },
    ...(rules ? { rules } : {}),
  });

const views = () => within(screen.getByRole('navigation', { name: 'Which assets' }));

describe('the assets list views', { timeout: 60_000 }, () => {
  it('"Editable by me" lists what the editable endpoint answers, with the filter given', async () => {
    const asked = serve();
    show('editable', '/assets/editable?filter=%7B%22type%22%3A%5B%22beard%22%5D%7D');
    expect(await screen.findByRole('heading', { name: 'Assets I can edit' })).toBeTruthy();
    await screen.findByRole('rowheader', { name: /Mint Beard/ }, { timeout: 20_000 });
    expect(screen.queryByRole('rowheader', { name: /Olive Cyber/ })).toBeNull();
    expect(asked.some((path) => path.startsWith('/v1/assets/editable?'))).toBe(true);
    expect(asked.find((path) => path.startsWith('/v1/assets/editable'))).toContain('type=beard');
    expect(views().getByRole('link', { name: 'Editable by me' }).getAttribute('aria-current')).toBe(
      'page',
    );
    // Only the view open is marked, not All, whose address this one's starts with.
    expect(views().getByRole('link', { name: 'All' }).getAttribute('aria-current')).toBeNull();
    // The other views keep the filter.
    const defaults = views().getByRole('link', { name: 'Default per type' });
    expect(decodeURIComponent(defaults.getAttribute('href')!)).toBe(
      '/assets/defaults?filter={"type":["beard"]}',
    );
  });

  it('"Default per type" lists each type\'s default pick', async () => {
    const asked = serve();
    show('defaults', '/assets/defaults');
    expect(await screen.findByRole('heading', { name: 'Default assets' })).toBeTruthy();
    await screen.findByRole('rowheader', { name: /First Top/ }, { timeout: 20_000 });
    expect(asked.some((path) => path.startsWith('/v1/assets/authorize-default'))).toBe(true);
    expect(views().getByRole('link', { name: 'All' }).getAttribute('href')).toBe('/assets');
  });

  it('offers "Editable by me" only to a role that edits assets', async () => {
    serve();
    show('all', '/assets', [['read', 'Asset']]);
    await screen.findByRole('rowheader', { name: /Olive Cyber/ }, { timeout: 20_000 });
    expect(views().getByRole('link', { name: 'All' }).getAttribute('aria-current')).toBe('page');
    expect(views().getByRole('link', { name: 'Default per type' })).toBeTruthy();
    expect(views().queryByRole('link', { name: 'Editable by me' })).toBeNull();
  });
});

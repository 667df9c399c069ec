/**
 * The assets list's views and the morphed assets' placement: "Default per type" lists what
 * `authorize-default` answers, "Editable by me" leaves a locked asset out, each keeping the
 * filter (1280 px; a picture of the views at 390 px); the morphed assets list's bulk bar adds
 * the selected one to an application, and a second time says it is already there.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminApi } from '../helpers/accounts';
import { appUnderTest, signedInAt } from '../helpers/app';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const api = <T>(method: string, path: string, body?: unknown) =>
  adminApi<T>(app.server.url, method, path, body);
const ROW = '[role="grid"] [role="row"]:not(.skeleton-row)';
const PHONE = { width: 390, height: 844 };

const listUrl = (path: string, filter: Record<string, unknown> = {}) =>
  `${app.server.url}${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;
const rowNames = (page: Page) => page.locator(`${ROW} [role="rowheader"]`).allInnerTexts();
const views = (page: Page) => page.getByRole('navigation', { name: 'Which assets' });
const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });

describe('the assets list views', () => {
  it('shows each type\'s default, and leaves locked assets out of "Editable by me"', async () => {
    const defaults = await api<{ name: string }[]>(
      'GET',
      '/v1/assets/authorize-default?type=hair&type=top',
    );
    expect(defaults).toHaveLength(2);
    const page = await signedInAt(app, listUrl('/assets', { type: ['hair', 'top'] }));
    await page.getByRole('heading', { name: 'Assets' }).waitFor();

    await views(page).getByRole('link', { name: 'Default per type' }).click();
    await page.getByRole('heading', { name: 'Default assets' }).waitFor();
    // The filter went along: the default hair and the default top.
    expect(new URL(page.url()).pathname).toBe('/assets/defaults');
    const sorted = async () => (await rowNames(page)).sort();
    await expect.poll(sorted).toEqual(defaults.map((asset) => asset.name).sort());

    const locked = await api<{ id: string; name: string }>('POST', '/v1/assets', {
      name: 'E2E view locked',
      type: 'hair',
      gender: 'male',
    });
    await api('PUT', `/v1/assets/${locked.id}/lock`, {});
    await page.goto(listUrl('/assets', { search: 'E2E view locked' }));
    await expect.poll(() => rowNames(page)).toEqual(['E2E view locked']);
    await views(page).getByRole('link', { name: 'Editable by me' }).click();
    await page.getByRole('heading', { name: 'Assets I can edit' }).waitFor();
    await page.getByText('No listings matched your search query').waitFor();
    expect(await rowNames(page)).not.toContain('E2E view locked');
    await page.context().close();

    const phone = await signedInAt(app, `${app.server.url}/assets/defaults`, undefined, PHONE);
    await phone.getByRole('heading', { name: 'Default assets' }).waitFor();
    await expect.poll(() => phone.locator(`${ROW} [role="rowheader"]`).count()).toBeGreaterThan(0);
    await shot(phone, 'asset-views-phone');
    await phone.context().close();
  });
});

describe('the morphed assets list', () => {
  it('adds the selected morphed asset to an application, once', async () => {
    const [morphed] = await api<{ id: string; name: string }[]>(
      'GET',
      '/private/v1/morphed-assets?limit=1&order=name',
    );
    const application = await api<{ id: string; name: string }>(
      'POST',
      '/private/v1/applications',
      {
        name: 'E2E morph home',
      },
    );
    const page = await signedInAt(app, listUrl('/morphed-assets', { search: morphed!.name }));
    const row = page
      .locator(ROW)
      .filter({ has: page.getByRole('rowheader', { name: morphed!.name, exact: true }) });
    await row.locator('.checkbox').click();
    const bar = page.getByRole('toolbar', {
      name: 'Add the selected morphed assets to an application',
    });
    await bar.getByRole('combobox', { name: 'Application' }).fill('E2E morph home');
    await page.getByRole('option', { name: application.name }).click();
    await bar.getByRole('button', { name: 'Add to application' }).click();
    await toasts(page).getByText('1 morphed asset added to the application').waitFor();

    await bar.getByRole('combobox', { name: 'Application' }).fill('E2E morph home');
    await page.getByRole('option', { name: application.name }).click();
    await bar.getByRole('button', { name: 'Add to application' }).click();
    await toasts(page)
      .getByText(/already in this application/)
      .waitFor();
    await page.context().close();
  });
});

/**
 * The live back office: what another admin changes reaches a second admin's list and asset
 * page within 2 s, without a reload, and nothing is lost when the server goes away and comes
 * back while changes are made elsewhere.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, login, secondAdmin } from '../helpers/accounts';
import { appUnderTest, signedInPage, signedInAt } from '../helpers/app';
import { startServer } from '../helpers/server';

/** Everything live must show within this (the promise). */
const LIVE_MS = 2_000;

const createAsset = async (url: string, token: string, name: string) =>
  String((await api(url, '/v1/assets', token, 'POST', { name, type: 'top', gender: 'male' })).id);

/** The list row of the asset named `name` (names are unique in these tests). */
const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

async function searchList(page: Page, text: string) {
  await page.getByRole('link', { name: 'Assets', exact: true }).click();
  await page.getByRole('searchbox').fill(text);
  await page.getByRole('row').filter({ hasText: text }).first().waitFor();
}

describe('two admins', () => {
  const app = appUnderTest();

  it('see each other’s lock, rename, tag and delete within 2 s, on the list and on the asset page', async () => {
    const watcher = await signedInPage(app, await secondAdmin(app.server.url));
    const token = await login(app.server.url);
    const stamp = Date.now();
    const name = `Live ${stamp}`;
    const id = await createAsset(app.server.url, token, name);
    await watcher.getByText('Live', { exact: true }).waitFor();

    // The list (searching for the stamp, which the new name keeps), and the asset page in a
    // second tab of the same admin.
    await searchList(watcher, String(stamp));
    const assetPage = await watcher.context().newPage();
    await assetPage.goto(`${app.server.url}/assets/${id}`);
    await assetPage.getByRole('heading', { name: `Asset ${name}` }).waitFor();
    const within = { timeout: LIVE_MS };

    await api(app.server.url, `/v1/assets/${id}/lock`, token, 'PUT', {});
    await row(watcher, name).getByText('Locked').waitFor(within);
    await assetPage.getByText('Locked by admin@avatar.studio just now').waitFor(within);
    await api(app.server.url, `/v1/assets/${id}/unlock`, token, 'PUT', {});
    await assetPage.getByText('Unlocked by admin@avatar.studio just now').waitFor(within);

    const renamed = `Renamed ${stamp}`;
    await api(app.server.url, `/v1/assets/${id}`, token, 'PATCH', { name: renamed });
    await assetPage.getByRole('heading', { name: `Asset ${renamed}` }).waitFor(within);
    await row(watcher, renamed).waitFor(within);

    const tags = (await api(app.server.url, '/v1/tags?limit=1', token)) as unknown as {
      id: string;
      name: string;
    }[];
    const tag = tags[0]!;
    await api(app.server.url, '/v1/tags/set-tag', token, 'POST', { assetId: id, tagId: tag.id });
    // The tag's chip ("Casual ×") in the asset's tag picker.
    await assetPage
      .getByRole('region', { name: 'Tags' })
      .getByText(tag.name)
      .first()
      .waitFor(within);

    await api(app.server.url, `/v1/assets/${id}`, token, 'DELETE');
    await row(watcher, renamed).getByText('Deleted').waitFor(within);
    await assetPage.getByText('Deleted by admin@avatar.studio just now').waitFor(within);
    // Marked, then gone.
    await row(watcher, renamed).waitFor({ state: 'detached', timeout: 5_000 });
    await watcher.context().close();
  });

  it('keeps unsaved edits when someone else saves the asset, and says so', async () => {
    const token = await login(app.server.url);
    const name = `Edited ${Date.now()}`;
    const id = await createAsset(app.server.url, token, name);
    const editor = await signedInAt(
      app,
      `${app.server.url}/assets/${id}`,
      await secondAdmin(app.server.url),
    );
    await editor.getByLabel('Description').fill('My unsaved words');
    await api(app.server.url, `/v1/assets/${id}`, token, 'PATCH', { name: `${name} (theirs)` });
    // The notice names who changed what (the actor and fields of the live event).
    await editor
      .getByText(/^Changed by admin@avatar\.studio .* while you were editing: Name\./)
      .waitFor();
    expect(await editor.getByLabel('Description').inputValue()).toBe('My unsaved words');
    await editor
      .getByRole('button', { name: 'Discard my edits and show the stored asset' })
      .click();
    await expect
      .poll(() => editor.getByLabel('Name', { exact: true }).inputValue())
      .toBe(`${name} (theirs)`);
    expect(await editor.getByLabel('Description').inputValue()).toBe('');
    await editor.context().close();
  });

  it('says who changed what while the page loaded, before its live stream was open', async () => {
    const token = await login(app.server.url);
    const name = `Loading ${Date.now()}`;
    const id = await createAsset(app.server.url, token, name);
    const page = await signedInPage(app, await secondAdmin(app.server.url));
    // The tab's stream is held back until the other admin has saved after the page's read.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/events*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${app.server.url}/assets/${id}`);
    await page.getByLabel('Description').fill('Typed while it loaded');
    await api(app.server.url, `/v1/assets/${id}`, token, 'PATCH', { name: `${name} (theirs)` });
    release();
    // The stream starts where the page read the asset: the change comes as an event.
    await page
      .getByText(/^Changed by admin@avatar\.studio .* while you were editing: Name\./)
      .waitFor({ timeout: LIVE_MS + 3_000 });
    expect(await page.getByLabel('Description').inputValue()).toBe('Typed while it loaded');
    await page.context().close();
  });
});

describe('a server that goes away', () => {
  // The file's server on a copy of the seeded data, at the worker's address, in the worker's
  // Chromium: the test stops it and starts it again on the same data and address.
  const app = appUnderTest();

  it('misses nothing that another process changed meanwhile, once it is back', async () => {
    const url = app.server.url;
    const token = await login(url);
    const stamp = Date.now();
    const names = [1, 2, 3].map((n) => `Resume ${stamp} ${n}`);
    const ids = [];
    for (const name of names) ids.push(await createAsset(url, token, name));
    const page = await signedInPage(app);
    await searchList(page, String(stamp));
    for (const name of names) await row(page, name).waitFor();

    // The first process stops; a second one on the same data makes the changes, then stops;
    // the first comes back on its address.
    const place = { port: Number(new URL(url).port), dataDir: app.server.dataDir };
    await app.server.stop({ keepData: true });
    await page.getByText(/Reconnecting|Offline/).waitFor();
    const second = await startServer({}, place);
    const elsewhere = await login(second.url);
    for (const [index, id] of ids.entries()) {
      await api(second.url, `/v1/assets/${id}`, elsewhere, 'PATCH', {
        name: `Resumed ${stamp} ${index + 1}`,
      });
    }
    await second.stop({ keepData: true });
    app.server = await startServer({}, place);

    await page.getByText('Live', { exact: true }).waitFor({ timeout: 20_000 });
    for (const index of [1, 2, 3]) await row(page, `Resumed ${stamp} ${index}`).waitFor();
    expect(await row(page, `Resume ${stamp} `).count()).toBe(0);
    await page.context().close();
  });
});

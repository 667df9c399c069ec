/**
 * Loading between screens: a route change that takes a while shows a progress bar, and a
 * screen whose code cannot be fetched (offline) says so in the app, with Try again, instead of the
 * browser's offline page or a blank screen. Within a list, the next page or filter shows
 * skeleton rows (as many as the page limit) until it arrives, never the previous answer.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInPage, signedInAt } from '../helpers/app';
import { adminApi } from '../helpers/accounts';

const app = appUnderTest();

/** The app's code-split JavaScript (not the API, whose paths have no .js). */
const CHUNKS = /\/assets\/[^/]+\.js(\?.*)?$/;

declare global {
  interface Window {
    /** Set before a navigation: still there afterwards when the page did not reload. */
    sameDocument?: boolean;
    /** Where the asset page's tags panel stood (document px) when it first showed. */
    firstTagsTop?: number;
  }
}

/** Holds the list requests that `matches` picks until the test releases them. */
async function holdRequests(page: Page, matches: (url: URL) => boolean) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const seen: string[] = [];
  await page.route(
    (url) => matches(url),
    async (route: Route) => {
      seen.push(route.request().url());
      await held;
      await route.fallback();
    },
  );
  return { release, seen };
}

/** The CSS properties the page's running animations change (camel-cased, as keyframes name them). */
const animatedProperties = (page: Page) =>
  page.evaluate(() => {
    const running = document.getAnimations().filter((a) => a.playState === 'running');
    const keyframes = running.flatMap((a) => (a.effect as KeyframeEffect).getKeyframes());
    const timing = new Set(['offset', 'computedOffset', 'easing', 'composite']);
    return [...new Set(keyframes.flatMap((k) => Object.keys(k).filter((key) => !timing.has(key))))];
  });

const SKELETON_ROWS = '[role="grid"] [role="row"].skeleton-row';
const LOADED_NAMES = '[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"]';

describe('loading the rows of a list', () => {
  it('shows skeleton rows, not the previous page, while the next page loads', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`);
    await page.getByText('300 items').waitFor();
    const grid = page.getByRole('grid', { name: 'Assets' });
    const firstPage = await page.locator(LOADED_NAMES).allInnerTexts();
    expect(firstPage).toHaveLength(10);
    expect(await grid.getAttribute('aria-busy')).toBeNull();

    const next = await holdRequests(
      page,
      (url) => url.pathname === '/v1/assets' && url.searchParams.get('page') === '2',
    );
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => next.seen.length).toBe(1);
    // The answer is held: ten skeleton rows (the page limit) stand in for it, busy.
    expect(await page.locator(SKELETON_ROWS).count()).toBe(10);
    expect(await page.locator(LOADED_NAMES).count()).toBe(0);
    expect(await grid.getAttribute('aria-busy')).toBe('true');
    await page.getByRole('progressbar', { name: 'Loading' }).waitFor();
    // What moves meanwhile moves on the compositor (the skeletons' pulse, the bar), so no frame
    // paints the rows again: a gradient slid across every line took about a core of Chromium's
    // CPU for as long as ten skeleton rows showed. With reduced motion, nothing moves.
    expect((await animatedProperties(page)).sort()).toEqual(['opacity', 'transform']);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await animatedProperties(page)).toEqual([]);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    // The pager stays where it is, on the page asked for.
    expect(await pager.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe(
      'page',
    );

    next.release();
    await expect.poll(() => page.locator(LOADED_NAMES).count()).toBe(10);
    const secondPage = await page.locator(LOADED_NAMES).allInnerTexts();
    expect(secondPage).not.toEqual(firstPage);
    expect(await page.locator(SKELETON_ROWS).count()).toBe(0);
    expect(await grid.getAttribute('aria-busy')).toBeNull();

    // A filter too: skeleton rows until the filtered answer comes.
    const filtered = await holdRequests(
      page,
      (url) => url.pathname === '/v1/assets' && url.searchParams.get('search') === 'zzz-held',
    );
    await page.getByRole('searchbox', { name: 'Search' }).fill('zzz-held');
    await expect.poll(() => filtered.seen.length).toBe(1);
    expect(await page.locator(SKELETON_ROWS).count()).toBe(10);
    expect(await page.locator(LOADED_NAMES).count()).toBe(0);
    filtered.release();
    await page.getByText('No listings matched your search query').waitFor();
    expect(await page.locator(SKELETON_ROWS).count()).toBe(0);
    await page.context().close();
  });

  it('keeps the rows of an infinite list and loads the next page as skeleton rows below them', async () => {
    const page = await signedInPage(app);
    // Held from the start: the next page is asked for as soon as the end of the list comes near.
    const next = await holdRequests(
      page,
      (url) => url.pathname === '/v1/morphed-asset-queue' && url.searchParams.get('page') === '2',
    );
    await page.goto(`${app.server.url}/morph-queue`);
    await expect.poll(() => page.locator(LOADED_NAMES).count()).toBe(20);
    const firstPage = await page.locator(LOADED_NAMES).allInnerTexts();
    await page.locator(LOADED_NAMES).last().scrollIntoViewIfNeeded();
    await expect.poll(() => next.seen.length).toBe(1);
    // The first page stays, and twenty skeleton rows follow it.
    expect(await page.locator(LOADED_NAMES).allInnerTexts()).toEqual(firstPage);
    const kinds = await page
      .locator('[role="grid"] [role="row"]:has([role="gridcell"], [role="rowheader"])')
      .evaluateAll((rows) => rows.map((row) => row.classList.contains('skeleton-row')));
    expect(kinds).toEqual([...Array<boolean>(20).fill(false), ...Array<boolean>(20).fill(true)]);
    expect(await page.getByRole('grid').getAttribute('aria-busy')).toBe('true');

    next.release();
    await expect.poll(() => page.locator(LOADED_NAMES).count()).toBe(40);
    expect((await page.locator(LOADED_NAMES).allInnerTexts()).slice(0, 20)).toEqual(firstPage);
    expect(await page.locator(SKELETON_ROWS).count()).toBe(0);
    await page.context().close();
  });
});

describe('opening a list', () => {
  it('asks for its rows before anything beside them: its saved views and the live stream wait until the rows are drawn', async () => {
    const page = await signedInPage(app);
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (/^\/(private\/)?v1\//.test(pathname)) asked.push(pathname);
    });
    // A page of its own, whose first answer is this screen's (the dashboard's last requests
    // may still be in the list before it).
    await page.goto(`${app.server.url}/users`);
    await page.locator('#main tbody tr a').first().waitFor();
    await expect.poll(() => asked.includes('/v1/saved-views')).toBe(true);
    const rows = asked.indexOf('/private/v1/users');
    expect(rows).toBeGreaterThanOrEqual(0);
    expect(asked.indexOf('/v1/saved-views')).toBeGreaterThan(rows);
    await expect.poll(() => asked.lastIndexOf('/v1/events')).toBeGreaterThan(rows);
    await page.context().close();
  });
});

describe('changing screens', () => {
  it('shows a progress bar while the next screen is still loading', async () => {
    const page = await signedInPage(app);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.context().route(CHUNKS, async (route: Route) => {
      await held;
      await route.continue();
    });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Tags' })
      .click();
    const bar = page.getByRole('progressbar', { name: 'Loading page' });
    await bar.waitFor();
    release();
    await page.getByRole('heading', { name: 'Tags', level: 1 }).waitFor();
    await bar.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('says a screen could not be loaded when its code cannot be fetched, and Try again shows it', async () => {
    const page = await signedInPage(app);
    await page.evaluate(() => (window.sameDocument = true));
    await page.context().route(CHUNKS, (route: Route) => route.abort('internetdisconnected'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Cage meshes' }).click();

    const alert = page.getByRole('alert');
    await alert
      .getByText('This part of the app could not be loaded. Check your connection.')
      .waitFor();
    // In the app, in the same document: the navigation is still there, nothing reloaded.
    expect(await nav.isVisible()).toBe(true);
    expect(await page.evaluate(() => window.sameDocument)).toBe(true);

    // Still offline, Try again keeps the app's own message, never the browser's offline page.
    await alert.getByRole('button', { name: 'Try again' }).click();
    await alert
      .getByText('This part of the app could not be loaded. Check your connection.')
      .waitFor();
    expect(await nav.isVisible()).toBe(true);

    // Back online, it shows the screen (Chromium keeps a failed module for the page's lifetime,
    // so the page is loaded anew at the same address).
    await page.context().unroute(CHUNKS);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Cage meshes', level: 1 }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/cage-meshes');
    await page.context().close();
  });
});

describe('opening an asset', () => {
  it('shows its panels where they stay: a late answer of the server moves none of them, nor its files', async () => {
    const url = app.server.url;
    const [asset] = await adminApi<{ id: string }[]>(url, 'GET', '/v1/assets?type=top&limit=1');
    const page = await signedInPage(app);
    // Where the tags panel (below the preview and the actions) is in its first frame.
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        const tags = document.querySelector('.asset-more');
        if (!tags) return;
        window.firstTagsTop = tags.getBoundingClientRect().top + window.scrollY;
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    // Which model services the server has (the actions say when texture prediction is not
    // one of them) answers late: once the page shows, or after 1.5 s if it waits for it.
    const services = await holdRequests(page, (address) => address.pathname === '/v1/services');
    // So do the stored files' names and sizes, read once the form shows.
    const files = await holdRequests(page, (address) => address.pathname.startsWith('/v1/files/'));
    await page.goto(`${url}/assets/${asset!.id}`);
    await expect.poll(() => services.seen.length).toBe(1);
    // The app's heading (boot.ts drew the page's own before the scripts came).
    const heading = page.locator('#main h1');
    await heading.waitFor({ timeout: 1_500 }).catch(() => undefined);
    services.release();
    await page.getByText('Predict texture is unavailable').waitFor();
    // The icon's field while its file's name is read: the name (its storage key meanwhile)
    // beside the preview, as it stays once the name comes.
    const icon = page.locator('.file-drop', { has: page.locator('.file-drop-preview') });
    const iconLayout = () =>
      icon.evaluate((field) => {
        const image = field.querySelector('.file-drop-preview')!.getBoundingClientRect();
        const name = field.querySelector('.file-drop-name')!.getBoundingClientRect();
        return {
          height: field.getBoundingClientRect().height,
          nameBesideImage: name.left >= image.right && name.top < image.bottom,
        };
      });
    await expect.poll(() => files.seen.length).toBeGreaterThan(0);
    const whileRead = await iconLayout();
    files.release();
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    expect(await icon.locator('.file-drop-size').textContent()).toMatch(/KB/);
    expect(whileRead.nameBesideImage).toBe(true);
    expect(await iconLayout()).toEqual(whileRead);
    const first = await page.evaluate(() => window.firstTagsTop);
    const now = await page
      .locator('.asset-more')
      .evaluate((tags) => tags.getBoundingClientRect().top + window.scrollY);
    expect(first).toBeDefined();
    expect(now).toBe(first);
    await page.context().close();
  });
});

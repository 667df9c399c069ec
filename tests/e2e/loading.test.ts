/**
 * Loading between screens: a route change that takes a while shows a progress bar, and a
 * screen whose code cannot be fetched (offline) says so in the app, with Retry, instead of the
 * browser's offline page or a blank screen.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInPage } from '../helpers/app';

const app = appUnderTest();

/** The app's code-split JavaScript (not the API, whose paths have no .js). */
const CHUNKS = /\/assets\/[^/]+\.js(\?.*)?$/;

declare global {
  interface Window {
    /** Set before a navigation: still there afterwards when the page did not reload. */
    sameDocument?: boolean;
  }
}

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

  it('says a screen could not be loaded when its code cannot be fetched, and Retry shows it', async () => {
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

    await page.context().unroute(CHUNKS);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('heading', { name: 'Cage meshes', level: 1 }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.evaluate(() => window.sameDocument)).toBe(true);
    await page.context().close();
  });
});

/**
 * A signed-in screen's first visit paints its frame and heading from the page the server sends,
 * before the app's scripts have run (server/first-paint.ts): on a phone's network the heading,
 * the page's largest text, no longer waits seconds for the scripts. The app then draws the same
 * heading in the same place, and the page holds one frame and one heading.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FIRST_PAINT_HEADINGS } from '../../scripts/first-paint-headings';
import { adminApi } from '../helpers/accounts';
import { ADMIN, appUnderTest, signedInPage } from '../helpers/app';
import { seriousViolations, useScheme } from '../helpers/axe';

const app = appUnderTest();

/**
 * The colour tokens in force on the page (src/ui/base.css), as the page resolves them: each is a
 * `light-dark()` pair, which the page's colour scheme decides.
 */
const tokens = (page: Page) =>
  page.evaluate(() => {
    const names = [...getComputedStyle(document.documentElement)].filter((n) => n.startsWith('--'));
    const probe = document.body.appendChild(document.createElement('span'));
    const resolved = Object.fromEntries(
      names.map((name) => {
        probe.style.color = `var(${name})`;
        probe.style.boxShadow = `var(${name})`;
        const style = getComputedStyle(probe);
        return [name, `${style.color} ${style.boxShadow}`];
      }),
    );
    probe.remove();
    return resolved;
  });

/** The page's first-level headings, with where each sits and its colours. */
const headings = (page: Page) =>
  page.locator('h1').evaluateAll((all) =>
    all
      .filter((h1) => h1.checkVisibility())
      .map((h1) => {
        const box = h1.getBoundingClientRect();
        return {
          text: h1.textContent,
          x: Math.round(box.x),
          y: Math.round(box.y),
          height: Math.round(box.height),
          color: getComputedStyle(h1).color,
          background: getComputedStyle(document.documentElement).backgroundColor,
        };
      }),
  );

describe.each([1280, 390])('at %i px', (width) => {
  const viewport = { width, height: 800 };

  it("draws each screen's heading before the scripts run, where and as the screen draws it", async () => {
    const page = await signedInPage(app, ADMIN, viewport);
    for (const path of Object.keys(FIRST_PAINT_HEADINGS)) {
      await page.route(/\.js$/, (route) => route.abort());
      await page.goto(`${app.server.url}${path}`);
      const before = await headings(page);
      await page.unroute(/\.js$/);
      await page.goto(`${app.server.url}${path}`);
      await page.locator('#main h1').waitFor();
      expect({ path, headings: await headings(page) }).toEqual({ path, headings: before });
      expect(before).toHaveLength(1);
    }
    await page.context().close();
  });

  it("draws an asset's name in its breadcrumbs and heading before the scripts run, where the page draws them, reading the asset once", async () => {
    // A name that is markup: written as text, never as HTML.
    const name = `<b>First & "paint"</b> ${width}`;
    const asset = await adminApi<{ id: string }>(app.server.url, 'POST', '/v1/assets', {
      name,
      type: 'hair',
      gender: 'male',
    });
    const page = await signedInPage(app, ADMIN, viewport);
    const path = `/assets/${asset.id}`;
    const crumbs = () => page.locator('nav.breadcrumbs li').allTextContents();
    // The app's chunks do not come; boot.ts does.
    const chunks = /\/assets\/[^/]+\.js$/;
    await page.route(chunks, (route) => route.abort());
    await page.goto(`${app.server.url}${path}`);
    await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();
    const before = { headings: await headings(page), crumbs: await crumbs() };
    expect(before.crumbs).toEqual(['Assets', name]);
    expect(await page.locator('main b').count()).toBe(0);
    await page.unroute(chunks);
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === `/v1/assets/${asset.id}`)
        reads.push(request.method());
    });
    await page.goto(`${app.server.url}${path}`);
    await page.locator('#main h1').waitFor();
    await page.getByRole('group', { name: 'Details' }).waitFor();
    expect({ headings: await headings(page), crumbs: await crumbs() }).toEqual(before);
    // boot.ts's read, which the app's own took.
    expect(reads).toEqual(['GET']);
    await page.context().close();
  });

  it('follows the system colour scheme before the scripts run', async () => {
    const page = await signedInPage(app, ADMIN, viewport);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.route(/\.js$/, (route) => route.abort());
    await page.goto(`${app.server.url}/assets`);
    const before = { headings: await headings(page), tokens: await tokens(page) };
    expect(before.headings).toHaveLength(1);
    await page.unroute(/\.js$/);
    await page.goto(`${app.server.url}/assets`);
    await page.locator('#main h1').waitFor();
    await useScheme(page, 'dark');
    expect({ headings: await headings(page), tokens: await tokens(page) }).toEqual(before);
    await page.context().close();
  });

  it("paints the page before it asks for the app's scripts, then leaves one frame and one heading, and axe finds nothing", async () => {
    const page = await signedInPage(app, ADMIN, viewport);
    await page.goto(`${app.server.url}/assets`);
    await page.locator('#main h1').waitFor();
    // src/boot.ts asks for the app's chunks once the first frame is painted.
    const { painted, chunks } = await page.evaluate(() => ({
      painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      chunks: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
        .map((entry) => entry.startTime),
    }));
    expect(chunks.length).toBeGreaterThan(5);
    expect(painted).toBeDefined();
    expect(Math.min(...chunks)).toBeGreaterThanOrEqual(painted!);
    expect(await page.locator('.first-paint').count()).toBe(0);
    expect(await page.locator('h1').allTextContents()).toEqual(['Assets']);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});

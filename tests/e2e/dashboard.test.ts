/**
 * The dashboard on a real server with the demo data: its charts are drawn (uPlot's canvases),
 * each has a table of its numbers that "Show as table" shows, a new asset arrives live, and axe
 * finds nothing serious in light and dark at 1280 and 390 px, and nothing moves when the counts
 * come after the charts. SHOTS_DIR keeps the pictures.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminApi } from '../helpers/accounts';
import { appUnderTest, signedInPage } from '../helpers/app';
import { seriousViolationsInBothSchemes, useScheme } from '../helpers/axe';
import { layoutShift, twoFrames } from '../helpers/layout-shift';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const api = <T>(method: string, path: string, body?: unknown) =>
  adminApi<T>(app.server.url, method, path, body);
const HEIGHT = 900;

/** The dashboard at `width`, its charts drawn. */
async function dashboardAt(width: number): Promise<Page> {
  const page = await signedInPage(app, undefined, { width, height: HEIGHT });
  await page.getByRole('heading', { name: 'Assets created per week' }).waitFor();
  // Every chart drawn, or saying that it has nothing to show.
  const charts = page.locator('.chart-card:not(.storage-card)');
  await expect.poll(() => charts.count()).toBe(4);
  await expect
    .poll(() => charts.filter({ has: page.locator('canvas, .chart-empty') }).count())
    .toBe(4);
  return page;
}

/** The assets the table counts in this week's row for `type` (its last row). */
async function thisWeeksCount(page: Page, type: string): Promise<number> {
  const table = page.getByRole('table', { name: /Assets created per week/ });
  const header = await table.locator('thead th').allInnerTexts();
  const column = header.indexOf(type);
  if (column < 1) return 0;
  const cells = await table.locator('tbody tr').last().locator('th, td').allInnerTexts();
  return Number((cells[column] ?? '0').replace(/\D/g, ''));
}

/**
 * How many of the charts' canvas pixels are painted in the theme's chart palette (as the page
 * resolves its colour tokens), and the palette as `rgb()` strings.
 */
const paletteOnCanvas = (page: Page) =>
  page.locator('.dashboard').evaluate((dashboard) => {
    const probe = dashboard.appendChild(document.createElement('span'));
    const palette = Array.from({ length: 10 }, (_, i) => {
      probe.style.color = `var(--chart-${i + 1})`;
      return getComputedStyle(probe).color;
    });
    probe.remove();
    const colours = new Set(palette);
    let pixels = 0;
    for (const canvas of dashboard.querySelectorAll<HTMLCanvasElement>('.chart-canvas canvas')) {
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) {
        if (colours.has(`rgb(${data[i]}, ${data[i + 1]}, ${data[i + 2]})`)) pixels += 1;
      }
    }
    return { palette, pixels };
  });

describe('the dashboard', () => {
  it('draws its charts from the demo data, shows each as a table, and follows new assets live', async () => {
    const page = await dashboardAt(1280);
    for (const title of ['Sign-ups per day', 'Morph jobs per day', 'Uploaded and delivered']) {
      await page.getByRole('heading', { name: title }).waitFor();
    }
    await page.getByRole('heading', { name: 'Storage used' }).waitFor();
    await page.getByRole('heading', { name: 'Latest activity' }).waitFor();
    // The demo data has assets and accounts made this week: those two are drawn.
    expect(await page.locator('.chart-canvas canvas').count()).toBeGreaterThanOrEqual(2);

    // The demo seed made its accounts today: the last row of the sign-ups counts them.
    const signups = page.getByRole('region', { name: 'Sign-ups per day' });
    await signups.getByRole('button', { name: 'Show as table' }).click();
    const table = signups.getByRole('table');
    expect(await table.isVisible()).toBe(true);
    const today = await table.locator('tbody tr').last().locator('td').allInnerTexts();
    expect(Number(today[0]) + Number(today[1])).toBeGreaterThan(0);
    await signups.getByRole('button', { name: 'Show as chart' }).click();
    await signups.locator('canvas').first().waitFor();

    // A new asset counts in this week's bar without a reload.
    const before = await thisWeeksCount(page, 'Facewear');
    await api('POST', '/v1/assets', {
      name: 'E2E dashboard glasses',
      type: 'facewear',
      gender: 'male',
    });
    await expect.poll(() => thisWeeksCount(page, 'Facewear'), { timeout: 15_000 }).toBe(before + 1);

    // The charts are painted in the scheme's palette, and again in the other one when it changes.
    await useScheme(page, 'light');
    const light = await paletteOnCanvas(page);
    expect(light.pixels).toBeGreaterThan(100);
    await useScheme(page, 'dark');
    await expect.poll(async () => (await paletteOnCanvas(page)).pixels).toBeGreaterThan(100);
    const dark = await paletteOnCanvas(page);
    // Nine of the ten colours change with the scheme (the last serves both).
    expect(dark.palette.filter((colour, i) => colour !== light.palette[i])).toHaveLength(9);
    await page.context().close();
  });

  it.each([1280, 390])(
    'keeps the room of the count cards while they load at %i px, so what is below stays put',
    async (width) => {
      const page = await signedInPage(app, undefined, { width, height: 900 });
      // The counts answer last, as on a slow network where the charts' answer came first.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const hold = async (route: Route) => {
        await held;
        await route.continue();
      };
      await page.route('**/assets/countByType*', hold);
      await page.goto(`${app.server.url}/`);
      await page.locator('.count-card.skeleton').first().waitFor();
      await page.locator('.chart-card').first().waitFor();
      release();
      await page.getByText('Total', { exact: true }).waitFor();
      await twoFrames(page);
      await page.unroute('**/assets/countByType*', hold);
      // One card per type and the total, the demo data having assets of every type.
      expect(await layoutShift(page)).toBeLessThan(0.001);
      await page.context().close();
    },
  );

  it('has no serious axe violations in light and dark, at 1280 and 390 px', async () => {
    const found: string[] = [];
    for (const width of [1280, 390]) {
      const page = await dashboardAt(width);
      const problems = await seriousViolationsInBothSchemes(page, (scheme) =>
        shot(page, `dashboard-${width}-${scheme}`, { fullPage: true }),
      );
      found.push(...problems.map((problem) => `${width}px ${problem}`));
      // The table view, too.
      await page
        .getByRole('region', { name: 'Sign-ups per day' })
        .getByRole('button', { name: 'Show as table' })
        .click();
      found.push(
        ...(await seriousViolationsInBothSchemes(page)).map((p) => `${width}px table ${p}`),
      );
      await page.context().close();
    }
    expect(found).toEqual([]);
  });
});

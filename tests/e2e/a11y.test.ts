/**
 * Accessibility, checked by axe-core on every main screen at 1280 and 390 px, in light and
 * dark: no serious or critical violation. Screens are checked once they have settled (rows
 * loaded, no load-more in flight).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest } from '../helpers/app';
import { seriousViolations } from '../helpers/axe';

const app = appUnderTest();
const ROWS = '[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"]';
const LISTS = [
  '/assets',
  '/applications',
  '/morph-queue',
  '/morphed-assets',
  '/cage-meshes',
  '/tags',
];

async function settled(page: Page) {
  await page.locator(ROWS).first().waitFor();
  await expect.poll(() => page.locator('.react-aria-TableLoadingIndicator').count()).toBe(0);
}

/** "path: rule (n)" for each serious or critical violation on the page as it is. */
async function problems(page: Page, where: string): Promise<string[]> {
  return (await seriousViolations(page)).map(
    (v) => `${where}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}

describe.each([
  ['light', 1280],
  ['light', 390],
  ['dark', 1280],
  ['dark', 390],
] as const)('%s at %i px', (scheme, width) => {
  it('has no serious or critical axe violation on the main screens', async () => {
    const context = await app.browser.newContext({ width, height: 800 });
    await context.addInitScript(
      (choice) => localStorage.setItem('avatar-studio.theme', choice),
      scheme,
    );
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const found: string[] = [];
    await page.goto(`${app.server.url}/signin`);
    await page.getByLabel('E-mail').waitFor();
    found.push(...(await problems(page, '/signin')));
    await page.getByLabel('E-mail').fill('admin@avatar.studio');
    await page.getByLabel('Password').fill('avatar-studio-admin');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Total').waitFor();
    found.push(...(await problems(page, '/')));
    for (const path of LISTS) {
      await page.goto(`${app.server.url}${path}`);
      await settled(page);
      found.push(...(await problems(page, path)));
    }
    await page.goto(`${app.server.url}/assets`);
    await settled(page);
    await page.locator(`${ROWS} a`).first().click();
    await page.getByRole('heading', { name: /^Asset / }).waitFor();
    found.push(...(await problems(page, 'an asset')));
    expect(found).toEqual([]);
    await context.close();
  });
});

/**
 * A list's first paint holds still: while the rows load, the table, the pager's place and the
 * header's total keep the room the answer fills, so nothing moves when the rows come
 * (Lighthouse's cumulative layout shift on the list's load). A list of one page (the users)
 * then keeps no empty band above its table; one of many (the assets) has its pager there.
 * Set SHOTS_DIR=<folder> to keep pictures of both lists loaded at both widths, light and dark.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInPage } from '../helpers/app';
import { layoutShift, twoFrames } from '../helpers/layout-shift';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;
const viewport = (width: number) => ({ width, height: width > 500 ? 800 : 844 });
const ROWS = '[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])';

/**
 * Opens `path` with its list's answer held back until the loading screen has been painted, as
 * on a slow network (the rows replace skeleton rows the user already saw); answers the load's
 * layout shift once the rows and the total show.
 */
async function heldLoad(page: Page, path: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const api = path === '/assets' ? '**/v1/assets?*' : '**/private/v1/users?*';
  const hold = async (route: Route) => {
    await held;
    await route.continue();
  };
  await page.route(api, hold);
  await page.goto(`${app.server.url}${path}`);
  await page.locator('.skeleton-row').first().waitFor();
  release();
  await page.locator(ROWS).first().waitFor();
  await page.getByText(/\d+ items?$/).waitFor();
  await twoFrames(page);
  await page.unroute(api, hold);
  return layoutShift(page);
}

describe('a list loads without moving', () => {
  for (const width of WIDTHS) {
    for (const path of ['/assets', '/users']) {
      it(`${path} at ${width} px: its rows arrive without a layout shift, the pager or nothing above`, async () => {
        const page = await signedInPage(app, undefined, viewport(width));
        // The first time, the room a pager takes is kept until the answer says how many pages.
        expect(await heldLoad(page, path)).toBeLessThan(0.05);
        // Above the table: the pager on a list of many pages, nothing on a list of one.
        const top = page.locator('.list-pager-top');
        if (path === '/assets') {
          const pager = top.getByRole('navigation', { name: 'Page navigation above the list' });
          expect(await pager.isVisible()).toBe(true);
        } else {
          expect(await top.count()).toBe(0);
        }
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await shot(page, `list-loaded-${path.slice(1)}-${width}-${scheme}`);
        }
        // Opened again, the list is expected to have as many pages as it had: nothing moves.
        expect(await heldLoad(page, path)).toBeLessThan(0.005);
      });
    }
  }
});

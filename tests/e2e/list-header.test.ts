/**
 * A list screen's header and its table's default column widths, as an admin sees them: at
 * 390 px the header is the title and one toolbar row (the primary action and More, which shows
 * the other controls, by keyboard too); at 1280 px every control shows as it is, and the
 * default columns show a whole date and a typical name. Set SHOTS_DIR=<folder> to keep
 * pictures of the assets, users and morphed-assets lists at both widths, light and dark.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminApi } from '../helpers/accounts';
import { appUnderTest, signedInAt } from '../helpers/app';
import { seriousViolationsInBothSchemes } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const ROWS = '[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])';
const SLOW = 240_000;

/** The header's rows of controls: its children laid out, grouped by the line each sits on. */
const headerRows = (page: Page) =>
  page.locator('.list-header').evaluate((header) => {
    const boxes = Array.from(header.children)
      .map((child) => child.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .sort((a, b) => a.top - b.top);
    let rows = 0;
    let bottom = -Infinity;
    for (const box of boxes) {
      if (box.top >= bottom - 1) rows += 1;
      bottom = Math.max(box.bottom, box.top >= bottom - 1 ? box.bottom : bottom);
    }
    return rows;
  });

/** Whether the element lies wholly inside the window's width. */
const onScreen = async (page: Page, name: string, role: 'button' | 'link', within = page) => {
  const box = await within.getByRole(role, { name, exact: true }).boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= page.viewportSize()!.width + 0.5;
};

describe('the list header at 390 px', () => {
  it(
    'is the title and one toolbar row, and every action in it is reachable through More',
    async () => {
      const page = await signedInAt(app, `${app.server.url}/assets`, undefined, PHONE);
      await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
      expect(await headerRows(page)).toBeLessThanOrEqual(2);
      expect(await onScreen(page, 'New asset', 'link')).toBe(true);
      // The rest waits behind More, out of sight.
      expect(await page.getByRole('button', { name: 'Columns' }).count()).toBe(0);

      // By keyboard: More opens on Enter, and its controls come next in the tab order.
      const more = page.getByRole('button', { name: 'More', exact: true });
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      await more.focus();
      await page.keyboard.press('Enter');
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      const shown = page.getByRole('group', { name: 'More', exact: true });
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Endless scroll');
      for (const name of ['Endless scroll', 'Views', 'Columns']) {
        expect(await onScreen(page, name, 'button', shown.page()), name).toBe(true);
      }
      for (const name of ['All', 'Editable by me', 'Default per type']) {
        expect(await onScreen(page, name, 'link', shown.page()), name).toBe(true);
      }
      const found = await seriousViolationsInBothSchemes(page, (scheme) =>
        shot(page, `list-header-assets-more-390-${scheme}`),
      );
      expect(found).toEqual([]);

      // Columns opens from there.
      await shown.getByRole('button', { name: 'Columns' }).click();
      await page.getByRole('dialog', { name: 'Columns' }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Columns' }).waitFor({ state: 'detached' });
      // More again folds them.
      await more.click();
      expect(await page.getByRole('button', { name: 'Columns' }).count()).toBe(0);

      // A view chosen there opens that view.
      await more.click();
      await shown.getByRole('link', { name: 'Default per type' }).click();
      await page.getByRole('heading', { name: 'Default assets' }).waitFor();

      // The endless scroll switch there still switches the list.
      await more.click();
      await shown.getByRole('button', { name: 'Endless scroll' }).click();
      await more.click();
      expect(
        await shown.getByRole('button', { name: 'Endless scroll' }).getAttribute('aria-pressed'),
      ).toBe('true');
      await page.context().close();
    },
    SLOW,
  );

  it(
    'shows the users and morphed-assets lists the same way',
    async () => {
      for (const path of ['/users', '/morphed-assets']) {
        const page = await signedInAt(app, `${app.server.url}${path}`, undefined, PHONE);
        await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
        expect(await headerRows(page), path).toBeLessThanOrEqual(2);
        const more = page.getByRole('button', { name: 'More', exact: true });
        await more.click();
        const shown = page.getByRole('group', { name: 'More', exact: true });
        await shown.getByRole('button', { name: 'Columns' }).waitFor();
        const name = path.slice(1);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await shot(page, `list-header-${name}-more-390-${scheme}`);
        }
        await more.click();
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await shot(page, `list-header-${name}-390-${scheme}`);
        }
        await page.context().close();
      }
    },
    SLOW,
  );
});

describe('the assets list at 1280 px', () => {
  it(
    'shows every control without More, and whole dates and a 30-character name by default',
    async () => {
      const name = 'Braided ponytail with ribbon 2';
      expect(name).toHaveLength(30);
      await adminApi(app.server.url, 'POST', '/v1/assets', { name, type: 'hair', gender: 'male' });
      // The newest first: the new asset is on the first page, as a user finds it.
      const page = await signedInAt(
        app,
        `${app.server.url}/assets?order=-updatedAt`,
        undefined,
        DESKTOP,
      );
      await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
      for (const button of ['Endless scroll', 'Views', 'Columns']) {
        expect(await onScreen(page, button, 'button'), button).toBe(true);
      }
      for (const link of ['All', 'Editable by me', 'Default per type', 'New asset']) {
        expect(await onScreen(page, link, 'link'), link).toBe(true);
      }
      expect(await page.getByRole('button', { name: 'More', exact: true }).count()).toBe(0);

      // Once the table has taken its resizable widths (a resize handle per column).
      await page.locator('.column-resizer').first().waitFor();
      const cut = await page.locator(ROWS).evaluateAll((rows) =>
        rows.flatMap((row) =>
          Array.from(row.querySelectorAll<HTMLElement>('td, th'))
            .filter((cell) => cell.querySelector('time, .asset-name'))
            .filter((cell) => cell.scrollWidth > cell.clientWidth)
            .map((cell) => cell.textContent),
        ),
      );
      expect(cut).toEqual([]);
      const shown = await page
        .getByRole('rowheader', { name })
        .evaluate((cell) => cell.scrollWidth <= cell.clientWidth);
      expect(shown).toBe(true);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await shot(page, `list-header-assets-1280-${scheme}`);
      }
      for (const path of ['/users', '/morphed-assets']) {
        await page.goto(`${app.server.url}${path}`);
        await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
        await page.locator('.column-resizer').first().waitFor();
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await shot(page, `list-header-${path.slice(1)}-1280-${scheme}`);
        }
      }
      await page.context().close();
    },
    SLOW,
  );
});

/**
 * The Columns control of a list at 1280 and 390 px: columns hidden and moved in its dialog and a
 * column widened by its header's edge stay so after a reload, and Reset columns brings the
 * defaults back. Light and dark are checked with axe with the dialog open (set
 * SHOTS_DIR=<folder> to keep screenshots of the dialog and of the resized table).
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInAt } from '../helpers/app';
import { seriousViolationsInBothSchemes } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;
const viewport = (width: number) => ({ width, height: width > 500 ? 800 : 844 });
const ROWS = '[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])';
const SLOW = 240_000;

/** The column headers' names, in order (each header's first text, before its sort mark). */
const headers = (page: Page) =>
  page
    .locator('[role="columnheader"] .column-header')
    .evaluateAll((names) => names.map((n) => n.firstChild?.textContent ?? ''));

/** The Columns button: on a phone, behind More. */
const columnsButton = async (page: Page, width: number) => {
  if (width < 500) await page.getByRole('button', { name: 'More', exact: true }).click();
  return page.getByRole('button', { name: 'Columns' });
};

const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
};

describe.each(WIDTHS)('the Columns control at %i px', (width) => {
  it(
    'hides, moves and resizes columns, remembered after a reload, and resets them',
    async () => {
      const page = await signedInAt(app, `${app.server.url}/assets`, undefined, viewport(width));
      await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
      const defaults = await headers(page);
      expect(defaults.slice(0, 3)).toEqual(['Name', 'Type', 'Gender']);

      // On a phone too the control is in reach, wholly inside the window.
      const button = await columnsButton(page, width);
      const { x, width: w } = await box(button);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x + w).toBeLessThanOrEqual(width + 0.5);
      await button.click();
      const dialog = page.getByRole('dialog', { name: 'Columns' });
      await dialog.waitFor();
      expect(await dialog.getByRole('checkbox', { name: /Name/ }).isDisabled()).toBe(true);
      await dialog.getByText('Gender', { exact: true }).click();
      // Past the hidden Gender, then past Type.
      await dialog.getByRole('button', { name: 'Move Tags up' }).click();
      await dialog.getByRole('button', { name: 'Move Tags up' }).click();
      expect((await headers(page)).slice(0, 3)).toEqual(['Name', 'Tags', 'Type']);
      expect(await headers(page)).not.toContain('Gender');

      const found = await seriousViolationsInBothSchemes(page, (scheme) =>
        shot(page, `list-columns-dialog-${width}-${scheme}`),
      );
      expect(found).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      let typeWidth = 0;
      if (width > 500) {
        // The Type header's right edge, dragged 120 px to the right.
        const type = page.getByRole('columnheader', { name: /^Type/ });
        const before = (await box(type)).width;
        const edge = await box(type.locator('.column-resizer'));
        await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
        await page.mouse.down();
        await page.mouse.move(edge.x + edge.width / 2 + 60, edge.y + edge.height / 2, {
          steps: 4,
        });
        await page.mouse.move(edge.x + edge.width / 2 + 120, edge.y + edge.height / 2, {
          steps: 4,
        });
        await page.mouse.up();
        typeWidth = (await box(type)).width;
        expect(typeWidth).toBeGreaterThan(before + 100);
        const found = await seriousViolationsInBothSchemes(page, (scheme) =>
          shot(page, `list-columns-resized-${width}-${scheme}`),
        );
        expect(found).toEqual([]);
      }

      await page.reload();
      await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
      expect((await headers(page)).slice(0, 3)).toEqual(['Name', 'Tags', 'Type']);
      expect(await headers(page)).not.toContain('Gender');
      if (width > 500) {
        const type = page.getByRole('columnheader', { name: /^Type/ });
        expect(Math.abs((await box(type)).width - typeWidth)).toBeLessThanOrEqual(2);
      } else {
        // A phone shows each row as a card: its values follow the columns' order.
        const labels = await page
          .locator(`${ROWS} [data-label]`)
          .evaluateAll((cells) => cells.slice(0, 3).map((c) => c.getAttribute('data-label')));
        expect(labels).toEqual(['Name', 'Tags', 'Type']);
      }

      await (await columnsButton(page, width)).click();
      await page
        .getByRole('dialog', { name: 'Columns' })
        .getByRole('button', { name: 'Reset columns' })
        .click();
      await expect.poll(() => headers(page)).toEqual(defaults);
      await page.close();
    },
    SLOW,
  );
});

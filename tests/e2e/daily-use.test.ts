/**
 * Daily use where the eye is, at 1280 and 390 px: a long list keeps its column headers in sight
 * and offers the next page above the rows; the bulk bar's actions are all in reach on a phone
 * and toasts never cover them; the pager keeps to one line; an edit conflict comes to where
 * Save was pressed, and so does "Saved.". Light and dark are checked with axe (set
 * SHOTS_DIR=<folder> to keep screenshots).
 */
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureBytes, PNG_SUITE } from '../../core/files/test-fixtures';
import { api, login, secondAdmin } from '../helpers/accounts';
import { appUnderTest, signedInAt } from '../helpers/app';
import { seriousViolationsInBothSchemes } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;
const viewport = (width: number) => ({ width, height: width > 500 ? 800 : 844 });
const ROWS = '[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])';
/** These tests walk long pages on a shared 2-core machine. */
const SLOW = 240_000;

let token: string;
beforeAll(async () => {
  token = await login(app.server.url);
});

const box = async (locator: Locator) => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
};
const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every button of `scope` lies wholly inside the window's width. */
async function allInWidth(scope: Locator, width: number) {
  const boxes = await scope
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().toJSON() as DOMRect));
  return boxes.every((b) => b.left >= 0 && b.right <= width + 0.5);
}

describe.each(WIDTHS)('a long list at %i px', (width) => {
  it(
    'keeps its headers and a pager in sight, its bulk bar whole and clear of toasts',
    async () => {
      const page = await signedInAt(
        app,
        `${app.server.url}/assets?limit=50`,
        undefined,
        viewport(width),
      );
      await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
      await expect.poll(() => page.locator(ROWS).count()).toBe(50);
      const grid = page.getByRole('grid');

      // The way to the next page is above the rows too.
      const top = page.getByRole('navigation', { name: 'Page navigation above the list' });
      expect((await box(top)).y).toBeLessThan((await box(grid)).y);
      expect(await top.innerText()).toMatch(/Page 1 of \d+/);

      // The pager below keeps to one line: its buttons share a top.
      const pager = page.getByRole('navigation', { name: 'Pages', exact: true });
      const tops = await pager
        .getByRole('button')
        .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
      expect(new Set(tops).size).toBe(1);
      expect(await allInWidth(pager, width)).toBe(true);

      if (width > 500) {
        // Scrolled far down, the column headers are still at the top of the window.
        await page.evaluate(() => window.scrollTo(0, 1500));
        const name = page.getByRole('columnheader', { name: /^Name/ });
        await expect.poll(async () => Math.round((await box(name)).y)).toBe(0);
        await shot(page, `daily-use-sticky-header-${width}`);
      }

      // A selection: the bar shows at the bottom of the window, every action in reach.
      await page.evaluate(() => window.scrollTo(0, 600));
      const checkboxes = page.locator(`${ROWS} .checkbox`);
      await checkboxes.nth(10).click();
      await checkboxes.nth(11).click();
      const bar = page.getByRole('toolbar', { name: '2 selected' });
      await bar.waitFor();
      expect(await allInWidth(bar, width)).toBe(true);
      expect(await bar.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);

      // What an action did shows above the bar, not over it.
      await bar.getByRole('button', { name: 'Lock', exact: true }).click();
      const toast = page.getByRole('region', { name: 'Notifications' }).getByText(/locked$/);
      await toast.waitFor();
      const barBox = await box(page.locator('.selection-bar'));
      const toastBox = await box(page.locator('.toast').first());
      expect(overlaps(barBox, toastBox)).toBe(false);
      await shot(page, `daily-use-bulk-toast-${width}`);

      // A whole page selected: "Select all … matching" is there whole, on a phone too.
      await page.goto(`${app.server.url}/assets?limit=10`);
      await expect.poll(() => page.locator(ROWS).count()).toBe(10);
      for (let i = 0; i < 10; i++) await checkboxes.nth(i).click();
      const matching = page.getByRole('button', { name: /^Select all \d+ assets matching/ });
      await matching.waitFor();
      const link = await box(matching);
      expect(link.x).toBeGreaterThanOrEqual(0);
      expect(link.x + link.width).toBeLessThanOrEqual(width + 0.5);
      expect(await matching.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);
      expect(await allInWidth(page.getByRole('toolbar'), width)).toBe(true);

      const found = await seriousViolationsInBothSchemes(page, (scheme) =>
        shot(page, `daily-use-bulk-bar-${width}-${scheme}`),
      );
      expect(found).toEqual([]);
      await page.context().close();
    },
    SLOW,
  );
});

describe.each(WIDTHS)("an application's short asset list at %i px", (width) => {
  it(
    'keeps a toast clear of its bulk bar, which sits under the rows rather than at the bottom',
    async () => {
      const [application] = (await api(
        app.server.url,
        '/v1/applications?limit=1',
        token,
      )) as unknown as { id: string; name: string }[];
      const names = [1, 2, 3].map((n) => `Short ${width} ${n} ${Date.now()}`);
      for (const name of names) {
        const { id } = await api(app.server.url, '/v1/assets', token, 'POST', {
          name,
          type: 'top',
          gender: 'female',
        });
        await api(app.server.url, `/v1/assets/${String(id)}/application`, token, 'POST', {
          applicationId: application!.id,
        });
      }
      const filter = encodeURIComponent(JSON.stringify({ search: `Short ${width} ` }));
      const page = await signedInAt(
        app,
        `${app.server.url}/applications/${application!.id}/assets?filter=${filter}`,
        undefined,
        viewport(width),
      );
      await expect.poll(() => page.locator(ROWS).count(), { timeout: 60_000 }).toBe(3);

      // Two selected, then a third removed from its menu: its toast shows with the bar.
      const checkboxes = page.locator(`${ROWS} .checkbox`);
      await checkboxes.nth(1).click();
      await checkboxes.nth(2).click();
      const bar = page.getByRole('toolbar', { name: '2 selected' });
      await bar.waitFor();
      await page.getByRole('button', { name: `Actions: ${names[0]}` }).click();
      await page.getByRole('menuitem', { name: 'Remove from application' }).click();
      const toast = page.locator('.toast').filter({
        hasText: `${names[0]} removed from ${application!.name}`,
      });
      await toast.waitFor();
      await expect.poll(() => page.locator(ROWS).count()).toBe(2);
      await bar.waitFor();
      expect(overlaps(await box(page.locator('.selection-bar')), await box(toast))).toBe(false);
      await shot(page, `daily-use-short-list-toast-${width}`);
      await page.context().close();
    },
    SLOW,
  );
});

describe.each(WIDTHS)('an edit conflict at %i px', (width) => {
  it(
    'comes to where Save was pressed with the focus on the choice, and so does "Saved."',
    async () => {
      const name = `Where ${width} ${Date.now()}`;
      const { id } = await api(app.server.url, '/v1/assets', token, 'POST', {
        name,
        type: 'top',
        gender: 'male',
      });
      const path = `${app.server.url}/assets/${String(id)}`;
      const a = await signedInAt(app, path, undefined, viewport(width));
      const b = await signedInAt(app, path, await secondAdmin(app.server.url), viewport(width));
      for (const page of [a, b]) {
        await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe(name);
      }
      // A edits at the top of the form; B saves another name meanwhile.
      await a.getByLabel('Name', { exact: true }).fill(`${name} A`);
      await b.getByLabel('Name', { exact: true }).fill(`${name} B`);
      await b.getByRole('button', { name: 'Save', exact: true }).click();
      await b.getByText('Saved.', { exact: true }).waitFor();
      // A saves from the bar at the bottom of the window.
      await a.getByRole('button', { name: 'Save', exact: true }).click();
      const panel = a.getByRole('region', {
        name: 'Someone else changed these fields since you opened the form',
      });
      await panel.waitFor();
      const height = viewport(width).height;
      await expect
        .poll(async () => {
          const at = await box(panel);
          return at.y >= 0 && at.y < height;
        })
        .toBe(true);
      await expect
        .poll(() => a.evaluate(() => document.activeElement?.closest('label')?.textContent ?? ''))
        .toBe(`Keep yours: ${name} A`);
      await shot(a, `daily-use-conflict-${width}`);

      await panel.getByRole('button', { name: 'Save again' }).click();
      const saved = a.getByText('Saved.', { exact: true });
      await saved.waitFor();
      const at = await box(saved);
      expect(at.y >= 0 && at.y + at.height <= height).toBe(true);
      await shot(a, `daily-use-saved-${width}`);
      await a.context().close();
      await b.context().close();
    },
    SLOW,
  );
});

describe.each(WIDTHS)('a form at %i px', (width) => {
  it('clears a refused file with Remove, takes the same file again, and asks before discarding', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets/new`, undefined, viewport(width));
    const icon = page.getByLabel('Icon (PNG)', { exact: true });
    const field = page.locator('.file-drop').filter({ has: icon });
    const rgb = {
      name: 'basn2c08.png',
      mimeType: 'image/png',
      buffer: Buffer.from(fixtureBytes(PNG_SUITE, 'basn2c08.png')),
    };
    await icon.setInputFiles(rgb);
    await field.getByRole('alert').waitFor();
    await shot(page.locator('.file-drop').filter({ has: icon }), `daily-use-refused-file-${width}`);
    await field.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => field.getByRole('alert').count()).toBe(0);
    // The same file again: the browser takes it (the input let go of it), and says why again.
    await icon.setInputFiles(rgb);
    await field.getByRole('alert').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Not kept');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Discard your changes?' });
    await dialog.waitFor();
    const found = await seriousViolationsInBothSchemes(page, (scheme) =>
      shot(page, `daily-use-discard-${width}-${scheme}`),
    );
    expect(found).toEqual([]);
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Not kept');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await dialog.getByRole('button', { name: 'Discard', exact: true }).click();
    await expect.poll(() => page.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    await page.context().close();
  });
});

describe.each(WIDTHS)('a tag just created at %i px', (width) => {
  it('is marked on the page it lands on, in view', async () => {
    const page = await signedInAt(app, `${app.server.url}/tags`, undefined, viewport(width));
    await page.locator(ROWS).first().waitFor({ timeout: 60_000 });
    // First in the default order (by name), so on the page shown.
    const name = `AAA ${width} ${Date.now()}`;
    await page.getByRole('textbox', { name: 'Tag name' }).fill(name);
    await page.getByRole('button', { name: 'Add tag', exact: true }).click();
    const row = page.locator(`${ROWS}[data-created]`);
    await expect.poll(() => row.getByRole('rowheader').innerText()).toBe(name);
    expect(await page.locator('[data-created]').count()).toBe(1);
    expect(await row.isVisible()).toBe(true);
    await shot(page, `daily-use-created-${width}`);
    await page.context().close();
  });
});

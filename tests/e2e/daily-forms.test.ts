/**
 * Daily use, forms and keyboard, at 1280 and 390 px: the save bar that stays in
 * reach while a form has changes (Save, Discard, what changed) and Ctrl+S; what a picker shows
 * once chosen (a single value's label, whole chips, a multi-select that looks like one and
 * leaves the page usable); the keyboard: `/` to the list's search, the command palette
 * (Ctrl+K) and keyboard reordering one place per arrow without wrapping round. Axe stays clean
 * in both schemes on the screens changed; set SHOTS_DIR=<folder> to keep screenshots.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../helpers/accounts';
import { appUnderTest, readyToPick, signedInAt } from '../helpers/app';
import { seriousViolationsInBothSchemes, useScheme } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;
const HEIGHT = 800;

let token: string;
beforeAll(async () => {
  token = await login(app.server.url);
});

const read = (path: string) => api(app.server.url, path, token);
const stamp = () => String(Date.now());

/**
 * A signed-in admin page of `width` px opened at `url` (no dashboard load first), with the save
 * shortcut of Linux (Ctrl).
 */
const adminAt = (url: string, width: number) =>
  signedInAt(app, url, undefined, { width, height: HEIGHT });

/** No serious axe violation in the light and the dark scheme; a screenshot of each if asked. */
async function checkA11y(page: Page, where: string) {
  const found = await seriousViolationsInBothSchemes(page, (scheme) =>
    shot(page, `${where}-${page.viewportSize()?.width ?? 0}-${scheme}`),
  );
  expect(found, where).toEqual([]);
  await useScheme(page, 'light');
}

/** Whether the element is entirely inside the window. */
const inView = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

/** Counts the requests matching `method` and `part` from now on. */
function countRequests(page: Page, method: string, part: string) {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.method() === method && request.url().includes(part)) seen.push(request.url());
  });
  return () => seen.length;
}

describe('the save bar', () => {
  it.each(WIDTHS)(
    'stays in reach with Save, Discard and what changed; Ctrl+S saves once (%i px)',
    async (width) => {
      const name = `Save bar ${stamp()}`;
      const { id } = await api(app.server.url, '/v1/assets', token, 'POST', {
        name,
        type: 'top',
        gender: 'male',
      });
      const page = await adminAt(`${app.server.url}/assets/${String(id)}`, width);
      const nameField = page.getByLabel('Name', { exact: true });
      await expect.poll(() => nameField.inputValue()).toBe(name);
      const patches = countRequests(page, 'PATCH', `/assets/${String(id)}`);
      // The browser's own save dialog never opens: every Ctrl+S is taken by the page.
      await page.evaluate(() => {
        const w = window as unknown as { saveKeys: boolean[] };
        w.saveKeys = [];
        window.addEventListener('keydown', (event) => {
          if (event.key === 's' && event.ctrlKey) w.saveKeys.push(event.defaultPrevented);
        });
      });
      const saveKeys = () =>
        page.evaluate(() => (window as unknown as { saveKeys: boolean[] }).saveKeys);

      // Nothing changed: no bar, and Ctrl+S sends nothing.
      await expect(page.getByText(/unsaved change/).count()).resolves.toBe(0);
      await nameField.focus();
      await page.keyboard.press('Control+s');
      await page.waitForTimeout(300);
      expect(patches()).toBe(0);

      // A change, typed at the top of the form: Save is in the window beside the field.
      await nameField.fill(`${name} 2`);
      await page.getByLabel('Description').fill('Typed');
      await page.getByText('2 unsaved changes: Name and Description').waitFor();
      await nameField.scrollIntoViewIfNeeded();
      expect(await inView(page, 'Save')).toBe(true);
      expect(await inView(page, 'Discard changes')).toBe(true);
      await checkA11y(page, 'save-bar');

      // Discard, once confirmed, puts the form back as loaded.
      await page.getByRole('button', { name: 'Discard changes' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();
      await expect.poll(() => nameField.inputValue()).toBe(name);
      expect(await page.getByLabel('Description').inputValue()).toBe('');
      await expect(page.getByText(/unsaved change/).count()).resolves.toBe(0);

      // Ctrl+S saves; pressed again while the save is under way, it sends nothing more.
      await nameField.fill(`${name} 3`);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**/assets/${String(id)}`, async (route) => {
        if (route.request().method() === 'PATCH') await held;
        await route.fallback();
      });
      await nameField.press('Control+s');
      await expect.poll(patches).toBe(1);
      await nameField.press('Control+s');
      release();
      await page.getByText('Saved.', { exact: true }).waitFor();
      expect(patches()).toBe(1);
      expect((await read(`/v1/assets/${String(id)}`)).name).toBe(`${name} 3`);
      expect(await saveKeys()).toEqual([true, true, true]);
      await page.close();
    },
  );

  it('is in the cage mesh form too (390 px)', async () => {
    const page = await adminAt(`${app.server.url}/cage-meshes/new`, 390);
    await page.getByLabel('Name', { exact: true }).fill('Bar mesh');
    await page.getByText('1 unsaved change: Name').waitFor();
    expect(await inView(page, 'Discard changes')).toBe(true);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    await page.close();
  });
});

describe('what was picked', () => {
  it.each(WIDTHS)(
    'a single picker shows the chosen label, not the typed fragment (%i px)',
    async (width) => {
      const applications = (await api(
        app.server.url,
        '/v1/applications?limit=1',
        token,
      )) as unknown as { name: string }[];
      const application = applications[0]!.name;
      const { id } = await api(app.server.url, '/v1/assets', token, 'POST', {
        name: `Picker ${stamp()}`,
        type: 'top',
        gender: 'male',
      });
      const page = await adminAt(`${app.server.url}/assets/${String(id)}`, width);
      const picker = page.getByRole('combobox', { name: 'Application' });
      await readyToPick(page, picker);
      await picker.fill(application.slice(0, 3));
      await page.getByRole('option', { name: application }).first().waitFor();
      // What the list was when each key went (in the message should the pick not happen).
      const state = async () =>
        `expanded ${await picker.getAttribute('aria-expanded')}, active option ` +
        `${await picker.getAttribute('aria-activedescendant')}, options ` +
        (await page.getByRole('option').allTextContents()).join(' | ');
      const seen = [`before ArrowDown: ${await state()}`];
      await page.keyboard.press('ArrowDown');
      seen.push(`before Enter: ${await state()}`);
      await page.keyboard.press('Enter');
      await expect.poll(() => picker.inputValue(), { message: seen.join('; ') }).toBe(application);
      await page.waitForTimeout(400);
      expect(await picker.inputValue()).toBe(application);
      await page.close();
    },
  );

  it.each(WIDTHS)(
    'chips show whole labels; multi-selects are chips and leave the page usable (%i px)',
    async (width) => {
      const long = `Walk cycle with a long descriptive name ${stamp()}`;
      await api(app.server.url, '/v1/tags', token, 'POST', { name: long });
      const page = await adminAt(`${app.server.url}/assets/new`, width);
      const tags = page.getByRole('combobox', { name: 'Tags' });
      await tags.fill(long.slice(0, 12));
      await page.getByRole('option', { name: long }).click();
      const chip = page.locator('.tag-text', { hasText: long });
      await chip.waitFor();
      // Not cut: the whole label is laid out (wrapped where it must).
      expect(await chip.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
      expect(await chip.innerText()).toBe(long);

      // A multi-select of the assets list shows its values as chips, stays open for more picks
      // over a page that still takes clicks, and closes on Escape and on a click elsewhere.
      await page.goto(`${app.server.url}/assets`);
      // On a phone the Type filter is in All Filters.
      const phone = width < 700;
      if (phone) await page.getByRole('button', { name: 'All Filters' }).click();
      const scope = phone
        ? page.getByRole('dialog', { name: 'All Filters' })
        : page.getByRole('search');
      const type = scope.getByRole('button', { name: /Type/ });
      await type.click();
      await page.getByRole('option', { name: 'Top' }).click();
      await page.getByRole('option', { name: 'Bottom' }).click();
      expect(await page.getByRole('listbox').count()).toBe(1);
      // What is behind the list (the page, or the All Filters dialog on a phone) stays usable.
      const blocked = await scope.evaluate((element) =>
        Boolean(element.closest('[inert], [aria-hidden="true"]')),
      );
      expect(blocked).toBe(false);
      await checkA11y(page, 'multi-select-open');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
      await expect
        .poll(() => type.locator('.select-chip').allInnerTexts())
        .toEqual(['Top', 'Bottom']);
      await type.click();
      await page.getByRole('listbox').waitFor();
      await (
        phone
          ? scope.getByRole('heading', { name: 'All Filters' })
          : page.getByRole('heading', { level: 1 })
      ).click();
      await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
      await page.close();
    },
  );
});

describe('the keyboard', () => {
  it.each(WIDTHS)(
    '`/` goes to the list search, Ctrl+K to any screen and action (%i px)',
    async (width) => {
      const page = await adminAt(`${app.server.url}/assets`, width);
      await page.locator('input[type="search"]').waitFor();
      // `/` from anywhere but a text field.
      await page.keyboard.press('/');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).type)).toBe(
        'search',
      );
      await page.keyboard.type('abc/');
      expect(await page.locator('input[type="search"]').inputValue()).toBe('abc/');

      // The palette: a screen by a few letters, then an action.
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Commands' });
      await dialog.waitFor();
      await checkA11y(page, 'command-palette');
      if (width < 768) {
        // At phone width the palette's layout is what differs (read by axe above); what the
        // keys find and do is the same at any width, walked once at 1280 px below.
        await page.keyboard.press('Escape');
        await expect.poll(() => dialog.count()).toBe(0);
        await page.close();
        return;
      }
      await page.keyboard.type('cge msh');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/cage-meshes(\?|$)/);
      await expect.poll(() => dialog.count()).toBe(0);

      await page.keyboard.press('Control+k');
      await page.keyboard.type('new asset');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/assets\/new(\?|$)/);

      await page.keyboard.press('Control+k');
      await page.keyboard.type('dark');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
        .toBe('dark');
      // Nothing matching says so; Escape empties the field, a second one closes.
      await page.keyboard.press('Control+k');
      await page.keyboard.type('zzzzqq');
      await dialog.getByText('No screen, record or action matches.').waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.getByRole('searchbox').inputValue()).toBe('');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await page.close();
    },
  );

  // At the phone's width, where the rows are cards: the keys do the same at any width, and
  // lists.test.ts moves a row with the keyboard at 1280 px.
  it('keyboard only: reorders one place per arrow, never wraps to the other end, and keeps the order after a reload (390 px)', async () => {
    const page = await adminAt(`${app.server.url}/applications`, 390);
    await page.getByRole('grid').getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Assets of / }).waitFor();
    const rowNames = () =>
      page
        .locator('[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"]')
        .allInnerTexts();
    await expect.poll(async () => (await rowNames()).length).toBeGreaterThan(4);
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    const inGrid = () =>
      page.evaluate(() => Boolean(document.activeElement?.closest('[role="grid"]')));

    /**
     * Keyboard only, as a keyboard user does it: Tab from the top of the page into the grid
     * (one stop: it focuses a row), the arrows to row `index` and right to its drag handle,
     * Enter, the `arrows` (checking where each puts the drop), then `drop` (Enter, or Escape
     * to put the row back).
     */
    async function move(index: number, arrows: [string, string][], drop = 'Enter') {
      const rows = await rowNames();
      await page.locator('body').evaluate((body) => {
        (document.activeElement as HTMLElement | null)?.blur();
        body.tabIndex = -1;
      });
      for (let presses = 0; presses < 60 && !(await inGrid()); presses++) {
        await page.keyboard.press('Tab');
      }
      expect(await inGrid()).toBe(true);
      // Up to the first row, then down to row `index`, then right to its first cell.
      await page.keyboard.press('Home');
      for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      await expect.poll(focused).toBe(`Drag to reorder ${rows[index]}`);
      await page.keyboard.press('Enter');
      await expect.poll(focused).toMatch(/^Insert/);
      scrollAtDrag = await page.evaluate(() => window.scrollY);
      for (const [arrow, between] of arrows) {
        await page.keyboard.press(arrow);
        await expect.poll(focused).toContain(between);
      }
      await page.keyboard.press(drop);
    }

    /** Where the page was scrolled when the last drag began. */
    let scrollAtDrag = 0;
    const before = await rowNames();
    const [a, b, c, d] = before as [string, string, string, string];
    // The first press moves the second row one place down (not nothing), the second one more.
    await move(1, [
      ['ArrowDown', `${c} and ${d}`],
      ['ArrowDown', `${d} and `],
    ]);
    const moved = [a, c, d, b, ...before.slice(4)];
    await expect.poll(rowNames).toEqual(moved);
    // The page did not jump to its bottom either: the row is where it was dropped, in view.
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrollAtDrag)).toBeLessThan(200);
    const dropped = await page.getByRole('rowheader', { name: b, exact: true }).boundingBox();
    expect(dropped!.y).toBeGreaterThanOrEqual(0);
    expect(dropped!.y + dropped!.height).toBeLessThanOrEqual(HEIGHT);
    // Up: the first press moves the row one place too (the gap just above it moves nothing).
    await move(3, [['ArrowUp', `between ${c} and ${d}`]]);
    const movedUp = [a, c, b, d, ...before.slice(4)];
    await expect.poll(rowNames).toEqual(movedUp);
    // Up from the first row stays at the top: it never wraps round to the bottom.
    // (The drop stays just below the row itself, where it moves nothing.)
    await move(0, [
      ['ArrowUp', `between ${a} and ${c}`],
      ['ArrowUp', `between ${a} and ${c}`],
    ]);
    await page.waitForTimeout(500);
    expect(await rowNames()).toEqual(movedUp);
    // Escape after an arrow puts the row back where it was, the focus on its handle.
    await move(1, [['ArrowDown', `${b} and ${d}`]], 'Escape');
    await expect.poll(focused).toBe(`Drag to reorder ${c}`);
    expect(await rowNames()).toEqual(movedUp);

    // The order is the server's, without the move Escape undid: a reload shows it.
    await page.reload();
    await page.getByRole('heading', { name: /^Assets of / }).waitFor();
    await expect.poll(rowNames).toEqual(movedUp);
    await page.close();
  });
});

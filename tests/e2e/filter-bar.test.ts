/**
 * The filter bar as one tidy row: every field the same height on one line at 1280 px (Lock
 * included), each with its icon before its label, chosen values inside their field, "Any" in every empty field, one clear button in
 * the search box, a single-select that goes back to "Any", and a list that always holds a value
 * (cage meshes: preselectValue). At 390 px the bar fits the screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInPage, signedInAt, ADMIN } from '../helpers/app';

/** The assets list's filters, in the bar's order. */
const ASSET_FILTERS = ['Search', 'Type', 'Gender', 'Application', 'Tags', 'Lock'];

const app = appUnderTest();

const bar = (page: Page) => page.getByRole('search', { name: 'Filters' });
const ROWS = '[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"]';

/** The top and bottom edge of each field's box (its control), by label. */
const boxes = (page: Page) =>
  bar(page)
    .locator('.filter')
    .evaluateAll((fields) =>
      fields.map((field) => {
        const label = field.querySelector('.filter-label')?.textContent?.trim() ?? '';
        const rect = field.getBoundingClientRect();
        return { label, top: Math.round(rect.top), bottom: Math.round(rect.bottom) };
      }),
    );

/**
 * Each field's label and the icon drawn before it (spec §3 `icon`): its size on screen, whether
 * it comes before the label's words, and its drawing (to tell the icons apart).
 */
const icons = (page: Page, scope = bar(page)) =>
  scope.locator('.filter').evaluateAll((fields) =>
    fields.map((field) => {
      const label = field.querySelector('.filter-label');
      const icon = label?.querySelector('.filter-icon svg');
      const box = icon?.getBoundingClientRect();
      const words = document.createRange();
      if (label?.lastChild) words.selectNode(label.lastChild);
      return {
        label: label?.textContent?.trim() ?? '',
        size: box ? [Math.round(box.width), Math.round(box.height)] : [0, 0],
        beforeWords: box !== undefined && box.right <= words.getBoundingClientRect().left,
        drawing: icon?.innerHTML ?? '',
      };
    }),
  );

/** Picks the nth option offered for `text` in an autocomplete filter. */
async function choose(page: Page, field: string, text: string, nth: number) {
  const box = bar(page).getByRole('combobox', { name: field });
  await box.fill(text);
  await page.getByRole('listbox').getByRole('option').nth(nth).click();
  await box.press('Escape');
}

describe('the filter bar at 1280 px', () => {
  it('keeps every field on one row, the same height, with chosen values inside their field', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`);
    await page.locator(ROWS).first().waitFor();

    const empty = await boxes(page);
    expect(empty.map((b) => b.label)).toEqual(ASSET_FILTERS);
    // Every filter type shows its icon before its label: text (Search), multi-select (Type,
    // Gender), autocomplete (Application, Tags), single-select (Lock); each its own drawing.
    const drawn = await icons(page);
    for (const icon of drawn) {
      expect(Math.min(...icon.size), icon.label).toBeGreaterThanOrEqual(12);
      expect(icon.beforeWords, icon.label).toBe(true);
    }
    expect(new Set(drawn.map((icon) => icon.drawing)).size).toBe(6);
    // Spec §3: each select filter is 140 to 200 px wide.
    for (const field of ['Type', 'Gender', 'Lock']) {
      const width = await bar(page)
        .locator('.filter', { has: page.getByRole('button', { name: new RegExp(field) }) })
        .evaluate((element) => element.getBoundingClientRect().width);
      expect(width, field).toBeGreaterThanOrEqual(140);
      expect(width, field).toBeLessThanOrEqual(200);
    }
    // One row: every field starts and ends where the first does (Lock does not drop alone).
    for (const b of empty)
      expect(b, b.label).toMatchObject({ top: empty[0]!.top, bottom: empty[0]!.bottom });
    // Empty fields say "Any", the autocompletes too.
    for (const field of ['Application', 'Tags']) {
      expect(
        await bar(page).getByRole('combobox', { name: field }).getAttribute('placeholder'),
      ).toBe('Any');
    }
    for (const field of ['Type', 'Gender', 'Lock']) {
      expect(
        await bar(page)
          .getByRole('button', { name: new RegExp(field) })
          .innerText(),
      ).toMatch(/^Any/);
    }

    // Three tags and two applications: one chip each, then "+N", inside the field.
    await choose(page, 'Tags', 'a', 0);
    await choose(page, 'Tags', 'a', 1);
    await choose(page, 'Tags', 'a', 2);
    await choose(page, 'Application', 'a', 0);
    await choose(page, 'Application', 'a', 1);
    await page.waitForURL((url) =>
      (url.searchParams.get('filter') ?? '').includes('applicationId'),
    );
    await bar(page).getByText('+2').waitFor();
    await bar(page).getByText('+1').waitFor();
    expect(await boxes(page)).toEqual(empty);
    await page.context().close();
  });

  it('shows one clear button in the search box, and a single-select goes back to "Any"', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`);
    const search = bar(page).getByRole('searchbox', { name: 'Search' });
    await search.fill('Festival');
    // Ours, named (the browser's own cancel button is hidden by the style sheet).
    expect(await bar(page).getByRole('button', { name: 'Clear', exact: true }).count()).toBe(1);

    const lock = bar(page).getByRole('button', { name: /Lock/ });
    await lock.click();
    await page.getByRole('option', { name: 'Locked', exact: true }).click();
    await page.waitForURL((url) =>
      (url.searchParams.get('filter') ?? '').includes('"locked":"true"'),
    );
    await lock.click();
    await page.getByRole('option', { name: 'Any' }).click();
    await page.waitForURL((url) => !(url.searchParams.get('filter') ?? '').includes('locked'));
    expect(await lock.innerText()).toMatch(/^Any/);
    await page.context().close();
  });
});

describe("the spec's list measures", () => {
  it('skeleton rows are 80 px tall while a page loads, and the table keeps 650 px in a narrower region', async () => {
    const page = await signedInPage(app, undefined, { width: 800, height: 800 });
    // The first page of assets waits until the skeleton has been measured.
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(
      (url) => url.pathname === '/v1/assets',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto(`${app.server.url}/assets`);
    const skeleton = page.locator('.skeleton-row').first();
    await skeleton.waitFor();
    expect(await skeleton.evaluate((row) => row.getBoundingClientRect().height)).toBe(80);
    answer();
    await page.locator(ROWS).first().waitFor();
    // The table is at least 650 px wide. No window gives it less room (below 768 px the rows
    // become cards), so the tags' table (whose columns need less) is put in a 500 px region
    // here: it keeps 650 px and the region scrolls sideways.
    await page.goto(`${app.server.url}/tags`);
    await page.locator(ROWS).first().waitFor();
    const table = await page.locator('table.data-table').evaluate((element) => {
      const region = element.parentElement!;
      region.style.width = '500px';
      return {
        width: element.getBoundingClientRect().width,
        scrolls: region.scrollWidth > region.clientWidth,
      };
    });
    expect(table.width).toBe(650);
    expect(table.scrolls).toBe(true);
    await page.context().close();
  });
});

describe('a list that always shows one value of a filter (preselectValue)', () => {
  it('opens the cage meshes on the male body and switches bodies, never to "Any"', async () => {
    const page = await signedInAt(app, `${app.server.url}/cage-meshes`);
    await page.waitForURL((url) => url.searchParams.get('filter') === '{"gender":"male"}');
    await page.locator(ROWS).first().waitFor();
    const gender = bar(page).getByRole('button', { name: /Gender/ });
    expect(await gender.innerText()).toMatch(/^Male/);
    const genders = () =>
      page
        .locator('[role="grid"] [role="row"]:not(.skeleton-row) [role="gridcell"]')
        .allInnerTexts();
    expect(await genders()).toContain('Male');
    expect(await genders()).not.toContain('Female');

    // Only the preselected value: nothing to clear.
    expect(await bar(page).getByRole('button', { name: 'Clear Filters' }).count()).toBe(0);
    await gender.click();
    expect(await page.getByRole('option', { name: 'Any' }).count()).toBe(0);
    await page.getByRole('option', { name: 'Female' }).click();
    await page.waitForURL((url) => url.searchParams.get('filter') === '{"gender":"female"}');
    await expect
      .poll(async () => (await genders()).includes('Female') && !(await genders()).includes('Male'))
      .toBe(true);
    // Clear Filters goes back to the preselected body.
    await bar(page).getByRole('button', { name: 'Clear Filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('filter') === '{"gender":"male"}');
    expect(await gender.innerText()).toMatch(/^Male/);
    await page.context().close();
  });
});

describe('the filter bar at 390 px', () => {
  it('fits the screen, and All Filters shows every field with "Any"', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`, ADMIN, {
      width: 390,
      height: 844,
    });
    await page.locator(ROWS).first().waitFor();
    const right = await bar(page).evaluate((el) => el.getBoundingClientRect().right);
    expect(right).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await page.getByRole('button', { name: 'All Filters' }).click();
    const dialog = page.getByRole('dialog', { name: 'All Filters' });
    // Every field in the overlay has its icon too.
    const drawn = await icons(page, dialog);
    expect(drawn.map((icon) => icon.label)).toEqual(ASSET_FILTERS);
    for (const icon of drawn) expect(Math.min(...icon.size), icon.label).toBeGreaterThanOrEqual(12);
    for (const field of ['Application', 'Tags']) {
      expect(await dialog.getByRole('combobox', { name: field }).getAttribute('placeholder')).toBe(
        'Any',
      );
    }
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A select the phone shows in the bar (the cage meshes' body) is 140 to 200 px wide too.
    await page.goto(`${app.server.url}/cage-meshes`);
    await page.locator(ROWS).first().waitFor();
    const gender = await bar(page)
      .locator('.filter', { has: page.getByRole('button', { name: /Gender/ }) })
      .evaluate((element) => element.getBoundingClientRect().width);
    expect(gender).toBeGreaterThanOrEqual(140);
    expect(gender).toBeLessThanOrEqual(200);
    await page.context().close();
  });
});

/**
 * Finding one's way: the sidebar (its groups in one column at 1280 px, the current place
 * marked, collapsed to icons and remembered after a reload), the phone's Menu as a modal drawer
 * (focus kept inside, Escape closes it and focus returns to Menu; taller than a short screen, it
 * scrolls to Sign out), Ctrl+K finding a record by its name and opening it, and `?` listing the
 * shortcuts; axe-clean in both schemes.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInAt, signedInPage } from '../helpers/app';
import { seriousViolationsInBothSchemes } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();

const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const ROW_LINKS = '[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"] a';

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** Serious axe findings in both schemes, with a picture of each scheme as `name-<scheme>`. */
const problems = (page: Page, name: string) =>
  seriousViolationsInBothSchemes(page, (scheme) => shot(page, `${name}-${scheme}`));

const boxes = (links: Locator) =>
  links.evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return { x: box.x, top: box.top, bottom: box.bottom, height: box.height };
    }),
  );

describe('the sidebar at 1280 px', () => {
  it('shows its groups in one column, marks the current place, and stays collapsed after a reload', async () => {
    const page = await signedInPage(app, undefined, WIDE);
    const nav = mainNav(page);
    const headings = nav.getByRole('heading');
    expect(await headings.evaluateAll((elements) => elements.map((h) => h.textContent))).toEqual([
      'Catalogue',
      'People',
      'System',
    ]);
    // One column, one line a link, every link on screen without scrolling.
    const links = nav.getByRole('link');
    const placed = await boxes(links);
    expect(placed).toHaveLength(13);
    expect(new Set(placed.map((box) => box.x)).size).toBe(1);
    for (const [index, box] of placed.entries()) {
      expect(box.height).toBeLessThan(44);
      expect(box.bottom).toBeLessThanOrEqual(WIDE.height);
      if (index > 0) expect(box.top).toBeGreaterThanOrEqual(placed[index - 1]!.bottom);
    }
    const dashboard = nav.getByRole('link', { name: 'Dashboard' });
    expect(await dashboard.getAttribute('aria-current')).toBe('page');

    // An asset's page is a place under Assets: Assets is the current link, with its bar.
    const assets = nav.getByRole('link', { name: 'Assets', exact: true });
    await assets.click();
    await page.locator(ROW_LINKS).first().click();
    await page.getByRole('heading', { name: /^Asset / }).waitFor();
    expect(await assets.getAttribute('aria-current')).toBe('page');
    expect(await nav.locator('[aria-current="page"]').count()).toBe(1);
    const marker = await assets.evaluate((link) => getComputedStyle(link, '::before').width);
    expect(marker).toBe('3px');
    await page.goto(`${app.server.url}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await problems(page, 'nav-1280-open')).toEqual([]);

    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    const narrow = async () => (await page.locator('.app-sidebar').boundingBox())!.width;
    expect(await narrow()).toBeLessThan(80);
    // The icons keep their names for screen readers, and say them on hover.
    await nav.getByRole('link', { name: 'Morph queue' }).waitFor();
    expect(
      await nav.getByRole('link', { name: 'Morph queue' }).locator('..').getAttribute('title'),
    ).toBe('Morph queue');
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Expand navigation' }).waitFor();
    expect(await narrow()).toBeLessThan(80);
    expect(await problems(page, 'nav-1280-collapsed')).toEqual([]);

    await page.getByRole('button', { name: 'Expand navigation' }).click();
    expect(await narrow()).toBeGreaterThan(200);
    await page.context().close();
  });
});

describe('the menu at 390 px', () => {
  it('opens the navigation as a modal drawer: focus stays inside, Escape closes it and returns focus to Menu', async () => {
    const page = await signedInPage(app, undefined, PHONE);
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    expect(await mainNav(page).count()).toBe(0);
    await menu.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await drawer.waitFor();
    await mainNav(page).getByRole('link', { name: 'Assets', exact: true }).waitFor();
    expect(await problems(page, 'nav-390-menu')).toEqual([]);

    const inDrawer = () =>
      page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    expect(await inDrawer()).toBe(true);
    for (let press = 0; press < 25; press += 1) {
      await page.keyboard.press(press % 5 === 4 ? 'Shift+Tab' : 'Tab');
      expect(await inDrawer()).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
    // React Aria gives the focus back in a frame after the drawer has gone.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');

    // A link in it leads there and closes it.
    await menu.click();
    await mainNav(page).getByRole('link', { name: 'Tags' }).click();
    await page.getByRole('heading', { name: 'Tags' }).waitFor();
    await expect.poll(() => drawer.count()).toBe(0);
    await page.context().close();
  });

  it('scrolls a menu taller than the screen, so Sign out is reached by scrolling it', async () => {
    const short = { width: 390, height: 600 };
    const page = await signedInPage(app, undefined, short);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await mainNav(page).getByRole('link', { name: 'Assets', exact: true }).waitFor();
    const signOut = drawer.getByRole('button', { name: 'Sign out' });
    /** Where Sign out ends, in the screen's pixels. */
    const bottom = async () => {
      const box = await signOut.boundingBox();
      return box ? box.y + box.height : Infinity;
    };
    await shot(page, 'nav-390x600-menu');
    // Below the fold at first: the menu is taller than the screen.
    expect(await bottom()).toBeGreaterThan(short.height);
    const box = await drawer.boundingBox();
    await page.mouse.move((box?.x ?? 0) + 40, 300);
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, 400);
        return bottom();
      })
      .toBeLessThanOrEqual(short.height);
    await shot(page, 'nav-390x600-menu-scrolled');
    await page.context().close();
  });
});

describe('the keyboard', () => {
  it('Ctrl+K finds an asset by its name and Enter opens it; `?` lists the shortcuts', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`, undefined, WIDE);
    const first = page.locator(ROW_LINKS).first();
    const name = (await first.innerText()).trim();
    const href = (await first.getAttribute('href')) ?? '';
    await page.goto(`${app.server.url}/`);
    // The app's heading (in #main), not the one the server draws before the scripts run.
    await page.locator('#main').getByRole('heading', { name: 'Dashboard' }).waitFor();

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Commands' });
    const field = palette.getByRole('searchbox');
    // The palette loads on its first Ctrl+K: typing goes to its field once that has focus.
    await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type(name);
    const found = palette.getByRole('group', { name: 'Assets' }).getByRole('menuitem', { name });
    await found.first().waitFor();
    expect(await problems(page, 'palette-records')).toEqual([]);
    // Down to the record (screens and actions the letters match come first), then Enter.
    const target = await found.first().getAttribute('id');
    for (let press = 0; press < 20; press += 1) {
      if ((await found.first().getAttribute('data-focused')) === 'true') break;
      await page.keyboard.press('ArrowDown');
    }
    // The field tells screen readers too: React Aria does so half a second after a letter is
    // typed, so that the letter is announced first.
    await expect.poll(() => field.getAttribute('aria-activedescendant')).toBe(target);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === href);
    await page.getByRole('heading', { name: /^Asset / }).waitFor();

    await page.locator('body').click({ position: { x: 5, y: 790 } });
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.getByRole('term').allInnerTexts()).toEqual(
      expect.arrayContaining(['Ctrl+K', '?', '/', 'j', 'k', 'Enter', 'Ctrl+S']),
    );
    expect(await problems(page, 'shortcuts')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);
    await page.context().close();
  });
});

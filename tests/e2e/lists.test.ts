import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, signedInAt, signedInPage } from '../helpers/app';
import { shot } from '../helpers/shots';

declare global {
  interface Window {
    /** Set by the touch-drag test: reports each pointerdown's pointer type. */
    recordPointer: (type: string) => Promise<void>;
  }
}

/** What DevTools reports of an intercepted drag (Protocol.Input.DragData). */
interface DragData {
  items: { mimeType: string; data: string }[];
  dragOperationsMask: number;
}

const app = appUnderTest();

/** A fresh profile signed in as the seeded admin. */
const adminPage = (viewport?: { width: number; height: number }) =>
  signedInPage(app, undefined, viewport);
/** As `adminPage`, opened at `url` rather than the dashboard. */
const adminAt = (url: string, viewport?: { width: number; height: number }) =>
  signedInAt(app, url, undefined, viewport);

const grid = (page: Page) => page.getByRole('grid');
const ROW_HEADERS = '[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"]';
/** The text of the first cell (the row header) of each loaded body row. */
const names = (page: Page) => page.locator(ROW_HEADERS).allInnerTexts();
const search = (page: Page) => new URL(page.url()).searchParams;

/** Waits until the list state in the address satisfies `check` (history updates, no loads). */
async function waitForSearch(page: Page, check: (params: URLSearchParams) => boolean) {
  const deadline = Date.now() + 15_000;
  while (!check(search(page))) {
    if (Date.now() > deadline) throw new Error(`the address never matched: ${page.url()}`);
    await page.waitForTimeout(50);
  }
}

/** Waits for `count` loaded rows (any, without it); skeleton rows do not count. */
async function waitForRows(page: Page, count?: number) {
  await page.waitForFunction((n) => {
    const rows = document.querySelectorAll(
      '[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"]',
    );
    return n === undefined ? rows.length > 0 : rows.length === n;
  }, count);
}

/** The Position column's numbers of the first `count` loaded rows, as shown. */
async function positions(page: Page, count: number): Promise<string[]> {
  const column = await page
    .getByRole('columnheader')
    .evaluateAll((headers) => headers.findIndex((h) => h.textContent?.includes('Position')));
  expect(column).toBeGreaterThanOrEqual(0);
  const shown = await page
    .locator('[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])')
    .evaluateAll(
      (rows, index) => rows.map((row) => row.children[index]?.textContent?.trim() ?? ''),
      column,
    );
  return shown.slice(0, count);
}

/**
 * Holds the server's answers to requests matching `url` (a glob) until `release()`, so what the
 * page shows meanwhile is its own doing. `sent` settles when the first such request leaves;
 * `release()` settles once the answer it lets through has reached the page.
 */
async function holdAnswers(page: Page, url: string) {
  let open = () => {};
  const released = new Promise<void>((resolve) => (open = resolve));
  let markSent = () => {};
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  await page.route(url, async (route) => {
    markSent();
    await released;
    await route.fallback();
  });
  const release = async () => {
    const answer = page.waitForResponse(url);
    open();
    await answer;
  };
  return { sent, release };
}

describe('the assets list', () => {
  it('filters, sorts and pages, and reload and back restore it exactly', async () => {
    const page = await adminAt(`${app.server.url}/assets`);
    await waitForRows(page, 10);
    await page.getByText('300 items').waitFor();

    // Sort: an unsorted column starts descending, a second press flips it.
    await page.getByRole('columnheader', { name: /Name/ }).click();
    await waitForSearch(page, (p) => p.get('order') === '-name');
    await expect
      .poll(() => page.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort'))
      .toBe('descending');
    const sortedDescending = async () => {
      const shown = await names(page);
      return shown.length === 10 && shown.join('|') === [...shown].sort().reverse().join('|');
    };
    await expect.poll(sortedDescending).toBe(true);

    // Filter by type: the page resets to 1 and the filter lands in the address.
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('button', { name: 'Page 2' })
      .click();
    await waitForSearch(page, (p) => p.get('page') === '2');
    await page.getByRole('search').getByRole('button', { name: /Type/ }).click();
    await page.getByRole('option', { name: 'Hair' }).click();
    await page.keyboard.press('Escape');
    await waitForSearch(page, (p) => p.get('filter') === '{"type":["hair"]}');
    expect(search(page).get('page')).toBe('1');
    await page.getByText('40 items').waitFor();
    const hairPage1 = await names(page);

    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('button', { name: 'Next' })
      .click();
    await waitForSearch(page, (p) => p.get('page') === '2');
    // Skeleton rows stand in while page 2 loads: wait for its first loaded row.
    await page.waitForFunction((first) => {
      const header = document.querySelector('[role="row"]:not(.skeleton-row) [role="rowheader"]');
      return header !== null && header.textContent !== first;
    }, hairPage1[0]);
    const hairPage2 = await names(page);
    expect(hairPage2).not.toEqual(hairPage1);

    await page.reload();
    await waitForRows(page);
    await page.getByText('40 items').waitFor();
    expect(await names(page)).toEqual(hairPage2);
    await expect
      .poll(() => page.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current'))
      .toBe('page');

    // Back returns to page 1 of the same filtered, sorted list.
    await page.goBack();
    await waitForSearch(page, (p) => p.get('page') === '1');
    await expect.poll(() => names(page)).toEqual(hairPage1);
    await page.close();
  });

  it('moves a row to the top from its row menu, renumbering the Position column at once, also from another page', async () => {
    const page = await adminAt(`${app.server.url}/assets`);
    await page.getByText('300 items').waitFor();
    await waitForRows(page, 10);
    expect(await positions(page, 4)).toEqual(['1', '2', '3', '4']);
    const before = (await names(page)).slice(0, 4);
    const expected = [before[3], before[0], before[1], before[2]];
    // The server's answer waits: the new order and its numbers are the page's own, at once.
    const held = await holdAnswers(page, '**/v1/assets/*/position');
    await page
      .locator('[role="grid"] [role="row"]:has([role="rowheader"])')
      .nth(3)
      .getByRole('button', { name: `Actions: ${before[3]}` })
      .click();
    await page.getByRole('menuitem', { name: 'Move' }).click();
    await page.getByRole('menuitem', { name: 'Move to top' }).click();
    await held.sent;
    await expect.poll(async () => (await names(page)).slice(0, 4)).toEqual(expected);
    expect(await positions(page, 4)).toEqual(['1', '2', '3', '4']);
    // Answered, and read again: the same order, the same numbers.
    await held.release();
    expect((await names(page)).slice(0, 4)).toEqual(expected);
    expect(await positions(page, 4)).toEqual(['1', '2', '3', '4']);
    await page.reload();
    await waitForRows(page, 10);
    expect((await names(page)).slice(0, 4)).toEqual(expected);
    expect(await positions(page, 4)).toEqual(['1', '2', '3', '4']);

    // From another page: the row leaves it, and page 1 starts with it.
    await page.goto(`${app.server.url}/assets?page=3`);
    await page.getByText('300 items').waitFor();
    await waitForRows(page, 10);
    const [name] = await names(page);
    expect(name).toBeTruthy();
    await page
      .getByRole('button', { name: `Actions: ${name}` })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Move' }).click();
    await page.getByRole('menuitem', { name: 'Move to top' }).click();
    await expect.poll(async () => (await names(page)).includes(name!)).toBe(false);
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('button', { name: 'Page 1' })
      .click();
    await waitForSearch(page, (p) => p.get('page') === '1');
    await expect.poll(async () => (await names(page))[0]).toBe(name);
    await page.close();
  });
});

describe('reordering an application by drag and drop', () => {
  async function openApplication(page: Page, index: number) {
    await page.goto(`${app.server.url}/applications`);
    await waitForRows(page);
    await grid(page).getByRole('link').nth(index).click();
    await page.getByRole('heading', { name: /^Assets of / }).waitFor();
    await page.getByText(/^\d+ items$/).waitFor();
    await expect.poll(async () => (await names(page)).length).toBeGreaterThan(3);
  }

  /**
   * Moves row `from` to just after row `to` with the keyboard, as a keyboard user would: Enter
   * on the row's drag handle, arrows to the drop position ("Insert between …"), Enter to drop.
   */
  async function dragWithKeyboard(page: Page, from: number, to: number) {
    const rows = await names(page);
    const handle = `Drag to reorder ${rows[from]}`;
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    // Focus lands on the row; the right arrow moves into its first cell, the drag handle. On a
    // loaded machine the first attempt can land before the grid is ready for it: try again.
    for (let attempt = 0; attempt < 5 && (await focused()) !== handle; attempt++) {
      await page.getByRole('button', { name: handle }).focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(200 * attempt);
    }
    expect(await focused()).toBe(handle);
    await page.keyboard.press('Enter');
    await expect.poll(focused).toMatch(/^Insert/);
    const target = `${rows[to]} and ${rows[to + 1]}`;
    for (let i = 0; i < 12 && !(await focused()).includes(target); i++) {
      await page.keyboard.press('ArrowDown');
    }
    expect(await focused()).toContain(target);
    await page.keyboard.press('Enter');
  }

  /** The centre of row `from`'s drag handle and a point in the lower part of row `to`. */
  async function dragPoints(page: Page, from: number, to: number) {
    const handles = page.locator('.drag-handle');
    const start = (await handles.nth(from).boundingBox())!;
    const target = (await page
      .locator('[role="grid"] [role="row"]')
      .nth(to + 1)
      .boundingBox())!;
    return {
      x: start.x + start.width / 2,
      y: start.y + start.height / 2,
      toY: target.y + target.height * 0.75,
    };
  }

  /** Moves row `from` to just after row `to` with the mouse: press on the handle, move, release. */
  async function dragWithMouse(page: Page, from: number, to: number) {
    const { x, y, toY } = await dragPoints(page, from, to);
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(x, y + ((toY - y) * i) / 10);
    await page.mouse.up();
  }

  /**
   * Moves row `from` to just after row `to` with a finger. Chromium's touch emulation turns the
   * press into touch events and runs its gesture detector, so holding the finger on the handle
   * is a real long press and Blink starts its touch drag (the page sees pointerType "touch").
   * Headless Chromium has no system drag loop to carry the drag: DevTools intercepts it and the
   * test moves and drops it with drag events, as Playwright does for mouse drags.
   */
  async function dragWithTouch(page: Page, from: number, to: number) {
    const { x, y, toY } = await dragPoints(page, from, to);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    await cdp.send('Emulation.setEmitTouchEventsForMouse', {
      enabled: true,
      configuration: 'mobile',
    });
    await cdp.send('Input.setInterceptDrags', { enabled: true });
    const touches: string[] = [];
    await page.exposeFunction('recordPointer', (type: string) => touches.push(type));
    await page.evaluate(() =>
      document.addEventListener('pointerdown', (e) => void window.recordPointer(e.pointerType), {
        capture: true,
      }),
    );
    const intercepted = new Promise<DragData>((resolve, reject) => {
      cdp.once('Input.dragIntercepted', (event) => resolve(event.data));
      setTimeout(() => reject(new Error('the long press started no drag')), 10_000);
    });
    const finger = (type: 'mousePressed' | 'mouseReleased', atY: number) =>
      cdp.send('Input.dispatchMouseEvent', { type, x, y: atY, button: 'left', clickCount: 1 });
    // While DevTools holds the drag, the press and the release are never acknowledged: neither
    // is awaited (the page answering afterwards shows the input was taken).
    void finger('mousePressed', y).catch(() => undefined);
    const data = await intercepted;
    expect(touches).toEqual(['touch']);
    await cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', x, y, data });
    for (let i = 1; i <= 10; i++) {
      await cdp.send('Input.dispatchDragEvent', {
        type: 'dragOver',
        x,
        y: y + ((toY - y) * i) / 10,
        data,
      });
    }
    await cdp.send('Input.dispatchDragEvent', { type: 'drop', x, y: toY, data });
    void finger('mouseReleased', toY).catch(() => undefined);
  }

  it.each([
    ['the keyboard', dragWithKeyboard],
    ['the mouse', dragWithMouse],
    ['touch', dragWithTouch],
  ])('moves a row with %s at once and keeps the new order after a reload', async (_, drag) => {
    const page = await adminPage();
    await openApplication(page, 0);
    const before = await names(page);
    expect(await positions(page, 4)).toEqual(['1', '2', '3', '4']);
    // The server's answer waits: the new order and its numbers are the page's own, at once.
    const held = await holdAnswers(page, '**/v1/application-assets/*/position');
    await drag(page, 0, 3);
    const expected = [before[1], before[2], before[3], before[0], ...before.slice(4)];
    await held.sent;
    await expect.poll(() => names(page)).toEqual(expected);
    expect(await positions(page, 4)).toEqual(['1', '2', '3', '4']);
    await held.release();
    expect(await names(page)).toEqual(expected);
    expect(await positions(page, 4)).toEqual(['1', '2', '3', '4']);
    await page.reload();
    await waitForRows(page);
    await expect.poll(() => names(page)).toEqual(expected);
    expect(await positions(page, 4)).toEqual(['1', '2', '3', '4']);
    await page.close();
  });
  // A move the server refuses is put back and said: src/machines/list.view.test.tsx.
});

describe('the morph queue (infinite scroll)', () => {
  it('loads the next page as the end of the list scrolls into view, one request per page', async () => {
    const page = await adminPage();
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/morphed-asset-queue?')) requests.push(request.url());
    });
    await page.goto(`${app.server.url}/morph-queue`);
    await waitForRows(page, 20);
    expect(search(page).get('page')).toBeNull();
    await page.locator(ROW_HEADERS).last().scrollIntoViewIfNeeded();
    await waitForRows(page, 40);
    const pages = requests.map((url) => new URL(url).searchParams.get('page'));
    expect(pages).toEqual(['1', '2']);
    expect(search(page).get('page')).toBeNull();
    await page.close();
  });
});

/** Whether two boxes overlap. */
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * What a phone user sees of each loaded row: the left and right edge of its name and of its
 * row-action menu button, whether the name shows whole, and how its values line up.
 */
const phoneRows = (page: Page) =>
  page
    .locator('[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const header = row.querySelector('[role="rowheader"]')!;
        const name = header.getBoundingClientRect();
        const menu = row.querySelector('button[aria-label^="Actions: "]')?.getBoundingClientRect();
        return {
          name: header.textContent?.trim() ?? '',
          nameEdges: [Math.round(name.left), Math.round(name.right)],
          nameWhole: header.scrollWidth <= header.clientWidth,
          menuEdges: menu ? [Math.round(menu.left), Math.round(menu.right)] : null,
          // How each labelled value ("Type: Outfit", "Position: 1") lines up in the card.
          valueAligns: Array.from(
            row.querySelectorAll<HTMLElement>('[role="gridcell"][data-label]:not([data-label=""])'),
          ).map((cell) => getComputedStyle(cell).textAlign),
        };
      }),
    );

describe('lists on a phone (390 px)', () => {
  it('shows each row as a card with its name and menu on screen, says what an action did above the Menu, and filters in an overlay', async () => {
    const page = await adminPage({ width: 390, height: 844 });
    for (const path of ['/tags', '/applications', '/assets']) {
      await page.goto(`${app.server.url}${path}`);
      await waitForRows(page);
      const rows = await phoneRows(page);
      expect(rows.length, path).toBeGreaterThan(3);
      for (const row of rows) {
        // The name and the row's menu are on screen, not scrolled away to the right.
        expect(row.nameEdges[0], `${path} ${row.name}`).toBeGreaterThanOrEqual(0);
        expect(row.nameEdges[1], `${path} ${row.name}`).toBeLessThanOrEqual(390);
        expect(row.nameWhole, `${path} ${row.name}`).toBe(true);
        expect(row.menuEdges, `${path} ${row.name}`).not.toBeNull();
        expect(row.menuEdges![0], `${path} ${row.name}`).toBeGreaterThanOrEqual(0);
        expect(row.menuEdges![1], `${path} ${row.name}`).toBeLessThanOrEqual(390);
        // Each value under the name starts at the left, numbers too: no ragged card.
        for (const align of row.valueAligns) expect(align, `${path} ${row.name}`).toBe('left');
      }
      // Nothing scrolls sideways: not the page, not the list's box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBe(390);
      expect(
        await page
          .locator('.data-table-container')
          .evaluate((box) => box.scrollWidth <= box.clientWidth),
        path,
      ).toBe(true);
    }

    // A toast shows inside the screen, clear of the Menu button, and its Undo works.
    const unlocked = page
      .locator('[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])')
      .filter({ hasText: 'Unlocked' })
      .first();
    const first = (await unlocked.getByRole('rowheader').innerText()).trim();
    await unlocked.getByRole('button', { name: /^Actions: / }).click();
    await page.getByRole('menuitem', { name: 'Lock' }).click();
    const toast = page
      .getByRole('region', { name: 'Notifications' })
      .locator('.toast')
      .filter({ hasText: `${first} locked` })
      .last();
    await toast.waitFor();
    const toastBox = (await toast.boundingBox())!;
    expect(toastBox.x).toBeGreaterThanOrEqual(0);
    expect(toastBox.x + toastBox.width).toBeLessThanOrEqual(390);
    expect(toastBox.y).toBeGreaterThanOrEqual(0);
    expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(844);
    const menuBox = (await page.getByRole('button', { name: 'Menu' }).boundingBox())!;
    expect(overlaps(toastBox, menuBox)).toBe(false);
    await toast.getByRole('button', { name: 'Undo' }).click();
    const undone = page
      .getByRole('region', { name: 'Notifications' })
      .locator('.toast')
      .filter({ hasText: `${first} unlocked` });
    await undone.waitFor();
    // Dismissed, as a user would: on a phone it covers the All Filters overlay's buttons.
    await undone.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => undone.count()).toBe(0);

    // Only the mobile filters in the bar; the overlay applies on Apply and discards on Cancel.
    expect(await page.getByRole('search').getByRole('button', { name: /Type/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'All Filters' }).click();
    const dialog = page.getByRole('dialog', { name: 'All Filters' });
    await dialog.getByRole('searchbox', { name: 'Search' }).fill('Festival');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(search(page).get('filter')).toBeNull();

    await page.getByRole('button', { name: 'All Filters' }).click();
    await dialog.getByRole('searchbox', { name: 'Search' }).fill('Festival');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await waitForSearch(page, (p) => p.get('filter') === '{"search":"Festival"}');
    await expect
      .poll(async () => (await names(page)).every((n) => n.includes('Festival')))
      .toBe(true);
    await shot(page, 'phone-assets');
    await page.close();
  });
});

/**
 * Knowing where one is in the back office: a phone header that shows the live state and the
 * account whole, an "All Filters" count of what the user set (not what the list preselects),
 * a tab title on every screen, breadcrumbs on the detail screens, and a clear "not found" page
 * for an unknown id (Retry only where trying again may help), or "not available" for a role
 * that may not read the record.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  appUnderTest,
  blankPage,
  guestPage,
  signedInPage,
  signedInAt,
  guestAt,
  ADMIN,
} from '../helpers/app';

const app = appUnderTest();

const PHONE = { width: 390, height: 844 };
const UNKNOWN_ID = '000000000000000000000000';
const ROW_LINKS = '[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"] a';

/** Whether an element's content fits its box (nothing cut off with an ellipsis). */
const fitsItsBox = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight);

/** Whether the element lies wholly inside the 390 px wide viewport. */
async function insideViewport(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width && box.width > 0;
}

/** The first cage mesh's id and name, from the list's first row link. */
async function firstCageMesh(page: Page) {
  await page.goto(`${app.server.url}/cage-meshes`);
  const link = page.locator(ROW_LINKS).first();
  await link.waitFor();
  const href = (await link.getAttribute('href')) ?? '';
  return { id: href.split('/').pop() ?? '', name: (await link.innerText()).trim() };
}

describe('the header at 390 px', () => {
  it('shows the live state as a named dot, and in words with the signed-in e-mail whole in the menu', async () => {
    const page = await signedInPage(app, undefined, PHONE);
    const live = page.locator('.header-status .live-indicator');
    await page.locator('.header-status .live-indicator[data-status="connected"]').waitFor();
    // A dot beside Menu, named "Live" for screen readers and as a tooltip.
    expect(await live.getAttribute('title')).toBe('Live');
    expect((await live.textContent())?.trim()).toBe('Live');
    expect(await insideViewport(page, '.header-status .live-indicator')).toBe(true);
    expect(await fitsItsBox(page, '.header-status .live-indicator')).toBe(true);
    const dot = await page.locator('.live-dot').boundingBox();
    const menu = page.getByRole('button', { name: 'Menu' });
    const menuBox = await menu.boundingBox();
    expect(dot!.width).toBeGreaterThanOrEqual(8);
    expect(dot!.y).toBeGreaterThan(menuBox!.y);
    expect(dot!.y + dot!.height).toBeLessThan(menuBox!.y + menuBox!.height);

    // The account is in the menu, each line whole; the menu says the live state in words (a
    // tooltip does not open on touch), announced once (by the dot's status, not again here).
    const who = page.getByText('Signed in as admin@avatar.studio', { exact: true });
    const account = page.locator('#app-account');
    expect(await who.isVisible()).toBe(false);
    expect(await account.getByText('Live', { exact: true }).count()).toBe(0);
    await menu.click();
    await who.waitFor();
    const word = account.getByText('Live', { exact: true });
    await word.waitFor();
    const wordBox = (await word.boundingBox())!;
    expect(wordBox.width).toBeGreaterThan(10);
    expect(wordBox.x + wordBox.width).toBeLessThanOrEqual(PHONE.width);
    expect(wordBox.y).toBeGreaterThan(menuBox!.y + menuBox!.height);
    expect(await page.getByRole('status').filter({ hasText: 'Live' }).count()).toBe(1);
    expect(await insideViewport(page, '.account-who')).toBe(true);
    expect(await fitsItsBox(page, '.account-who')).toBe(true);
    expect(await page.getByLabel('Colour scheme').isVisible()).toBe(true);
    expect(await insideViewport(page, '.account button')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
    await page.context().close();
  });

  it("offers a guest's Create an account in the menu", async () => {
    const page = await guestPage(app, PHONE);
    await page.getByRole('button', { name: 'Menu' }).click();
    const create = page.getByRole('link', { name: 'Create an account' });
    await create.waitFor();
    expect(await insideViewport(page, '.account-who')).toBe(true);
    expect(await fitsItsBox(page, '.account-who')).toBe(true);
    await create.click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.context().close();
  });
});

describe('All Filters at 390 px', () => {
  it("clears the filters the user set, not the list's preselected body", async () => {
    const page = await signedInAt(app, `${app.server.url}/cage-meshes`, ADMIN, PHONE);
    await page.waitForURL((url) => url.searchParams.get('filter') === '{"gender":"male"}');
    await page.locator(ROW_LINKS).first().waitFor();
    // Search and Body both show on a phone: no All Filters (its dialog would only repeat them).
    expect(await page.getByRole('button', { name: /^All Filters/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Clear Filters' }).count()).toBe(0);

    await page.getByRole('searchbox', { name: 'Search' }).fill('a');
    await page.waitForURL((url) => (url.searchParams.get('filter') ?? '').includes('"search"'));
    // Clear takes away what the user set, and only that.
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('filter') === '{"gender":"male"}');
    await expect.poll(() => page.getByRole('button', { name: 'Clear Filters' }).count()).toBe(0);
    await page.context().close();
  });

  it('is offered where the phone hides filters (assets), and not on search-only lists', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`, ADMIN, PHONE);
    await page.locator(ROW_LINKS).first().waitFor();
    expect(await page.getByRole('button', { name: /^All Filters/ }).count()).toBe(1);
    await page.goto(`${app.server.url}/tags`);
    await page.getByRole('searchbox', { name: 'Search' }).waitFor();
    expect(await page.getByRole('button', { name: /^All Filters/ }).count()).toBe(0);
    await page.context().close();
  });
});

describe('the tab title', () => {
  it('names every screen, signed out and signed in, found or not', async () => {
    const anonymous = await blankPage(app);
    const signedOut: [string, string][] = [
      ['/signin', 'Sign in · Avatar Studio'],
      ['/signup', 'Create an account · Avatar Studio'],
      ['/forgot-password', 'Reset your password · Avatar Studio'],
      ['/passwordless', 'Sign in with a code · Avatar Studio'],
      [
        '/verify-email?verificationId=x&email=ada@example.test',
        'Verify your e-mail address · Avatar Studio',
      ],
      ['/no/such/page', 'Page not found · Avatar Studio'],
    ];
    for (const [path, title] of signedOut) {
      await anonymous.goto(`${app.server.url}${path}`);
      await expect.poll(() => anonymous.title(), { message: path }).toBe(title);
    }
    await anonymous.context().close();

    const page = await signedInPage(app);
    const signedIn: [string, string][] = [
      ['/assets/new', 'New asset · Assets · Avatar Studio'],
      ['/cage-meshes/new', 'New cage mesh · Cage meshes · Avatar Studio'],
      [`/assets/${UNKNOWN_ID}`, 'Asset not found · Assets · Avatar Studio'],
      [`/cage-meshes/${UNKNOWN_ID}`, 'Cage mesh not found · Cage meshes · Avatar Studio'],
      [
        `/applications/${UNKNOWN_ID}/assets`,
        'Application not found · Applications · Avatar Studio',
      ],
      [`/users/${UNKNOWN_ID}/assets`, 'User not found · User assets · Avatar Studio'],
    ];
    for (const [path, title] of signedIn) {
      await page.goto(`${app.server.url}${path}`);
      await expect.poll(() => page.title(), { message: path }).toBe(title);
    }
    await page.context().close();
  });
});

describe('breadcrumbs', () => {
  it('lead from the asset page back to its list, the page itself marked current', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets`);
    const first = page.locator(ROW_LINKS).first();
    await first.waitFor();
    const name = (await first.innerText()).trim();
    await first.click();
    await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();

    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb', exact: true });
    expect(await crumbs.getByRole('listitem').allInnerTexts()).toEqual(['Assets', name]);
    const current = crumbs.locator('[aria-current="page"]');
    expect(await current.innerText()).toBe(name);
    expect(await crumbs.locator('[aria-current]').count()).toBe(1);
    // The lone "Back to assets" link is gone: the breadcrumb does its job.
    expect(await page.getByRole('link', { name: 'Back to assets' }).count()).toBe(0);
    await crumbs.getByRole('link', { name: 'Assets', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/assets');
    await page.locator(ROW_LINKS).first().waitFor();

    // The new pages and the cage mesh page say where they are the same way.
    await page.goto(`${app.server.url}/assets/new`);
    await page.getByRole('heading', { name: 'New asset', level: 1 }).waitFor();
    expect(await crumbs.getByRole('listitem').allInnerTexts()).toEqual(['Assets', 'New asset']);
    const mesh = await firstCageMesh(page);
    await page.locator(ROW_LINKS).first().click();
    await page.getByRole('heading', { name: `Cage mesh ${mesh.name}` }).waitFor();
    expect(await crumbs.getByRole('listitem').allInnerTexts()).toEqual(['Cage meshes', mesh.name]);
    await page.context().close();
  });
});

describe('an id the server does not know', () => {
  for (const [kind, path, list, back] of [
    ['asset', 'assets', 'Asset', 'Back to assets'],
    ['cage mesh', 'cage-meshes', 'Cage mesh', 'Back to cage meshes'],
  ] as const) {
    it(`says the ${kind} is not found, without Retry, and leads back to the list`, async () => {
      const page = await signedInAt(app, `${app.server.url}/${path}/${UNKNOWN_ID}`);
      await page.getByRole('heading', { name: `${list} not found`, level: 1 }).waitFor();
      await page.getByText(`No ${kind} has this id.`, { exact: false }).waitFor();
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByRole('link', { name: back }).click();
      await page.waitForURL((url) => url.pathname === `/${path}`);
      await page.locator(ROW_LINKS).first().waitFor();
      await page.context().close();
    });
  }

  it('keeps Retry for a failure that may pass (the server answers 503, then works)', async () => {
    const page = await signedInPage(app);
    const mesh = await firstCageMesh(page);
    const read = (url: URL) => url.pathname === `/v1/cage-meshes/${mesh.id}`;
    await page.route(read, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'UNAVAILABLE', message: 'Down for maintenance' }),
      }),
    );
    await page.goto(`${app.server.url}/cage-meshes/${mesh.id}`);
    await page.getByRole('heading', { name: 'The cage mesh could not be loaded' }).waitFor();
    await page.getByRole('alert').getByText('Down for maintenance').waitFor();
    expect(await page.getByText('Cage mesh not found').count()).toBe(0);
    await expect
      .poll(() => page.title())
      .toBe('The cage mesh could not be loaded · Cage meshes · Avatar Studio');
    await page.unroute(read);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: `Cage mesh ${mesh.name}` }).waitFor();
    await page.context().close();
  });
});

describe('a cage mesh and a role that may not read cage meshes', () => {
  it('tells a guest the page is not available for their role', async () => {
    const admin = await signedInPage(app);
    const mesh = await firstCageMesh(admin);
    await admin.context().close();

    const page = await guestAt(app, `${app.server.url}/cage-meshes/${mesh.id}`);
    await page.getByRole('heading', { name: 'Not available for your role' }).waitFor();
    await expect.poll(() => page.title()).toBe('Not available for your role · Avatar Studio');
    expect(await page.getByText(mesh.name).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.context().close();
  });
});

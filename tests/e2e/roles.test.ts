/**
 * The back office as each role sees it: only what the role may do is offered, and a screen it
 * may not read says so instead of failing. The server stays the authority (server tests).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, blankPage } from '../helpers/app';
import { verifiedAccount } from '../helpers/accounts';

const app = appUnderTest();
const ADMIN = { email: 'admin@avatar.studio', password: 'avatar-studio-admin' };
const DEMO_USER = { email: 'demo@avatar.studio', password: 'avatar-studio-demo' };

/** How many times each page asked for the live event stream, counted from its first request. */
const streamRequests = new WeakMap<Page, { count: number }>();

async function signedIn(account: { email: string; password: string } | 'guest'): Promise<Page> {
  const page = await blankPage(app);
  const streams = { count: 0 };
  streamRequests.set(page, streams);
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/events') streams.count += 1;
  });
  await page.goto(`${app.server.url}/signin`);
  if (account === 'guest') {
    await page.getByRole('button', { name: 'Continue as guest' }).click();
  } else {
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return page;
}

const navLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();

/**
 * The links the phone's Menu shows at 390 px, each on screen; the navigation is folded until
 * Menu opens it. The page is back at 1280 px afterwards.
 */
async function phoneMenuLinks(page: Page): Promise<string[]> {
  await page.setViewportSize({ width: 390, height: 844 });
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect.poll(() => nav.isVisible()).toBe(false);
  await menu.click();
  await nav.waitFor();
  const links = await nav.getByRole('link').evaluateAll((elements) =>
    elements.map((link) => {
      const box = link.getBoundingClientRect();
      const onScreen = box.width > 0 && box.left >= 0 && box.right <= window.innerWidth;
      return onScreen ? (link.textContent?.trim() ?? '') : `${link.textContent} (off screen)`;
    }),
  );
  // The menu is a modal drawer: Escape closes it.
  await page.keyboard.press('Escape');
  await expect.poll(() => nav.isVisible()).toBe(false);
  await page.setViewportSize({ width: 1280, height: 800 });
  return links;
}

const BODY_ROWS = '[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])';

/** The buttons of the bulk bar that selecting the first row brings; the row is unselected after. */
async function bulkActions(page: Page): Promise<string[]> {
  const checkbox = page.locator(BODY_ROWS).first().locator('.checkbox');
  await checkbox.click();
  const bar = page.getByRole('toolbar', { name: '1 selected' });
  await bar.waitFor();
  const buttons = await bar.getByRole('button').allInnerTexts();
  await checkbox.click();
  await expect.poll(() => bar.count()).toBe(0);
  // Named actions only, not the tag picker's ▾.
  return buttons.map((text) => text.trim()).filter((text) => /\w/.test(text));
}

/** Row checkboxes in the list: none for a role that can change nothing in bulk. */
const rowCheckboxes = (page: Page) => page.getByRole('grid').getByRole('checkbox').count();

async function openAssets(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Assets', exact: true })
    .click();
  await page
    .locator('[role="grid"] [role="row"]:not(.skeleton-row) [role="rowheader"]')
    .first()
    .waitFor();
}

async function firstRowMenu(page: Page): Promise<string[]> {
  await page
    .getByRole('button', { name: /^Actions: / })
    .first()
    .click();
  const items = await page.getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  return items.map((item) => item.trim());
}

async function expectNotAvailable(page: Page, path: string) {
  await page.goto(`${app.server.url}${path}`);
  await page.getByRole('heading', { name: 'Not available for your role' }).waitFor();
}

/** The catalogue's screens, which every role that may read everything has. */
const CATALOGUE = [
  'Dashboard',
  'Assets',
  'Applications',
  'Morph queue',
  'Morphed assets',
  'Cage meshes',
  'Tags',
];
/** A developer's: the catalogue, the users (read only) and the activity log. */
const EVERY_SCREEN = [...CATALOGUE, 'Users', 'My assets', 'Activity'];
/**
 * An admin's: also the invitations, the Trash (whoever may delete may restore) and everyone's
 * bulk jobs.
 */
const ADMIN_SCREENS = [
  ...CATALOGUE,
  'Users',
  'Invitations',
  'My assets',
  'Trash',
  'Activity',
  'Bulk jobs',
];

describe('what each role is offered', () => {
  it('admin: every screen, New, row actions including Delete', async () => {
    const page = await signedIn(ADMIN);
    expect(await navLinks(page)).toEqual(ADMIN_SCREENS);
    expect(await phoneMenuLinks(page)).toEqual(ADMIN_SCREENS);
    await openAssets(page);
    await page.getByRole('link', { name: 'New asset' }).waitFor();
    expect(await firstRowMenu(page)).toEqual(expect.arrayContaining(['Lock', 'Delete']));
    expect(await bulkActions(page)).toEqual(['Lock', 'Unlock', 'Add tag', 'Remove tag', 'Delete']);
    await page.context().close();
  });

  it('developer: curates the catalogue but deletes nothing', async () => {
    const page = await signedIn(await verifiedAccount(app.server.url, 'developer'));
    expect(await navLinks(page)).toEqual(EVERY_SCREEN);
    expect(await phoneMenuLinks(page)).toEqual(EVERY_SCREEN);
    await openAssets(page);
    await page.getByRole('link', { name: 'New asset' }).waitFor();
    const menu = await firstRowMenu(page);
    expect(menu).toContain('Lock');
    expect(menu).not.toContain('Delete');
    // In bulk too: lock, unlock and tag, but no Delete.
    expect(await bulkActions(page)).toEqual(['Lock', 'Unlock', 'Add tag', 'Remove tag']);
    await page.locator('[role="grid"] [role="rowheader"] a').first().click();
    await page.getByRole('button', { name: 'Lock' }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.goto(`${app.server.url}/tags`);
    await page.getByRole('button', { name: 'Add' }).waitFor();
    expect(await firstRowMenu(page)).toEqual(['Rename']);
    await page.context().close();
  });

  it('user (the demo user): reads the catalogue, changes nothing, and is told what is not for them', async () => {
    const page = await signedIn(DEMO_USER);
    const screens = ['Dashboard', 'Assets', 'Cage meshes', 'Tags', 'My assets'];
    expect(await navLinks(page)).toEqual(screens);
    expect(await phoneMenuLinks(page)).toEqual(screens);
    await openAssets(page);
    expect(await page.getByRole('link', { name: 'New asset' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Actions: / }).count()).toBe(0);
    expect(await rowCheckboxes(page)).toBe(0);
    await page.locator('[role="grid"] [role="rowheader"] a').first().click();
    // The asset reads as text under a notice saying why, with no field to type in.
    await page
      .getByText('Read only: your role may look at assets but not change them', { exact: false })
      .waitFor();
    expect(await page.getByRole('main').getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Lock' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Changelog' }).count()).toBe(0);
    // A registered account's page keeps the live stream open.
    await expect.poll(() => streamRequests.get(page)?.count).toBeGreaterThan(0);
    await page.goto(`${app.server.url}/tags`);
    await page.locator('[role="grid"] [role="rowheader"]').first().waitFor();
    expect(await page.getByRole('button', { name: 'Add' }).count()).toBe(0);
    for (const path of [
      '/applications',
      '/morph-queue',
      '/assets/new',
      '/cage-meshes/new',
      '/users/invitations',
    ]) {
      await expectNotAvailable(page, path);
    }
    await page.context().close();
  });

  it('guest: browses assets and their own, nothing else', async () => {
    const page = await signedIn('guest');
    expect(await navLinks(page)).toEqual(['Dashboard', 'Assets', 'My assets']);
    expect(await phoneMenuLinks(page)).toEqual(['Dashboard', 'Assets', 'My assets']);
    await openAssets(page);
    expect(await page.getByRole('button', { name: /^Actions: / }).count()).toBe(0);
    expect(await rowCheckboxes(page)).toBe(0);
    for (const path of ['/tags', '/cage-meshes', '/applications']) {
      await expectNotAvailable(page, path);
    }
    // The server refuses guests the live stream; their pages, reloaded four times, never ask.
    expect(streamRequests.get(page)?.count).toBe(0);
    await page.context().close();
  });
});

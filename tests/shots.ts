// npm run screenshots [DIR]: every screen (account, lists, detail and new screens, "not
// available", not found, the viewer) and the states that change one (errors, the phone's menu,
// All Filters and sort menu, the page-size choice, open suggestions, the bulk bar and the
// selection it keeps, a toast, the save bar of a changed form, the command palette) at desktop
// and phone width, in the light and the dark scheme, for review.
import type { Page } from 'playwright-core';
import { launchBrowser, serveFixtures } from './helpers/browser';
import { startServer, waitForMail } from './helpers/server';
const out = process.argv[2] ?? '/tmp/shots';
const server = await startServer();
// WebGL on, so the viewers draw their models.
const b = await launchBrowser({ webgl: true });

const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

const SCHEMES = ['light', 'dark'] as const;

/** Writes `<width>-<scheme>-<name>.png`: the whole page, or (`fullPage` false) what is on screen. */
type Shot = (name: string, options?: { fullPage: boolean }) => Promise<unknown>;

/** Runs `take` once per viewport and colour scheme in a fresh profile. */
async function atEachWidth(take: (page: Page, shot: Shot, tag: string) => Promise<void>) {
  for (const [tag, viewport] of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      const ctx = await b.browser.newContext({ viewport, colorScheme: scheme });
      const page = await ctx.newPage();
      await take(
        page,
        (name, { fullPage } = { fullPage: true }) =>
          page.screenshot({ path: `${out}/${tag}-${scheme}-${name}.png`, fullPage }),
        `${tag}-${scheme}`,
      );
      await ctx.close();
    }
  }
}

const viewerReady = (page: Page) =>
  page.locator('[data-state="spawned"], [data-state="error"]').first().waitFor();

const ROW = '[role="grid"] [role="row"]:not(.skeleton-row)';

/** Waits for `ready`, then until nothing loads (skeleton rows, a busy region). */
async function settled(page: Page, ready = page.locator(`${ROW} [role="rowheader"]`)) {
  await ready.first().waitFor();
  for (;;) {
    const busy = '.skeleton-row, .react-aria-TableLoadingIndicator, [aria-busy="true"]';
    if ((await page.locator(busy).count()) === 0) return;
    await page.waitForTimeout(100);
  }
}

/** Closes the toasts on screen: they outlive their page, and the next screens show without. */
async function closeToasts(page: Page) {
  const close = page.locator('.toast-close');
  while ((await close.count()) > 0) await close.first().click();
}

/** Waits until the page's animations (a dialog's or a toast's entrance) have ended. */
const stillAnimations = (page: Page) =>
  page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));

try {
  await atEachWidth(async (page, shot, tag) => {
    // The screens load after the page: each shot waits for its form.
    const emailField = page.getByLabel('E-mail', { exact: true });
    const codeField = page.getByLabel('Code', { exact: true });
    await page.goto(`${server.url}/signin?reason=login_required`);
    await emailField.waitFor();
    await shot('signin');
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Confirm password').waitFor();
    await shot('signup');
    await page.getByLabel('E-mail').fill('bad');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('x');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Please fix the highlighted fields.').waitFor();
    await shot('signup-errors');
    await page.goto(`${server.url}/passwordless`);
    await emailField.waitFor();
    await shot('passwordless');
    await page.goto(`${server.url}/passwordless?email=ada@example.test`);
    await codeField.waitFor();
    await shot('passwordless-code');
    await page.goto(`${server.url}/forgot-password`);
    await emailField.waitFor();
    await shot('forgot');
    await page.goto(`${server.url}/verify-email?verificationId=x&email=ada@example.test`);
    await codeField.waitFor();
    await shot('verify');
    // Opened without the mail's link: asks for the address to send a code to.
    await page.goto(`${server.url}/verify-email`);
    await emailField.waitFor();
    await shot('verify-missing');
    await page.goto(`${server.url}/no/such/page`);
    await page.getByRole('heading', { name: /does not exist|not found/i }).waitFor();
    await shot('not-found');
    const email = `shot-${tag}@example.test`;
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('long enough pw');
    await page.getByLabel('Confirm password').fill('long enough pw');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/verify-email/);
    const mail = await waitForMail(server.url, email, 'verify');
    await codeField.fill(mail.code ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Total').waitFor();
    await shot('dashboard');
    // A new account has the role user, which may not manage applications.
    await page.goto(`${server.url}/applications`);
    await page.getByRole('heading', { name: 'Not available for your role' }).waitFor();
    await shot('not-available');
  });
  // Lists, asset and cage mesh editing, as the seeded admin.
  await atEachWidth(async (page, shot, tag) => {
    const phone = tag.startsWith('phone');
    await page.goto(`${server.url}/signin`);
    await page.getByLabel('E-mail').fill('admin@avatar.studio');
    await page.getByLabel('Password').fill('avatar-studio-admin');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Total').waitFor();
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    if (phone) {
      await menu.click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await shot('menu');
      // The open menu is a dialog: the page behind it, its button included, is inert.
      await page.keyboard.press('Escape');
      await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'hidden' });
    }
    await page.goto(`${server.url}/assets`);
    await settled(page);
    await shot('assets');
    if (phone) {
      await page.getByRole('button', { name: /^All Filters/ }).click();
      await page.getByRole('dialog').waitFor();
      await stillAnimations(page);
      // A full-screen overlay: what is on screen, not the page scrolled under it.
      await shot('assets-filters', { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    // The page-size choice, open.
    const listbox = page.getByRole('listbox');
    await page.getByRole('button', { name: /Rows per page/ }).click();
    await listbox.waitFor();
    await stillAnimations(page);
    await shot('assets-page-size', { fullPage: false });
    await page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'detached' });
    if (phone) {
      // The phone's sort menu, in place of the column headers.
      await page.getByRole('button', { name: /Sort by/ }).click();
      await listbox.waitFor();
      await stillAnimations(page);
      await shot('assets-sort-menu', { fullPage: false });
      await page.keyboard.press('Escape');
      await listbox.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: /^All Filters/ }).click();
    }
    // Suggestions opened with nothing typed (the filter bar, or All Filters on a phone),
    // scrolled to first: a scroll while the list opens closes it.
    const tags = page.locator('.filter-autocomplete', {
      has: page.getByRole('combobox', { name: 'Tags' }),
    });
    await tags.scrollIntoViewIfNeeded();
    await stillAnimations(page);
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await tags.getByRole('button', { name: 'Show suggestions' }).click();
    await listbox.getByRole('option').first().waitFor();
    await stillAnimations(page);
    await shot('assets-suggestions', { fullPage: false });
    await page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'detached' });
    if (phone) {
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    }
    // The command palette (Ctrl+K), open.
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Commands' });
    await palette.waitFor();
    await stillAnimations(page);
    await shot('command-palette', { fullPage: false });
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    // Two rows that no other step locks (the first asset gets locked for a screenshot).
    const dataRows = page.locator(ROW).filter({ has: page.getByRole('rowheader') });
    for (const nth of [1, 2]) await dataRows.nth(nth).locator('.checkbox').click();
    await page.getByRole('toolbar', { name: '2 selected' }).waitFor();
    await shot('assets-selected');
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await page.getByRole('toolbar').getByRole('button', { name: 'Lock', exact: true }).click();
    await toasts.getByText('2 assets locked').waitFor();
    await settled(page);
    await stillAnimations(page);
    await shot('toast');
    await toasts.getByRole('button', { name: 'Undo' }).click();
    await toasts.getByText('2 assets unlocked').waitFor();
    await closeToasts(page);
    // The rows stayed, so the selection did: the next bulk action needs no selecting again.
    await page.getByRole('toolbar', { name: '2 selected' }).waitFor();
    await shot('assets-selection-kept');
    // The editing screens open through the list's links (see tests/e2e/assets.test.ts).
    await page.getByRole('link', { name: 'New asset' }).click();
    await page.getByRole('button', { name: 'Create asset' }).waitFor();
    await shot('asset-new');
    await page.getByRole('button', { name: 'Create asset' }).click();
    await page.getByText('Please fix the highlighted fields.').waitFor();
    await shot('asset-new-errors');
    await page.goto(`${server.url}/assets`);
    await page.locator('[role="rowheader"] a').first().click();
    await page.getByText('Changelog').waitFor();
    await viewerReady(page);
    await shot('asset');
    // A changed form: the save bar stays in reach, saying what changed.
    const name = page.getByLabel('Name', { exact: true });
    await name.fill(`${await name.inputValue()} (edited)`);
    await page.getByText(/unsaved change/).waitFor();
    await stillAnimations(page);
    await shot('asset-save-bar', { fullPage: false });
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Discard' }).click();
    await page.getByText(/unsaved change/).waitFor({ state: 'detached' });
    const lock = page.getByRole('button', { name: 'Lock', exact: true });
    await lock.click();
    await page.getByText('Locked: this asset').waitFor();
    await toasts.getByText(/ locked$/).waitFor();
    await closeToasts(page);
    await shot('asset-locked');
    // Unlocked again, so that the next width and scheme shows the asset as it was.
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await lock.waitFor();
    await toasts.getByText(/ unlocked$/).waitFor();
    await closeToasts(page);
    await page.goto(`${server.url}/assets/000000000000000000000000`);
    await page.getByRole('heading', { name: 'Asset not found' }).waitFor();
    await shot('asset-not-found');
    for (const list of ['morph-queue', 'morphed-assets', 'tags', 'cage-meshes']) {
      await page.goto(`${server.url}/${list}`);
      await settled(page);
      await shot(list);
    }
    await page.locator(`${ROW} [role="rowheader"] a`).first().click();
    await settled(page, page.getByRole('heading', { name: /^Cage mesh / }));
    await shot('cage-mesh');
    await page.goto(`${server.url}/cage-meshes/new`);
    await page.getByRole('heading', { name: 'New cage mesh' }).waitFor();
    await shot('cage-mesh-new');
    // A reorderable list: drag handles in the first column.
    await page.goto(`${server.url}/applications`);
    await settled(page);
    await shot('applications');
    await page.getByRole('grid').getByRole('link').first().click();
    // Its heading first: until then the rows and count are the previous list's.
    await page.getByRole('heading', { name: /^Assets of / }).waitFor();
    await settled(page);
    await shot('application-assets');
    // The admin's own assets (the seed gives them some).
    if (phone) await menu.click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'My assets' })
      .click();
    await page.getByRole('heading', { name: 'Assets of admin@avatar.studio' }).waitFor();
    await settled(page);
    await shot('user-assets');
  });
  // The embeddable viewer on its own (public, no session).
  await atEachWidth(async (page, shot) => {
    // A fixture avatar, answered by the test instead of the server.
    await serveFixtures(page);
    await page.goto(`${server.url}/embed?modelSrc=/fixtures/avatars/male-emissive.glb&fit=true`);
    await viewerReady(page);
    await shot('embed');
  });
} finally {
  await b.close();
  await server.stop();
}

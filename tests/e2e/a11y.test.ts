/**
 * Accessibility, checked by axe-core at 1280 and 390 px, in light and dark: no serious or
 * critical violation on any screen (the account screens, every list, the detail and new
 * screens, "not available for your role", not found) nor in the states that add to a screen
 * (the phone's All Filters, a toast, a form's errors). Screens are checked once they have
 * settled (rows loaded, nothing loading). Each width signs in once and visits every screen in
 * that profile; each screen is checked in the light scheme and then, for its colours, in the
 * dark one (the app follows the system's scheme, which the test switches).
 *
 * Without WebGL: the asset page's viewer shows its error state here. Where the viewer draws a
 * model (/embed, an asset's preview) is a11y.webgl.test.ts. Checked in both schemes at both
 * widths elsewhere, and not again here: the dashboard (dashboard.test.ts), the phone's open menu
 * (navigation.test.ts) and the bulk bar (daily-use.test.ts).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, appUnderTest, blankPage, guestAt, signedInAt } from '../helpers/app';
import { axeChecker, seriousViolationsInBothSchemes } from '../helpers/axe';

const app = appUnderTest();
const UNKNOWN_ID = '000000000000000000000000';
const ROW = '[role="grid"] [role="row"]:not(.skeleton-row)';
const ROWS = `${ROW} [role="rowheader"]`;

/** The viewer done with its model: without WebGL, its error state. */
const viewerSettled = (page: Page) =>
  page.locator('[data-state="spawned"], [data-state="error"]').first().waitFor();

describe.each([1280, 390])('at %i px', (width) => {
  const phone = width < 768;

  /** A profile that holds nothing at this width, following the system's scheme. */
  async function newPage(): Promise<Page> {
    const page = await blankPage(app, { width, height: 800 });
    page.setDefaultTimeout(20_000);
    return page;
  }

  /** What a test checks a page with; `found` collects the problems. */
  function checker(page: Page) {
    const heading = (name: string | RegExp) => page.getByRole('heading', { name });
    const button = (name: string | RegExp) => page.getByRole('button', { name, exact: true });
    const signIn = async () => {
      await page.goto(`${app.server.url}/signin`);
      await page.getByLabel('E-mail').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await button('Sign in').click();
    };
    return { ...axeChecker(page, app.server.url), heading, button, signIn };
  }

  it("people: the users, a user, invitations, the activity log and one's account", async () => {
    const page = await signedInAt(app, `${app.server.url}/users`, ADMIN, { width, height: 800 });
    page.setDefaultTimeout(20_000);
    const { found, check, visit, heading } = checker(page);
    const rows = page.locator(ROWS);
    await check('/users', rows);
    const someone = page.locator(`${ROWS} a`).first();
    const someoneName = (await someone.textContent()) ?? '';
    await someone.click();
    await check("a user's page", heading(someoneName));
    await visit('/users/invitations', heading('Invitations'));
    await visit('/activity', rows);
    await visit('/account', heading('Your account'));
    expect(found).toEqual([]);
    await page.context().close();
  });

  it('has no serious or critical axe violation on any screen or state', async () => {
    const page = await newPage();
    const { found, check, visit, heading, button, signIn } = checker(page);

    // Signed out: the account screens and not found.
    await visit('/signin', page.getByLabel('E-mail', { exact: true }));
    await visit('/signup', page.getByLabel('Confirm password'));
    await page.getByLabel('E-mail').fill('bad');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('x');
    await button('Sign up').click();
    await check('/signup with errors', page.locator('[aria-invalid="true"]'));
    await visit('/forgot-password', page.getByLabel('E-mail', { exact: true }));
    await visit('/passwordless', page.getByLabel('E-mail', { exact: true }));
    await visit('/passwordless?email=ada@example.test', page.getByLabel('Code', { exact: true }));
    await visit('/verify-email', page.getByLabel('E-mail', { exact: true }));
    await visit(
      '/verify-email?verificationId=x&code=123456&email=ada@example.test',
      page.getByLabel('Code', { exact: true }),
    );
    await visit('/no/such/page', heading(/does not exist|not found/i));

    // A guest, on a screen that is not for their role.
    const guest = await guestAt(app, `${app.server.url}/tags`, { width, height: 800 });
    await guest.getByRole('heading', { name: 'Not available for your role' }).waitFor();
    found.push(
      ...(await seriousViolationsInBothSchemes(guest)).map((p) => `/tags as a guest ${p}`),
    );
    await guest.context().close();

    // The admin: every screen of the back office.
    await signIn();
    await heading('Dashboard').waitFor();
    const rows = page.locator(ROWS);

    // The assets list and its states: All Filters (phone), a toast; an asset.
    await visit('/assets', rows);
    if (phone) {
      await page.getByRole('button', { name: /^All Filters/ }).click();
      await check('All Filters', page.getByRole('dialog'));
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    }
    const dataRows = page.locator(ROW).filter({ has: page.getByRole('rowheader') });
    for (const nth of [1, 2]) await dataRows.nth(nth).locator('.checkbox').click();
    await page.getByRole('toolbar', { name: '2 selected' }).waitFor();
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await page.getByRole('toolbar').getByRole('button', { name: 'Lock', exact: true }).click();
    await check('a toast', toasts.getByText('2 assets locked'));
    await toasts.getByRole('button', { name: 'Undo' }).click();
    await toasts.getByText('2 assets unlocked').waitFor();
    await page.locator(`${ROWS} a`).first().click();
    await viewerSettled(page);
    await check('an asset', heading(/^Asset /));
    await visit('/assets/new', heading('New asset'));
    await button('Create asset').click();
    await check('/assets/new with errors', page.getByText('Please fix the highlighted fields.'));
    await visit(`/assets/${UNKNOWN_ID}`, heading('Asset not found'));

    await visit('/applications', rows);
    await page.getByRole('grid').getByRole('link').first().click();
    await check("an application's assets", page.getByRole('button', { name: /^Drag to reorder/ }));
    await visit('/morph-queue', rows);
    await visit('/morphed-assets', rows);
    await visit('/cage-meshes', rows);
    await page.locator(`${ROWS} a`).first().click();
    await check('a cage mesh', heading(/^Cage mesh /));
    await visit('/cage-meshes/new', heading('New cage mesh'));
    await visit('/tags', rows);
    await visit('/trash', heading('Trash'));
    await visit('/bulk-jobs', heading('Bulk jobs'));

    if (phone) await button('Menu').click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'My assets' })
      .click();
    // Its heading first: until then the rows are the previous list's.
    await heading(/^Assets of /).waitFor();
    await check("a user's assets", rows);

    expect(found).toEqual([]);
    await page.context().close();
    // About 25 screens and states, each read by axe in both schemes: 60-80 s on 2 busy cores,
    // so this one test gets more than the project's 90 s.
  }, 150_000);
});

/**
 * Invitations and the account page in the browser: an admin invites, the invitee accepts from
 * the mailed link and is signed in with the role; a password change ends the other sessions; a
 * guest becomes a registered user keeping its id. The accept page and /account are axe clean
 * at 1280 and 390 px (screenshots go to $SHOTS_DIR when it is set).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, blankPage, signedInAt, signedInPage } from '../helpers/app';
import { seriousViolations } from '../helpers/axe';
import { waitForMail } from '../helpers/server';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;
const PASSWORD = 'correct horse battery';

let counter = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.test`;

function newPage(width = 1280) {
  return blankPage(app, { width, height: 900 });
}

/** No serious or critical axe violation; a screenshot when SHOTS_DIR is set. */
async function expectAccessible(page: Page, name: string) {
  const violations = await seriousViolations(page);
  expect(violations.map((v) => `${name}: ${v.id}`)).toEqual([]);
  await shot(page, name, { fullPage: true });
}

/** Opens the user menu on a phone (the account links live there), no-op on a desktop. */
async function openMenuIfNarrow(page: Page) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
}

/** The admin invites `email` with `role` through the Invite dialog; answers the mailed link. */
async function inviteFromUi(page: Page, email: string, role: string): Promise<string> {
  await openMenuIfNarrow(page);
  await page.getByRole('link', { name: 'Invitations' }).click();
  await page.getByRole('heading', { name: 'Invitations' }).waitFor();
  await page.getByRole('button', { name: 'Invite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite someone' });
  await dialog.getByLabel('E-mail address').fill(email);
  await dialog.getByRole('button', { name: /Role$/ }).click();
  await page.getByRole('option', { name: role, exact: true }).click();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByRole('rowheader', { name: email }).waitFor();
  const mail = await waitForMail(app.server.url, email, 'invitation');
  expect(mail.link).toMatch(/\/invitation\?token=[A-Za-z0-9_-]{43}$/);
  return mail.link ?? '';
}

describe('invitations', () => {
  it('an admin invites, the invitee sets a password and is signed in with the role', async () => {
    const admin = await signedInPage(app);
    const email = uniqueEmail('invitee');
    const link = await inviteFromUi(admin, email, 'Developer');

    const page = await newPage();
    await page.goto(link);
    await page.getByText(`as a developer with ${email}`).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText(`Signed in as ${email}`).waitFor();
    // A developer's screens, not an admin's.
    await expect(page.getByRole('link', { name: 'Cage meshes' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Invitations' }).count()).resolves.toBe(0);

    // The link is spent, the invitation leaves the admin's list, and the password signs in.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin/);
    await page.goto(link);
    await page.getByText('This invitation link is not valid').waitFor();
    await admin.reload();
    await admin.getByRole('heading', { name: 'Invitations' }).waitFor();
    await expect(admin.getByRole('rowheader', { name: email }).count()).resolves.toBe(0);
    await page.goto(`${app.server.url}/signin`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await admin.context().close();
    await page.context().close();
  });

  it('accepting in a browser signed in as someone else signs that account out first', async () => {
    const admin = await signedInPage(app);
    const email = uniqueEmail('handover');
    const link = await inviteFromUi(admin, email, 'User');
    const adminRefresh = await admin.evaluate(
      () =>
        (
          JSON.parse(localStorage.getItem('persist:user') ?? '{}') as {
            data: { refreshToken: string };
          }
        ).data.refreshToken,
    );
    // The link on the app's own origin, where this browser is signed in.
    await admin.goto(`${app.server.url}/invitation${new URL(link).search}`);
    await admin.getByText('You are signed in as admin@avatar.studio in this browser').waitFor();
    await admin.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await admin.getByLabel('Confirm password').fill(PASSWORD);
    await admin.getByRole('button', { name: 'Set password and sign in' }).click();
    await admin.getByText(`Signed in as ${email}`).waitFor();
    // One identity in the tab: the invitee's; the admin's session is over on the server too.
    await expect(admin.getByRole('link', { name: 'Invitations' }).count()).resolves.toBe(0);
    const stored = await admin.evaluate(
      () => JSON.parse(localStorage.getItem('persist:user') ?? '{}') as { data: { email: string } },
    );
    expect(stored.data.email).toBe(email);
    const refreshed = await fetch(`${app.server.url}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: adminRefresh }),
    });
    expect(refreshed.status).toBe(401);
    await admin.context().close();
  });

  it('the accept page is axe clean at 1280 and 390 px, and a revoked link fails', async () => {
    const admin = await signedInPage(app);
    const email = uniqueEmail('shot');
    const link = await inviteFromUi(admin, email, 'Administrator');
    for (const width of WIDTHS) {
      const page = await newPage(width);
      await page.goto(link);
      await page.getByText(`as an administrator with ${email}`).waitFor();
      await page.getByText(/^At least 12 characters for every role/).waitFor();
      await expectAccessible(page, `invitation-${width}`);
      await page.context().close();
    }
    await admin.getByRole('button', { name: `Actions: ${email}` }).click();
    await admin.getByRole('menuitem', { name: 'Revoke' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await admin.getByText(`Invitation to ${email} revoked`).waitFor();
    const page = await newPage();
    await page.goto(link);
    await page.getByText('This invitation link is not valid').waitFor();
    await admin.context().close();
    await page.context().close();
  });
});

/** A registered, verified account signed in on a new page of `width`. */
async function verifiedAccount(width = 1280) {
  const page = await newPage(width);
  const email = uniqueEmail('user');
  await page.goto(`${app.server.url}/signup`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  const mail = await waitForMail(app.server.url, email, 'verify');
  await page.getByLabel('Code', { exact: true }).fill(mail.code ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  return { page, email };
}

async function openAccount(page: Page) {
  await openMenuIfNarrow(page);
  await page.getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
}

describe('your account', () => {
  // The admin's account page is checked at both widths in a11y.test.ts; this is a new user's,
  // on a phone.
  it('lists this session, and is axe clean for a new user at 390 px', async () => {
    const { page } = await verifiedAccount(390);
    await openAccount(page);
    await page.getByText('This session').waitFor();
    await expectAccessible(page, 'account-390');
    await page.context().close();
  });

  it('a password change needs the current one and signs the other browser out', async () => {
    const { page, email } = await verifiedAccount();
    const other = await signedInPage(app, { email, password: PASSWORD });
    await openAccount(page);
    await page
      .getByRole('cell')
      .filter({ hasText: /Chrome/ })
      .first()
      .waitFor();
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not my password');
    await form.getByLabel('New password').fill('a brand new passphrase');
    await form.getByLabel('Confirm password').fill('a brand new passphrase');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('This is not your current password').waitFor();
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed. Your other sessions were signed out.').waitFor();
    await page.getByText('You are signed in nowhere else.').waitFor();

    // The other browser's next request fails and lands on sign-in.
    await other.getByRole('link', { name: 'Assets', exact: true }).click();
    await other.waitForURL(/\/signin\?reason=login_required/);
    await other.getByLabel('E-mail').fill(email);
    await other.getByLabel('Password').fill('a brand new passphrase');
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await other.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.context().close();
    await other.context().close();
  });

  it('deleting the account needs the password, signs out for good and leaves no address in the log', async () => {
    const { page, email } = await verifiedAccount();
    await openAccount(page);
    const dialog = page.getByRole('alertdialog', { name: 'Delete your account for ever?' });
    const deleteWith = async (password: string) => {
      await page.getByRole('button', { name: 'Delete account' }).click();
      await dialog.getByLabel('Password').fill(password);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
    };
    await deleteWith('not my password');
    const section = page.getByRole('region', { name: 'Delete account' });
    await section.getByRole('alert').waitFor();
    await deleteWith(PASSWORD);
    await page.waitForURL(/\/signin/);
    // Said on the sign-in screen itself, which stays (a toast went with the account page).
    await page.getByRole('button', { name: 'Continue as guest' }).waitFor();
    expect(await page.getByText('Your account was deleted.').isVisible()).toBe(true);
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(page.url()).toMatch(/\/signin/);

    // The admin's activity log says an account was deleted, not whose.
    const filter = JSON.stringify({ routingKey: ['user.deleted.v1'] });
    const admin = await signedInAt(
      app,
      `${app.server.url}/activity?filter=${encodeURIComponent(filter)}`,
    );
    const first = admin.locator('[role="grid"] [role="row"]:not(.skeleton-row)').nth(1);
    await expect.poll(() => first.innerText()).toContain('a deleted account');
    expect(await admin.locator('main').innerText()).not.toContain(email);
    await page.context().close();
    await admin.context().close();
  });

  it('a guest creates an account on the account page and keeps its id', async () => {
    const page = await newPage();
    await page.goto(`${app.server.url}/signin`);
    await page.getByRole('button', { name: 'Continue as guest' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const guestId = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('persist:user') ?? '{}') as { data: { _id: string } }).data
          ._id,
    );
    await openAccount(page);
    const email = uniqueEmail('guest');
    const form = page.getByRole('form', { name: 'Create your account' });
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByLabel('Confirm password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/verify-email\?/);
    const mail = await waitForMail(app.server.url, email, 'verify');
    await page.getByLabel('Code', { exact: true }).fill(mail.code ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText(`Signed in as ${email}`).waitFor();
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem('persist:user') ?? '{}') as { data: { _id: string } },
    );
    expect(stored.data._id).toBe(guestId);
    await page.context().close();
  });
});

/**
 * The people screens (/users, a user's page, /users/invitations, /activity, /account) as each
 * role that is not an admin meets them, on a desktop and a phone: a developer reads the users
 * and the activity log but changes nothing and cannot invite; the demo-style user and a guest
 * are told the people screens are not for them; everyone has an account page, a guest one that
 * turns it into a registered account. Every screen is axe clean (the admin's are covered by
 * a11y.test.ts). Screenshots go to $SHOTS_DIR when it is set.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { verifiedAccount } from '../helpers/accounts';
import { appUnderTest, guestPage, signedInPage } from '../helpers/app';
import { seriousViolations } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;

type Role = 'developer' | 'user' | 'guest';

async function pageFor(role: Role, width: number) {
  const viewport = { width, height: 900 };
  if (role === 'guest') return guestPage(app, viewport);
  return signedInPage(app, await verifiedAccount(app.server.url, role), viewport);
}

/** Opens `path`, waits for `ready` and checks axe (and takes a screenshot when asked to). */
async function visit(
  page: Page,
  path: string,
  ready: (page: Page) => Promise<unknown>,
  name: string,
) {
  await page.goto(`${app.server.url}${path}`);
  await ready(page);
  const violations = await seriousViolations(page);
  expect(violations.map((v) => `${name}: ${v.id}`)).toEqual([]);
  await shot(page, name, { fullPage: true });
}

const heading = (name: string) => (page: Page) =>
  page.getByRole('heading', { name, level: 1 }).waitFor();
const refused = heading('Not available for your role');

/** Buttons that change a user: none of them may be offered to a role that cannot. */
const CHANGES = [
  'Disable',
  'Enable',
  'Change role',
  'Send password reset',
  'End session',
  'Invite',
];

async function countChanges(page: Page) {
  let count = 0;
  for (const name of CHANGES) count += await page.getByRole('button', { name }).count();
  return count;
}

/** Every people screen says it is not for this role, and names nobody (`other` included). */
async function expectNoPeopleScreens(
  page: Page,
  other: { id: string; email: string },
  name: string,
) {
  await visit(page, '/users', refused, name);
  for (const path of [`/users/${other.id}`, '/users/invitations', '/activity']) {
    await page.goto(`${app.server.url}${path}`);
    await refused(page);
    expect(await page.getByText(other.email).count()).toBe(0);
  }
}

describe('the people screens for each role that is not an admin', () => {
  for (const width of WIDTHS) {
    it(`developer at ${width} px: reads users and the activity log, changes nothing`, async () => {
      const person = await verifiedAccount(app.server.url);
      const page = await pageFor('developer', width);
      await visit(
        page,
        `/users?search=${encodeURIComponent(person.email)}`,
        (p) => p.getByRole('link', { name: person.email }).waitFor(),
        `people-developer-users-${width}`,
      );
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(await countChanges(page)).toBe(0);

      await visit(
        page,
        `/users/${person.id}`,
        (p) => p.getByText('Only administrators change users.').waitFor(),
        `people-developer-user-${width}`,
      );
      await page.getByRole('heading', { name: person.email, level: 1 }).waitFor();
      expect(await countChanges(page)).toBe(0);
      await page.getByRole('link', { name: 'View assigned assets' }).waitFor();

      await visit(page, '/users/invitations', refused, `people-developer-invitations-${width}`);
      await visit(
        page,
        '/activity',
        (p) => p.getByRole('heading', { name: 'Activity', level: 1 }).waitFor(),
        `people-developer-activity-${width}`,
      );
      await visit(page, '/account', heading('Your account'), `people-developer-account-${width}`);
      await page.getByRole('form', { name: 'Change password' }).waitFor();
      await page.context().close();
    });

    it(`user at ${width} px: the people screens are not offered, the account page is`, async () => {
      const other = await verifiedAccount(app.server.url);
      const page = await pageFor('user', width);
      await expectNoPeopleScreens(page, other, `people-user-users-${width}`);
      await visit(page, '/account', heading('Your account'), `people-user-account-${width}`);
      await page.getByRole('form', { name: 'Change password' }).waitFor();
      await page.getByText('This session').waitFor();
      expect(await page.getByRole('form', { name: 'Create your account' }).count()).toBe(0);
      await page.context().close();
    });

    it(`guest at ${width} px: no people screens; the account page offers an account`, async () => {
      const other = await verifiedAccount(app.server.url);
      const page = await pageFor('guest', width);
      await expectNoPeopleScreens(page, other, `people-guest-users-${width}`);
      await visit(page, '/account', heading('Your account'), `people-guest-account-${width}`);
      await page.getByRole('form', { name: 'Create your account' }).waitFor();
      // A guest has no password to change and no e-mail address to move.
      expect(await page.getByRole('form', { name: 'Change password' }).count()).toBe(0);
      await page.context().close();
    });
  }
});

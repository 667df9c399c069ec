/**
 * Saved views, at 1280 and 390 px: an admin saves the assets list filtered and sorted under a
 * name, opens it again from the Views menu after a reload, and another admin opens its link and
 * reads whose view it is. Axe checks the open menu and the shared view in both schemes.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { secondAdmin } from '../helpers/accounts';
import { appUnderTest, signedInAt, ADMIN } from '../helpers/app';
import { seriousViolationsInBothSchemes } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;
const viewport = (width: number) => ({ width, height: width > 500 ? 800 : 844 });
const ROWS = '[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])';
const SLOW = 240_000;

const firstRow = (page: Page) => page.locator(ROWS).first().waitFor({ timeout: 60_000 });
/** The Views menu's button: on a phone, behind More (opened here). */
const viewsButton = async (page: Page, width: number) => {
  const more = page.getByRole('button', { name: 'More', exact: true });
  if (width < 500 && (await more.getAttribute('aria-expanded')) === 'false') await more.click();
  return page.getByRole('button', { name: /^(Views|View: .*)$/ });
};
const addressOf = (page: Page) => {
  const params = new URL(page.url()).searchParams;
  return { filter: params.get('filter'), order: params.get('order') };
};

describe.each(WIDTHS)('saved views at %i px', (width) => {
  it(
    'saves a filtered, sorted list, opens it again after a reload, and shares it by link',
    async () => {
      const name = `Cyber by name ${width}`;
      const filter = encodeURIComponent(JSON.stringify({ search: 'cyber' }));
      const page = await signedInAt(
        app,
        `${app.server.url}/assets?filter=${filter}&order=-name`,
        ADMIN,
        viewport(width),
      );
      await firstRow(page);

      await (await viewsButton(page, width)).click();
      await page.getByRole('menuitem', { name: 'Save view…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save this view' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      const saved = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/v1/saved-views' && r.request().method() === 'POST',
      );
      await dialog.getByRole('button', { name: 'Save view' }).click();
      const { data } = (await (await saved).json()) as { data: { id: string } };
      await expect.poll(async () => (await viewsButton(page, width)).textContent()).toContain(name);

      // After a reload with no filter, the menu brings the view back.
      await page.goto(`${app.server.url}/assets`);
      await firstRow(page);
      expect(addressOf(page).filter).toBeNull();
      await (await viewsButton(page, width)).click();
      await page.getByRole('menuitem', { name }).waitFor();
      await shot(page, `saved-views-menu-${width}`);
      expect(await seriousViolationsInBothSchemes(page)).toEqual([]);
      await page.getByRole('menuitem', { name }).click();
      await expect
        .poll(() => addressOf(page))
        .toEqual({
          filter: JSON.stringify({ search: 'cyber' }),
          order: '-name',
        });
      await expect.poll(async () => (await viewsButton(page, width)).textContent()).toContain(name);

      // Another admin opens the link and reads whose view it is.
      const other = await secondAdmin(app.server.url);
      const theirs = await signedInAt(
        app,
        `${app.server.url}/assets?view=${data.id}`,
        other,
        viewport(width),
      );
      await theirs.getByText(`${ADMIN.email}’s view: ${name}`).waitFor({ timeout: 60_000 });
      await expect
        .poll(() => addressOf(theirs))
        .toEqual({
          filter: JSON.stringify({ search: 'cyber' }),
          order: '-name',
        });
      await firstRow(theirs);
      expect(
        await seriousViolationsInBothSchemes(theirs, (scheme) =>
          shot(theirs, `saved-views-shared-${width}-${scheme}`),
        ),
      ).toEqual([]);

      // A link to a view that is gone says so and shows the list unfiltered.
      await theirs.goto(`${app.server.url}/assets?view=00000000-0000-4000-8000-000000000000`);
      await theirs.getByText(/The linked view could not be opened/).waitFor({ timeout: 60_000 });
      expect(addressOf(theirs).filter).toBeNull();
    },
    SLOW,
  );
});

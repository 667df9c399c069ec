/**
 * The back office as a daily tool: every action says what happened (a toast with Undo where
 * the inverse is cheap, one that outlives its page), names rather than ids, work in bulk, and
 * the colour scheme.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appUnderTest, blankPage, readyToPick, signedInAt, signedInPage } from '../helpers/app';
import { adminApi } from '../helpers/accounts';

const app = appUnderTest();

const adminPage = () => signedInPage(app);
/** As `adminPage`, opened at `url` rather than the dashboard. */
const adminAt = (url: string) => signedInAt(app, url);

const ROW = '[role="grid"] [role="row"]:not(.skeleton-row)';
const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const rowNamed = (page: Page, name: string) =>
  page.locator(ROW).filter({ has: page.getByRole('rowheader', { name, exact: true }) });

async function firstAssetName(page: Page, nth: number): Promise<string> {
  await page.goto(`${app.server.url}/assets`);
  const header = page.locator(`${ROW} [role="rowheader"]`).nth(nth);
  await header.waitFor();
  return (await header.innerText()).trim();
}

async function select(page: Page, names: string[]) {
  for (const name of names) {
    // The visible box (React Aria keeps the input itself visually hidden).
    await rowNamed(page, name).locator('.checkbox').click();
  }
  await page.getByRole('toolbar', { name: `${names.length} selected` }).waitFor();
}

async function rowAction(page: Page, name: string, ...path: string[]) {
  await page.getByRole('button', { name: `Actions: ${name}` }).click();
  for (const item of path) await page.getByRole('menuitem', { name: item }).click();
}

describe('what an action did', () => {
  it('says a lock happened and Undo unlocks again', async () => {
    const page = await adminPage();
    const name = await firstAssetName(page, 1);
    await rowAction(page, name, 'Lock');
    await toasts(page).getByText(`${name} locked`).waitFor();
    await rowNamed(page, name).getByText('Locked', { exact: true }).waitFor();
    await toasts(page).getByRole('button', { name: 'Undo' }).click();
    await toasts(page).getByText(`${name} unlocked`).waitFor();
    await expect
      .poll(() => rowNamed(page, name).getByText('Locked', { exact: true }).count())
      .toBe(0);
    await page.context().close();
  });

  it('says where a moved row went and Undo puts it back', async () => {
    const page = await adminPage();
    const name = await firstAssetName(page, 3);
    const headers = await page.getByRole('columnheader').allInnerTexts();
    const column = headers.findIndex((header) => header.trim().startsWith('Position'));
    const position = async () =>
      (
        await rowNamed(page, name)
          .locator('[role="gridcell"], [role="rowheader"]')
          .nth(column)
          .innerText()
      ).trim();
    const before = await position();
    await rowAction(page, name, 'Move', 'Move to top');
    await toasts(page).getByText(`${name} moved to position 1`).waitFor();
    await toasts(page).getByRole('button', { name: 'Undo' }).first().click();
    await toasts(page).getByText(`${name} moved to position ${before}`).waitFor();
    await expect.poll(position).toBe(before);
    await page.context().close();
  });

  it('deleting an asset from its page lands on the list, which says so', async () => {
    const page = await adminPage();
    const name = await firstAssetName(page, 5);
    await rowNamed(page, name).getByRole('link').first().click();
    await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/assets(\?|$)/);
    await toasts(page).getByText(`${name} deleted`).waitFor();
    await page.context().close();
  });

  it('gives an asset to a user picked by e-mail, not by id, and takes it back, with Undo', async () => {
    const page = await adminPage();
    const name = await firstAssetName(page, 7);
    await rowNamed(page, name).getByRole('link').first().click();
    const picker = page.getByRole('combobox', { name: 'User (search by e-mail)' });
    await readyToPick(page, picker);
    await picker.fill('demo@');
    await page.getByRole('option', { name: 'demo@avatar.studio' }).click();
    await page.getByRole('button', { name: 'Assign to user' }).click();
    const given = toasts(page)
      .locator('.toast')
      .filter({ hasText: `${name} given to the user` });
    await given.waitFor();
    await given.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => given.count()).toBe(0);
    // Taken from the user where the page lists who holds it, said so; Undo gives it back.
    const holders = page.getByRole('region', { name: 'Users' });
    await holders.getByRole('button', { name: 'Take it from demo@avatar.studio' }).click();
    await toasts(page)
      .locator('.toast')
      .filter({ hasText: `${name} taken from demo@avatar.studio` })
      .getByRole('button', { name: 'Undo' })
      .click();
    const givenBack = toasts(page)
      .locator('.toast')
      .filter({ hasText: `${name} given to demo@avatar.studio` });
    await givenBack.waitFor();
    // Out of the way, as a user would put it: it outlives the page and may cover a row's menu.
    await givenBack.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => givenBack.count()).toBe(0);
    await holders.getByRole('link', { name: 'demo@avatar.studio' }).click();
    await page.getByRole('link', { name: 'View assigned assets' }).click();
    await page.getByRole('heading', { name: 'Assets of demo@avatar.studio' }).waitFor();
    const mine = page.getByRole('rowheader', { name, exact: true });
    await mine.waitFor();

    // Removed from the user's list with its row menu: said so, and Undo gives it back.
    await rowAction(page, name, 'Remove');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    const taken = toasts(page)
      .locator('.toast')
      .filter({ hasText: `${name} taken from this user` });
    await taken.waitFor();
    await expect.poll(() => mine.count()).toBe(0);
    await taken.getByRole('button', { name: 'Undo' }).click();
    await toasts(page).getByText(`${name} given back to this user`).waitFor();
    await mine.waitFor();
    await page.context().close();
  });

  it('says what each change of the asset’s applications did, and Undo takes it back', async () => {
    const name = 'Zeplace jacket';
    const asset = await api<ApiAsset>('POST', '/v1/assets', { name, type: 'top', gender: 'male' });
    const [application] = await api<{ name: string }[]>('GET', '/v1/applications?limit=1');
    const app1 = application!.name;
    const page = await adminAt(`${app.server.url}/assets/${asset.id}`);
    const panel = page.getByRole('region', { name: 'Applications', exact: true });
    const row = panel.getByRole('listitem').filter({ hasText: app1 });
    const position = row.getByRole('spinbutton', { name: 'Position' });
    /** Presses Undo in the toast that says `title`, then waits for what Undo says. */
    const undo = async (title: string, undone: string) => {
      await toasts(page)
        .locator('.toast')
        .filter({ hasText: title })
        .getByRole('button', { name: 'Undo' })
        .click();
      await toasts(page).getByText(undone).waitFor();
    };
    const add = async () => {
      const picker = panel.getByRole('combobox', { name: 'Application' });
      await readyToPick(page, picker);
      // The picker keeps the text of the last pick after adding (its value is cleared).
      await picker.fill('');
      await picker.fill(app1);
      await page.getByRole('option', { name: app1, exact: true }).click();
      const addButton = panel.getByRole('button', { name: 'Add to application' });
      // Emptying the text drops the pick: Add has nothing to add until one is picked again.
      // (Escape closes the list the empty text opens, which hides the rest of the page.)
      await picker.fill('');
      await picker.press('Escape');
      await expect.poll(() => addButton.getAttribute('aria-disabled')).toBe('true');
      await picker.fill(app1);
      await page.getByRole('option', { name: app1, exact: true }).click();
      await expect.poll(() => addButton.getAttribute('aria-disabled')).toBe(null);
      await addButton.click();
      await toasts(page).getByText(`${name} added to ${app1}`).waitFor();
      await row.waitFor();
    };

    await add();
    await undo(`${name} added to ${app1}`, `${name} taken out of ${app1} again`);
    await panel.getByText('The asset is in no application.').waitFor();

    // Added again, last; moved to the top, and Undo puts it back where it was.
    await add();
    const last = await position.inputValue();
    expect(Number(last)).toBeGreaterThan(1);
    await position.fill('1');
    await row.getByRole('button', { name: 'Move', exact: true }).click();
    await toasts(page).getByText(`${name} moved to position 1 in ${app1}`).waitFor();
    await expect.poll(() => position.inputValue()).toBe('1');
    await undo(
      `${name} moved to position 1 in ${app1}`,
      `${name} back at position ${last} in ${app1}`,
    );
    await expect.poll(() => position.inputValue()).toBe(last);

    await row.getByRole('button', { name: 'Sync with parent' }).click();
    await toasts(page).getByText(`${name} in ${app1} synced with its parent`).waitFor();
    await row.getByText(/^Synced /).waitFor();

    // Removed, and Undo puts it back at its old position.
    await row.getByRole('button', { name: 'Remove' }).click();
    await toasts(page).getByText(`${name} removed from ${app1}`).waitFor();
    await panel.getByText('The asset is in no application.').waitFor();
    await undo(`${name} removed from ${app1}`, `${name} back in ${app1}`);
    await expect.poll(() => position.inputValue()).toBe(last);
    await page.context().close();
  });
});

describe('names and places', () => {
  it('names the application a list belongs to, in the heading, the breadcrumbs and the tab', async () => {
    const page = await adminAt(`${app.server.url}/applications`);
    const link = page.locator(`${ROW} [role="rowheader"] a`).first();
    const application = (await link.innerText()).trim();
    await link.click();
    await page.getByRole('heading', { name: `Assets of ${application}` }).waitFor();
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Applications' })
      .waitFor();
    await expect.poll(() => page.title()).toBe(`${application} · Applications · Avatar Studio`);
    await page.context().close();
  });

  it('says an unknown application is not found instead of listing nothing', async () => {
    const page = await adminAt(`${app.server.url}/applications/000000000000000000000000/assets`);
    await page.getByRole('heading', { name: 'Application not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to applications' }).waitFor();
    expect(await page.getByRole('grid').count()).toBe(0);
    await page.context().close();
  });

  it('names the user whose assets a list shows, and says an unknown user is not found', async () => {
    const page = await adminPage();
    const found = (await page.evaluate(() =>
      (
        window as unknown as { avatarStudio: { request: (p: string) => Promise<unknown> } }
      ).avatarStudio.request('private/v1/users?search=demo@avatar.studio'),
    )) as { id: string; email: string }[];
    const demo = found.find((user) => user.email === 'demo@avatar.studio');
    expect(demo).toBeDefined();
    await page.goto(`${app.server.url}/users/${demo!.id}/assets`);
    await page.getByRole('heading', { name: 'Assets of demo@avatar.studio' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Dashboard' })
      .waitFor();
    await expect.poll(() => page.title()).toBe('demo@avatar.studio · User assets · Avatar Studio');

    // One's own assets ("My assets") are named after one's own e-mail.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'My assets' })
      .click();
    await page.getByRole('heading', { name: 'Assets of admin@avatar.studio' }).waitFor();

    await page.goto(`${app.server.url}/users/000000000000000000000000/assets`);
    await page.getByRole('heading', { name: 'User not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to the dashboard' }).waitFor();
    expect(await page.getByRole('grid').count()).toBe(0);
    await page.context().close();
  });

  it("titles an asset's tab after the asset", async () => {
    const page = await adminPage();
    const name = await firstAssetName(page, 0);
    await rowNamed(page, name).getByRole('link').first().click();
    await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();
    await expect.poll(() => page.title()).toBe(`${name} · Assets · Avatar Studio`);
    await page.context().close();
  });
});

describe('working in bulk', () => {
  it('locks several assets at once, Undo unlocks them; deletes them together', async () => {
    // Assets of its own: a seeded row may be locked already (by the data or an earlier test),
    // and Undo unlocks only the assets the lock changed.
    const names = ['Bulkpair one', 'Bulkpair two'];
    for (const name of names) {
      await api('POST', '/v1/assets', { name, type: 'hair', gender: 'male' });
    }
    const page = await adminPage();
    await page.goto(
      `${app.server.url}/assets?filter=${encodeURIComponent('{"search":"Bulkpair"}')}`,
    );
    await page.getByText('2 items').waitFor();
    await select(page, names);
    await page.getByRole('toolbar').getByRole('button', { name: 'Lock', exact: true }).click();
    await toasts(page).getByText('2 assets locked').waitFor();
    for (const name of names) {
      await rowNamed(page, name).getByText('Locked', { exact: true }).waitFor();
    }
    // The rows stay, so does the selection: the next bulk action needs no new selecting.
    expect(await page.getByRole('toolbar', { name: '2 selected' }).count()).toBe(1);
    await toasts(page).getByRole('button', { name: 'Undo' }).click();
    await toasts(page).getByText('2 assets unlocked').waitFor();
    await expect
      .poll(() => rowNamed(page, names[0]!).getByText('Locked', { exact: true }).count())
      .toBe(0);

    // The count tells they went together.
    const total = async () =>
      Number((await page.getByText(/^\d+ items$/).innerText()).split(' ')[0]);
    const before = await total();
    await page.getByRole('toolbar').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toasts(page).getByText('2 assets deleted').waitFor();
    await expect.poll(total).toBe(before - 2);
    // The rows went, and the selection with them.
    await expect.poll(() => page.getByRole('toolbar').count()).toBe(0);
    await page.context().close();
  });
});

/** Calls the API as the seeded admin; answers the `data` of the answer. */
const api = <T>(method: string, path: string, body?: unknown) =>
  adminApi<T>(app.server.url, method, path, body);

interface ApiAsset {
  id: string;
  locked: boolean;
  tags: { name: string }[];
}

describe('working in bulk, all or none', () => {
  it('refuses to tag a selection with a locked asset, naming it and tagging none; locks with one Undo', async () => {
    const free = await api<ApiAsset>('POST', '/v1/assets', {
      name: 'Zebulk free',
      type: 'hair',
      gender: 'male',
    });
    const held = await api<ApiAsset>('POST', '/v1/assets', {
      name: 'Zebulk held',
      type: 'hair',
      gender: 'male',
    });
    await api('PUT', `/v1/assets/${held.id}/lock`, {});
    const page = await adminPage();
    const bulkCalls: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() !== 'GET' && path.includes('/assets')) bulkCalls.push(path);
    });
    await page.goto(`${app.server.url}/assets?filter=${encodeURIComponent('{"search":"Zebulk"}')}`);
    await page.getByText('2 items').waitFor();
    const names = ['Zebulk free', 'Zebulk held'];
    await select(page, names);

    const toolbar = page.getByRole('toolbar', { name: '2 selected' });
    await toolbar.getByRole('combobox', { name: 'Tag' }).fill('Vintage');
    await page.getByRole('option', { name: 'Vintage' }).click();
    await toolbar.getByRole('button', { name: 'Add tag' }).click();
    // One call, refused: the error names the locked asset, not the other.
    const refusal = page.getByRole('alert').filter({ hasText: 'cannot be tagged' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('Zebulk held');
    expect(await refusal.innerText()).not.toContain('Zebulk free');
    expect(bulkCalls).toEqual(['/v1/assets/bulk-set-tag']);
    expect((await api<ApiAsset>('GET', `/v1/assets/${free.id}`)).tags).toEqual([]);
    expect(await rowNamed(page, 'Zebulk free').getByText('Vintage').count()).toBe(0);

    // Lock both (one was locked already): one toast, and Undo unlocks only the one it locked.
    await toolbar.getByRole('button', { name: 'Lock', exact: true }).click();
    await toasts(page).getByText('2 assets locked').waitFor();
    await rowNamed(page, 'Zebulk free').getByText('Locked', { exact: true }).waitFor();
    await toasts(page).getByRole('button', { name: 'Undo' }).click();
    await toasts(page).getByText('1 asset unlocked').waitFor();
    await expect
      .poll(() => rowNamed(page, 'Zebulk free').getByText('Locked', { exact: true }).count())
      .toBe(0);
    expect(await rowNamed(page, 'Zebulk held').getByText('Locked', { exact: true }).count()).toBe(
      1,
    );
    expect((await api<ApiAsset>('GET', `/v1/assets/${held.id}`)).locked).toBe(true);
    expect(bulkCalls).toEqual([
      '/v1/assets/bulk-set-tag',
      '/v1/assets/bulk-lock',
      '/v1/assets/bulk-unlock',
    ]);

    // The selection and the tag picked stay after the lock and its Undo: unticking the locked
    // one tags the other alone, and Undo takes the tag off again.
    await toolbar.waitFor();
    await select(page, ['Zebulk held']);
    const one = page.getByRole('toolbar', { name: '1 selected' });
    expect(await one.getByRole('combobox', { name: 'Tag' }).inputValue()).toBe('Vintage');
    await one.getByRole('button', { name: 'Add tag' }).click();
    await toasts(page).getByText('Tag added to 1 asset').waitFor();
    await rowNamed(page, 'Zebulk free').getByText('Vintage').waitFor();
    await toasts(page).getByRole('button', { name: 'Undo' }).last().click();
    await toasts(page).getByText('Tag taken off 1 asset').waitFor();
    await expect.poll(() => rowNamed(page, 'Zebulk free').getByText('Vintage').count()).toBe(0);
    await page.context().close();
  });
});

describe('colour scheme', () => {
  it('follows the system, and the switch overrides it for good', async () => {
    const page = await blankPage(app);
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const background = () =>
      page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${app.server.url}/signin`);
    await page.getByLabel('E-mail').waitFor();
    expect(await theme()).toBe('dark');
    const dark = await background();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(theme).toBe('light');
    expect(await background()).not.toBe(dark);

    await page.getByLabel('E-mail').fill('admin@avatar.studio');
    await page.getByLabel('Password').fill('avatar-studio-admin');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Colour scheme').selectOption('dark');
    expect(await theme()).toBe('dark');
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await theme()).toBe('dark');
    await page.context().close();
  });
});

describe('on a phone (390 px)', () => {
  it('folds the navigation into Menu, shows rows as cards with their menu on screen, counts filters and puts the preview first', async () => {
    const page = await signedInPage(app, undefined, { width: 390, height: 844 });
    const context = page.context();

    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await nav.isVisible()).toBe(false);
    await menu.click();
    await page.getByRole('dialog', { name: 'Menu' }).waitFor();
    await nav.getByRole('link', { name: 'Assets', exact: true }).click();
    await page.locator(`${ROW} [role="rowheader"]`).first().waitFor();
    expect(await nav.isVisible()).toBe(false);

    // Each row's menu is on screen, not scrolled away to the right.
    const box = await page
      .getByRole('button', { name: /^Actions: / })
      .first()
      .boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);

    await page.goto(
      `${app.server.url}/assets?filter=${encodeURIComponent('{"type":["hair"],"gender":["male"]}')}`,
    );
    await page.getByRole('button', { name: 'All Filters 2' }).waitFor();

    await page.locator(`${ROW} [role="rowheader"] a`).first().click();
    await page.getByRole('heading', { name: /^Asset / }).waitFor();
    const preview = await page.getByRole('heading', { name: 'Preview' }).boundingBox();
    const details = await page.getByText('Details', { exact: true }).first().boundingBox();
    expect(preview!.y).toBeLessThan(details!.y);
    await context.close();
  });
});

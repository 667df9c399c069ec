/**
 * The Trash: a deleted asset comes back with the toast's Undo, or from the Trash screen after
 * a reload, with its tags; two deleted together come back together; deleting a tag asks first.
 * Cage meshes, applications and morphed assets go there too, alone or in bulk, and come back
 * the same ways (from their row menus at 1280 and 390 px: the row leaves, Undo brings it back);
 * the delete dialog names the server's retention (12 days here).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminApi } from '../helpers/accounts';
import { ADMIN, appUnderTest, signedInPage, signedInAt } from '../helpers/app';
import { shot } from '../helpers/shots';

const app = appUnderTest({ env: { TRASH_RETENTION_DAYS: '12' } });
const api = <T>(method: string, path: string, body?: unknown) =>
  adminApi<T>(app.server.url, method, path, body);
const ROW = '[role="grid"] [role="row"]:not(.skeleton-row)';

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const rowNamed = (page: Page, name: string) =>
  page.locator(ROW).filter({ has: page.getByRole('rowheader', { name, exact: true }) });

async function rowAction(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Actions: ${name}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

async function select(page: Page, names: string[]) {
  for (const name of names) await rowNamed(page, name).locator('.checkbox').click();
  await page.getByRole('toolbar', { name: `${names.length} selected` }).waitFor();
}

const newTag = (name: string) => api<{ id: string }>('POST', '/v1/tags', { name });
const newAsset = (name: string, tagIds: string[] = []) =>
  api<{ id: string }>('POST', '/v1/assets', { name, type: 'hair', gender: 'male', tagIds });
const newCageMesh = (name: string) =>
  api<{ id: string }>('POST', '/v1/cage-meshes', { name, gender: 'male' });
const tagsOf = async (id: string) =>
  (await api<{ tags: { name: string }[] }>('GET', `/v1/assets/${id}`)).tags.map((t) => t.name);

/** A list screen's address with `filter` set. */
const listUrl = (path: string, filter: Record<string, unknown>) =>
  `${app.server.url}${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;

/** The assets list searched for `search`, its rows loaded. */
async function assetsMatching(page: Page, search: string, rows: number) {
  await page.goto(listUrl('/assets', { search }));
  await expect.poll(() => page.locator(`${ROW} [role="rowheader"]`).count()).toBe(rows);
}

/** Deletes the asset `name` from its row menu, through the dialog that says what follows. */
async function deleteRow(page: Page, name: string) {
  await rowAction(page, name, 'Delete');
  const dialog = page.getByRole('alertdialog');
  await dialog.getByText('It moves to the Trash').waitFor();
  await dialog.getByText('The Trash keeps it 12 days, then deletes it for ever.').waitFor();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await toasts(page).getByText(`${name} deleted`).waitFor();
  await expect.poll(() => rowNamed(page, name).count()).toBe(0);
}

describe('the Trash', () => {
  it('Undo brings a deleted asset back; after a reload the Trash screen does, with its tags', async () => {
    const tag = await newTag('E2E trash tag');
    const asset = await newAsset('E2E trash one', [tag.id]);
    const page = await signedInPage(app);
    await assetsMatching(page, 'E2E trash one', 1);

    await deleteRow(page, 'E2E trash one');
    await toasts(page).getByRole('button', { name: 'Undo' }).click();
    await toasts(page).getByText('E2E trash one restored').waitFor();
    await rowNamed(page, 'E2E trash one').waitFor();

    await deleteRow(page, 'E2E trash one');
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Trash' })
      .click();
    await page.getByRole('heading', { name: 'Trash' }).waitFor();
    const row = rowNamed(page, 'E2E trash one');
    await expect.poll(() => row.innerText()).toContain('admin@avatar.studio');
    await rowAction(page, 'E2E trash one', 'Restore');
    await toasts(page).getByText('E2E trash one restored').waitFor();
    await expect.poll(() => row.count()).toBe(0);

    await assetsMatching(page, 'E2E trash one', 1);
    expect(await tagsOf(asset.id)).toEqual(['E2E trash tag']);
    await page.context().close();
  });

  it('restores two assets deleted together, from the Trash, together', async () => {
    const names = ['E2E trash bulk A', 'E2E trash bulk B'];
    for (const name of names) await newAsset(name);
    const page = await signedInPage(app);
    await assetsMatching(page, 'E2E trash bulk', 2);
    await select(page, names);
    await page.getByRole('toolbar').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toasts(page).getByText('2 assets deleted').waitFor();
    for (const name of names) await expect.poll(() => rowNamed(page, name).count()).toBe(0);

    await page.goto(listUrl('/trash', { search: 'E2E trash bulk' }));
    await expect.poll(() => page.locator(`${ROW} [role="rowheader"]`).count()).toBe(2);
    // Who deleted them: the filter offers the users by e-mail.
    const deletedBy = page.getByRole('combobox', { name: 'Deleted by' });
    await deletedBy.fill('admin@');
    await page.getByRole('listbox').getByRole('option', { name: ADMIN.email }).click();
    await deletedBy.press('Escape');
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"deletedBy":[');
    await expect.poll(() => page.locator(`${ROW} [role="rowheader"]`).count()).toBe(2);
    await select(page, names);
    await page.getByRole('toolbar').getByRole('button', { name: 'Restore' }).click();
    await toasts(page).getByText('2 records restored').waitFor();
    await assetsMatching(page, 'E2E trash bulk', 2);
    await page.context().close();
  });

  it('asks before deleting a tag, and deleting for ever says it cannot be undone', async () => {
    await newTag('E2E trash kept tag');
    const page = await signedInAt(app, listUrl('/tags', { search: 'E2E trash kept' }));
    await rowAction(page, 'E2E trash kept tag', 'Delete');
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('moves to the Trash').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await rowNamed(page, 'E2E trash kept tag').waitFor();

    await rowAction(page, 'E2E trash kept tag', 'Delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toasts(page).getByText('Tag E2E trash kept tag deleted').waitFor();
    await page.goto(listUrl('/trash', { kind: ['tag'] }));
    await rowAction(page, 'E2E trash kept tag', 'Delete for ever');
    await dialog.getByText('This cannot be undone').waitFor();
    await dialog.getByRole('button', { name: 'Delete for ever' }).click();
    await toasts(page).getByText('E2E trash kept tag deleted for ever').waitFor();
    await expect.poll(() => rowNamed(page, 'E2E trash kept tag').count()).toBe(0);
    await page.context().close();
  });

  it('takes cage meshes there from their row menu (Undo), in bulk, and gives them back after a reload', async () => {
    const names = ['E2E trash cage A', 'E2E trash cage B'];
    for (const name of names) await newCageMesh(name);
    const page = await signedInAt(
      app,
      listUrl('/cage-meshes', { search: 'E2E trash cage', gender: 'male' }),
    );
    await expect.poll(() => page.locator(`${ROW} [role="rowheader"]`).count()).toBe(2);

    await rowAction(page, names[0]!, 'Delete');
    await toasts(page).getByText(`${names[0]} moved to the Trash`).waitFor();
    await expect.poll(() => rowNamed(page, names[0]!).count()).toBe(0);
    await toasts(page).getByRole('button', { name: 'Undo' }).click();
    await toasts(page).getByText(`${names[0]} restored`).waitFor();
    await rowNamed(page, names[0]!).waitFor();

    await select(page, names);
    await page.getByRole('toolbar').getByRole('button', { name: 'Delete' }).click();
    await toasts(page).getByText('2 records moved to the Trash').waitFor();
    for (const name of names) await expect.poll(() => rowNamed(page, name).count()).toBe(0);

    await page.reload();
    await page.goto(listUrl('/trash', { kind: ['cage-mesh'] }));
    await expect.poll(() => page.locator(`${ROW} [role="rowheader"]`).count()).toBe(2);
    await expect.poll(() => rowNamed(page, names[1]!).innerText()).toContain('Cage mesh');
    await select(page, names);
    await page.getByRole('toolbar').getByRole('button', { name: 'Restore' }).click();
    await toasts(page).getByText('2 records restored').waitFor();
    await page.goto(listUrl('/cage-meshes', { search: 'E2E trash cage', gender: 'male' }));
    await expect.poll(() => page.locator(`${ROW} [role="rowheader"]`).count()).toBe(2);
    await page.context().close();
  });

  it('lists applications, morphed assets and cage meshes with their kinds, and gives an application back with its assets', async () => {
    const [application] = await api<{ id: string; name: string }[]>(
      'GET',
      '/v1/applications?limit=1',
    );
    const entries = async () =>
      (
        await api<unknown[]>(
          'GET',
          `/v1/application-assets?applicationId=${application!.id}&limit=100`,
        )
      ).length;
    const count = await entries();
    expect(count).toBeGreaterThan(0);
    const [morphed] = await api<{ id: string; name: string }[]>(
      'GET',
      '/private/v1/morphed-assets?limit=1',
    );
    const mesh = await newCageMesh('E2E trash cage shown');
    await api('DELETE', `/v1/cage-meshes/${mesh.id}`);
    const page = await signedInAt(app, listUrl('/applications', { search: application!.name }));

    await rowAction(page, application!.name, 'Delete');
    await toasts(page).getByText(`${application!.name} moved to the Trash`).waitFor();
    await page.goto(listUrl('/morphed-assets', { search: morphed!.name }));
    await rowAction(page, morphed!.name, 'Delete');
    await toasts(page).getByText(`${morphed!.name} moved to the Trash`).waitFor();
    await expect.poll(() => rowNamed(page, morphed!.name).count()).toBe(0);

    await page.reload();
    await page.goto(`${app.server.url}/trash`);
    for (const [name, kind] of [
      [application!.name, 'Application'],
      [morphed!.name, 'Morphed asset'],
      ['E2E trash cage shown', 'Cage mesh'],
    ] as const) {
      await expect.poll(() => rowNamed(page, name).innerText()).toContain(kind);
    }
    await shot(page, 'trash-every-kind', { fullPage: true });

    await rowAction(page, application!.name, 'Restore');
    await toasts(page).getByText(`${application!.name} restored`).waitFor();
    expect(await entries()).toBe(count);
    await page.goto(listUrl('/applications', { search: application!.name }));
    await rowNamed(page, application!.name).waitFor();
    await page.context().close();
  });
});

describe.each([1280, 390])('deleting from a row menu at %i px', (width) => {
  it('an application, a cage mesh and a morphed asset leave their lists for the Trash; Undo brings each back', async () => {
    const application = await api<{ name: string }>('POST', '/v1/applications', {
      name: `E2E trash app ${width}`,
    });
    const mesh = `E2E trash cage ${width}`;
    await newCageMesh(mesh);
    // A seeded morphed asset of its own per width (the test above takes the first).
    const morphed = await api<{ name: string }[]>('GET', '/private/v1/morphed-assets?limit=3');
    const morph = morphed[width > 500 ? 1 : 2]!.name;
    const page = await signedInPage(app, ADMIN, { width, height: 844 });
    for (const [path, filter, name] of [
      ['/applications', { search: application.name }, application.name],
      ['/cage-meshes', { search: mesh, gender: 'male' }, mesh],
      ['/morphed-assets', { search: morph }, morph],
    ] as const) {
      await page.goto(listUrl(path, filter));
      await rowNamed(page, name).waitFor();
      await rowAction(page, name, 'Delete');
      const toast = toasts(page).locator('.toast', { hasText: `${name} moved to the Trash` });
      await toast.waitFor();
      await expect.poll(() => rowNamed(page, name).count()).toBe(0);
      await toast.getByRole('button', { name: 'Undo' }).click();
      await toasts(page).getByText(`${name} restored`).waitFor();
      await rowNamed(page, name).waitFor();
    }
    await page.context().close();
  });
});

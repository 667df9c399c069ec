/**
 * The Trash: a deleted asset comes back with the toast's Undo, or from the Trash screen after
 * a reload, with its tags; two deleted together come back together; deleting a tag asks first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, appUnderTest, signedInPage } from '../helpers/app';

const app = appUnderTest();
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

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const login = await fetch(`${app.server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { token } = ((await login.json()) as { data: { token: string } }).data;
  const response = await fetch(`${app.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

const newTag = (name: string) => api<{ id: string }>('POST', '/v1/tags', { name });
const newAsset = (name: string, tagIds: string[] = []) =>
  api<{ id: string }>('POST', '/v1/assets', { name, type: 'hair', gender: 'male', tagIds });
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
    await select(page, names);
    await page.getByRole('toolbar').getByRole('button', { name: 'Restore' }).click();
    await toasts(page).getByText('2 records restored').waitFor();
    await assetsMatching(page, 'E2E trash bulk', 2);
    await page.context().close();
  });

  it('asks before deleting a tag, and deleting for ever says it cannot be undone', async () => {
    await newTag('E2E trash kept tag');
    const page = await signedInPage(app);
    await page.goto(listUrl('/tags', { search: 'E2E trash kept' }));
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
});

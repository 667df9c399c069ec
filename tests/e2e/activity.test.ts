/**
 * The activity log: a rename an admin makes in one browser arrives live at the top of another
 * browser's /activity; its filters narrow it; each row links to its record, or says it was
 * deleted and links to the Trash. Axe checks the screen at 1280 and 390 px in a11y.test.ts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminApi } from '../helpers/accounts';
import { ADMIN, appUnderTest, signedInPage, signedInAt } from '../helpers/app';

const app = appUnderTest();
const api = <T>(method: string, path: string, body?: unknown) =>
  adminApi<T>(app.server.url, method, path, body);
// The body's rows (each has a row header; the header row has none), loaded.
const ROW = '[role="grid"] [role="row"]:not(.skeleton-row):has([role="rowheader"])';

const listUrl = (path: string, filter: Record<string, unknown>) =>
  `${app.server.url}${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`;

const rows = (page: Page) => page.locator(ROW);

/** /activity through the navigation, its first rows loaded. */
async function openActivity(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Activity' })
    .click();
  await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
  await page.locator(`${ROW} [role="rowheader"]`).first().waitFor();
}

describe('the activity log', () => {
  it('a rename by an admin in another browser arrives live at the top, naming who and what', async () => {
    const tag = await api<{ id: string }>('POST', '/v1/tags', { name: 'E2E activity live' });
    const reader = await signedInPage(app);
    await openActivity(reader);
    await expect.poll(() => rows(reader).first().innerText()).toContain('E2E activity live');

    const editor = await signedInAt(app, listUrl('/tags', { search: 'E2E activity live' }));
    await editor.getByRole('button', { name: 'Actions: E2E activity live' }).click();
    await editor.getByRole('menuitem', { name: 'Rename' }).click();
    const dialog = editor.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('E2E activity renamed');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await editor.getByText('Tag renamed to E2E activity renamed').waitFor();

    // No reload, no "show": the row is on top of the reader's list.
    const top = rows(reader).first();
    await expect.poll(() => top.innerText(), { timeout: 10_000 }).toContain('Renamed');
    const text = await top.innerText();
    expect(text).toContain('Name: E2E activity live → E2E activity renamed');
    expect(text).toContain(ADMIN.email);
    // The row it arrived above is still there, the record named as it is now.
    await expect.poll(() => rows(reader).nth(1).innerText()).toContain('E2E activity renamed');

    await api('DELETE', `/v1/tags/${tag.id}`);
    await expect
      .poll(() => top.innerText(), { timeout: 10_000 })
      .toContain('deleted, in the Trash');
    await top.getByRole('link', { name: 'deleted, in the Trash' }).click();
    await reader.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
    await reader.getByRole('rowheader', { name: 'E2E activity renamed' }).waitFor();
    await reader.context().close();
    await editor.context().close();
  });

  it('filters by record, in the address, and links each row to its record', async () => {
    const asset = await api<{ id: string }>('POST', '/v1/assets', {
      name: 'E2E activity hat',
      type: 'hair',
      gender: 'male',
    });
    await api('PATCH', `/v1/assets/${asset.id}`, { description: 'Brim' });
    const page = await signedInPage(app);
    await openActivity(page);
    await page.getByRole('searchbox', { name: 'Record' }).fill('E2E activity hat');
    // Created, then updated: the update on top, newest first; nothing else is left.
    await expect.poll(() => rows(page).count()).toBe(2);
    // The filter is in the address, so a reload or a shared link shows the same rows.
    const filter = () => new URL(page.url()).searchParams.get('filter') ?? '{}';
    await expect
      .poll(() => JSON.parse(filter()) as unknown)
      .toEqual({ search: 'E2E activity hat' });
    expect(await rows(page).first().innerText()).toContain('Brim');
    expect(await rows(page).nth(1).innerText()).toContain('Created');
    for (const text of await rows(page).allInnerTexts()) expect(text).toContain('E2E activity hat');

    await rows(page).first().getByRole('link', { name: 'E2E activity hat' }).click();
    await expect.poll(() => page.url()).toContain(`/assets/${asset.id}`);
    await page.getByRole('heading', { name: 'E2E activity hat' }).first().waitFor();
    await page.context().close();
  });
});

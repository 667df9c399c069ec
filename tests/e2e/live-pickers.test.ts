/**
 * A live refresh under an open picker, at 1280 and 390 px: another admin changes the asset on
 * screen while its morph body picker is open; the page takes the change in (the changelog grows
 * above the picker, the notice says who changed it) and the list stays open where it was, so
 * the option the user is about to click is still there to click.
 */
import { describe, expect, it } from 'vitest';
import { adminApi, api, login, secondAdmin } from '../helpers/accounts';
import { ADMIN, appUnderTest, readyToPick, signedInAt } from '../helpers/app';

const app = appUnderTest();
const WIDTHS = [1280, 390] as const;
const viewport = (width: number) => ({ width, height: width > 500 ? 800 : 844 });

describe.each(WIDTHS)('a live refresh of the asset page at %i px', (width) => {
  it('keeps the open morph body picker open in place, and its option can still be picked', async () => {
    const other = await secondAdmin(app.server.url);
    const token = await login(app.server.url, other);
    const name = `E2E live picker ${width}`;
    const asset = await adminApi<{ id: string }>(app.server.url, 'POST', '/v1/assets', {
      name,
      type: 'top',
      gender: 'female',
    });
    const page = await signedInAt(
      app,
      `${app.server.url}/assets/${asset.id}`,
      ADMIN,
      viewport(width),
    );
    const field = page.locator('.filter-autocomplete', {
      has: page.getByRole('combobox', { name: 'Body assets' }),
    });
    await readyToPick(page, field);
    await field.getByRole('button', { name: 'Show suggestions' }).click();
    const list = page.getByRole('listbox');
    const first = list.getByRole('option').first();
    await first.waitFor();
    const box = field.locator('.combo-input');
    const fieldBefore = await box.boundingBox();
    const rows = page.locator('.changelog li');
    const rowsBefore = await rows.count();

    await api(app.server.url, `/v1/assets/${asset.id}`, token, 'PATCH', {
      description: 'Changed by another admin while the picker was open',
    });
    // The refresh lands above the picker: the notice and a changelog row.
    await page.locator('.alert', { hasText: other.email }).waitFor();
    await expect.poll(() => rows.count()).toBeGreaterThan(rowsBefore);
    // Past the frame whose scroll event would close the list.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );

    expect(await list.isVisible()).toBe(true);
    // The page kept the field where the user looked, and the list stays beside it.
    const at = (await box.boundingBox())!;
    expect(Math.abs(at.y - fieldBefore!.y)).toBeLessThan(1);
    const shown = (await page.locator('.menu-popover').boundingBox())!;
    const gap = Math.min(
      Math.abs(shown.y - (at.y + at.height)),
      Math.abs(at.y - (shown.y + shown.height)),
    );
    expect(gap).toBeLessThan(10);
    const label = (await first.innerText()).split('\n')[0]!;
    await first.click({ timeout: 2_000 });
    // Chosen: its chip under the field (the page outside the open list is hidden from roles).
    await field.locator('.tag', { hasText: label }).waitFor();

    // The user's own scroll of the page still closes the list (it would part from its field).
    await page.mouse.move(5, 5);
    await page.mouse.wheel(0, -120);
    await list.waitFor({ state: 'detached' });
    await page.context().close();
  });
});

/**
 * Missing pieces of daily work, at 1280 and 390 px, light and dark (axe on each new state; set
 * SHOTS_DIR=<folder> to keep screenshots): an application's assets are added (searched by name
 * on the server, several at once) and removed there (row menu and bulk bar, each with Undo); a
 * failed morph job runs again from its Retry; the morph body picker shows each body's gender
 * and id, and empties after Generate; the asset form refuses an animation clip as a
 * model, saying it has no mesh to show.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { AVATARS } from '../../core/files/test-fixtures';
import { adminApi } from '../helpers/accounts';
import { ADMIN, appUnderTest, readyToPick, signedInAt } from '../helpers/app';
import { seriousViolationsInBothSchemes, useScheme } from '../helpers/axe';
import { shot } from '../helpers/shots';

const app = appUnderTest();
const api = <T>(method: string, path: string, body?: unknown) =>
  adminApi<T>(app.server.url, method, path, body);
const WIDTHS = [1280, 390] as const;
const viewport = (width: number) => ({ width, height: width > 500 ? 800 : 844 });
const ROW = '[role="grid"] [role="row"]:not(.skeleton-row)';

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const rowNamed = (page: Page, name: string) =>
  page.locator(ROW).filter({ has: page.getByRole('rowheader', { name, exact: true }) });

let application: { id: string; name: string };
beforeAll(async () => {
  const [first] = await api<{ id: string; name: string }[]>('GET', '/v1/applications?limit=1');
  if (!first) throw new Error('the demo data has no application');
  application = first;
});

/** The ids of the assets in the application. */
const placed = async () =>
  (
    await api<{ assetId: string }[]>(
      'GET',
      `/v1/application-assets?applicationId=${application.id}&limit=100`,
    )
  ).map((row) => row.assetId);

describe.each(WIDTHS)("an application's assets at %i px", (width) => {
  it('adds assets found by name, removes one from its menu and two from the bulk bar, each with Undo', async () => {
    const names = [`E2E placed ${width} one`, `E2E placed ${width} two`];
    const ids: string[] = [];
    for (const name of names) {
      ids.push(
        (await api<{ id: string }>('POST', '/v1/assets', { name, type: 'top', gender: 'female' }))
          .id,
      );
    }
    const page = await signedInAt(
      app,
      `${app.server.url}/applications/${application.id}/assets`,
      ADMIN,
      viewport(width),
    );
    await page.locator(`${ROW} [role="rowheader"]`).first().waitFor({ timeout: 60_000 });

    const picker = page.getByRole('combobox', { name: 'Assets to add' });
    await readyToPick(page, picker);
    await picker.fill(`E2E placed ${width}`);
    await page.getByRole('option', { name: names[0], exact: true }).waitFor();
    await shot(page, `missing-work-options-${width}`);
    for (const name of names) {
      await picker.fill(name);
      await page.getByRole('option', { name, exact: true }).click();
    }
    await page.keyboard.press('Escape');
    // The two picked, before they are added.
    expect(
      await seriousViolationsInBothSchemes(page, (scheme) =>
        shot(page, `missing-work-add-${width}-${scheme}`),
      ),
    ).toEqual([]);
    await page.getByRole('button', { name: 'Add 2 assets' }).click();
    await toasts(page).getByText(`2 assets added to ${application.name}`).waitFor();
    await expect.poll(placed).toEqual(expect.arrayContaining(ids));

    // The list is in position order: the new ones are last. Searched, they are the only rows.
    await page.goto(
      `${app.server.url}/applications/${application.id}/assets?filter=${encodeURIComponent(
        JSON.stringify({ search: `E2E placed ${width}` }),
      )}`,
    );
    await expect.poll(() => page.locator(`${ROW} [role="rowheader"]`).count()).toBe(2);
    await page.getByRole('button', { name: `Actions: ${names[0]}` }).click();
    await page.getByRole('menuitem', { name: 'Remove from application' }).click();
    await toasts(page).getByText(`${names[0]} removed from ${application.name}`).waitFor();
    await expect.poll(() => rowNamed(page, names[0]!).count()).toBe(0);
    expect(await placed()).not.toContain(ids[0]);
    await toasts(page).getByRole('button', { name: 'Undo' }).first().click();
    await toasts(page).getByText(`${names[0]} back in ${application.name}`).waitFor();
    await rowNamed(page, names[0]!).waitFor();

    for (const name of names) await rowNamed(page, name).locator('.checkbox').click();
    const bar = page.getByRole('toolbar', { name: '2 selected' });
    await bar.waitFor();
    await shot(page, `missing-work-bulk-${width}`);
    await bar.getByRole('button', { name: 'Remove 2 from application' }).click();
    await toasts(page).getByText(`2 assets removed from ${application.name}`).waitFor();
    await expect.poll(async () => (await placed()).filter((id) => ids.includes(id))).toEqual([]);
    await toasts(page).getByRole('button', { name: 'Undo' }).last().click();
    await toasts(page).getByText(`2 assets back in ${application.name}`).waitFor();
    await expect.poll(placed).toEqual(expect.arrayContaining(ids));
    await page.context().close();
  });
});

describe.each(WIDTHS)('the morph queue at %i px', (width) => {
  it('runs a failed job again from its Retry, as a new job of the same source and body', async () => {
    const [failed] = await api<{ sourceAssetName: string; bodyAssetName: string }[]>(
      'GET',
      '/v1/morphed-asset-queue?status=failed&limit=1',
    );
    const jobsOf = async () =>
      (
        await api<unknown[]>(
          'GET',
          `/v1/morphed-asset-queue?search=${encodeURIComponent(failed!.sourceAssetName)}&limit=100`,
        )
      ).length;
    const before = await jobsOf();
    const page = await signedInAt(
      app,
      `${app.server.url}/morph-queue?filter=${encodeURIComponent(
        JSON.stringify({ search: failed!.sourceAssetName }),
      )}`,
      ADMIN,
      viewport(width),
    );
    const row = page
      .locator(ROW)
      .filter({ hasText: failed!.bodyAssetName })
      .filter({ has: page.getByRole('button', { name: 'Retry', exact: true }) })
      .first();
    await row.waitFor({ timeout: 60_000 });
    expect(
      await seriousViolationsInBothSchemes(page, (scheme) =>
        shot(page, `missing-work-morph-queue-${width}-${scheme}`),
      ),
    ).toEqual([]);
    await row.getByRole('button', { name: 'Retry', exact: true }).click();
    await toasts(page)
      .getByText(`Morph of ${failed!.sourceAssetName} on ${failed!.bodyAssetName} queued again`)
      .waitFor();
    await expect.poll(jobsOf).toBe(before + 1);
    await page.context().close();
  });
});

describe.each(WIDTHS)("the asset page's morph body picker at %i px", (width) => {
  it('shows each body with its gender and id, and empties once Generate has queued the job', async () => {
    // An asset of its own per width: the other width's morph job, finishing meanwhile, changes
    // its asset's page (a live refresh) under the open picker.
    const tops = await api<{ id: string }[]>('GET', `/v1/assets?type=top&limit=${WIDTHS.length}`);
    const asset = tops[WIDTHS.indexOf(width)];
    const page = await signedInAt(
      app,
      `${app.server.url}/assets/${asset!.id}`,
      ADMIN,
      viewport(width),
    );
    const field = page.locator('.filter-autocomplete', {
      has: page.getByRole('combobox', { name: 'Body assets' }),
    });
    await readyToPick(page, field);
    await field.getByRole('button', { name: 'Show suggestions' }).click();
    const first = page.getByRole('listbox').getByRole('option').first();
    await first.waitFor();
    expect(await first.innerText()).toMatch(/\n(Male|Female|Unisex) · [0-9a-f]{24}$/);
    for (const scheme of ['light', 'dark'] as const) {
      await useScheme(page, scheme);
      await shot(page, `missing-work-bodies-${width}-${scheme}`);
    }
    // Chosen from the field by keyboard: a click scrolls an option that reaches below the
    // window into view first, and a scroll of the page closes the list (React Aria).
    const input = field.getByRole('combobox', { name: 'Body assets' });
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => input.getAttribute('aria-activedescendant'))
      .toBe(await first.getAttribute('id'));
    await page.keyboard.press('Enter');
    await page.locator('#panel-morphed-assets').click();
    const chosen = page.getByRole('grid', { name: 'Body assets' });
    await chosen.waitFor();
    await page.getByRole('button', { name: 'Generate morphed assets' }).click();
    await page.locator('.morph-jobs li').first().waitFor();
    await expect.poll(() => chosen.count()).toBe(0);
    expect(await seriousViolationsInBothSchemes(page)).toEqual([]);
    await page.context().close();
  });
});

describe.each(WIDTHS)('the new asset form at %i px', (width) => {
  it('refuses an animation clip as the model: it has no mesh to show', async () => {
    const page = await signedInAt(app, `${app.server.url}/assets/new`, ADMIN, viewport(width));
    await page.getByLabel('Model (.glb)', { exact: true }).setInputFiles({
      name: 'maleIdle.glb',
      mimeType: 'model/gltf-binary',
      buffer: readFileSync(resolve(AVATARS, 'maleIdle.glb')),
    });
    await page
      .getByText('The model has no mesh to show: it holds only an animation or a skeleton.', {
        exact: false,
      })
      .first()
      .waitFor();
    expect(
      await seriousViolationsInBothSchemes(page, (scheme) =>
        shot(page, `missing-work-no-mesh-${width}-${scheme}`),
      ),
    ).toEqual([]);
    await page.context().close();
  });
});

/**
 * Asset editing end to end: create an asset with a real avatar and icon, each upload
 * rule's error on the page, lock and unlock with the changelog, and a morph job that reaches
 * completed. The real server and the built SPA in Debian's Chromium.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../core/files/format-bytes';
import { ihdrChunk, pngChunk, pngFile } from '../../core/files/png-writer';
import {
  FIXTURES,
  iccpChunk,
  iccProfileV2,
  withChunksAfterIhdr,
} from '../../core/files/test-fixtures';
import { ADMIN, appUnderTest, readyToPick, signedInAt } from '../helpers/app';
import { shot } from '../helpers/shots';

const avatar = (name: string) => readFileSync(resolve(FIXTURES, 'avatars', name));
const pngSuite = (name: string) => readFileSync(resolve(FIXTURES, 'pngsuite', name));

const app = appUnderTest();

/**
 * A page on the assets list; the editing screens are opened from it through the app's links
 * (the server answers /assets/<file> with the build's hashed files, not with the app).
 */
function assetsPage(filter?: { search: string }): Promise<Page> {
  const query = filter ? `?filter=${encodeURIComponent(JSON.stringify(filter))}` : '';
  return signedInAt(app, `${app.server.url}/assets${query}`);
}

/** The new-asset form, opened with the list's "New asset" button. */
async function newAssetPage(): Promise<Page> {
  const page = await assetsPage();
  await page.getByRole('link', { name: 'New asset' }).click();
  await page.getByRole('heading', { name: 'New asset' }).waitFor();
  return page;
}

/** An asset's page, opened from its row in the list. */
async function assetPage(name: string): Promise<Page> {
  const page = await assetsPage({ search: name });
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();
  return page;
}

/** A file for setInputFiles. */
const upload = (name: string, buffer: Uint8Array, mimeType: string) => ({
  name,
  mimeType,
  buffer: Buffer.from(buffer),
});

/** An RGBA 8-bit PNG of `width` × 1 pixels, checksummed like a real encoder's. */
function widePng(width: number): Uint8Array {
  const row = new Uint8Array(1 + width * 4);
  return pngFile([
    ihdrChunk({ width, height: 1, bitDepth: 8, colorType: 6 }),
    pngChunk('IDAT', deflateSync(row)),
    pngChunk('IEND'),
  ]);
}

/** Chooses a stored value in a form's select by the label people read ("male" reads "Male"). */
async function choose(page: Page, field: string, value: string) {
  await page.getByRole('button', { name: new RegExp(`${field}$`) }).click();
  const label = value.charAt(0).toUpperCase() + value.slice(1);
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** Fills the details and picks the files of the new-asset form, then creates it. */
async function createAsset(page: Page, name: string, type: string, model: string) {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await choose(page, 'Type', type);
  await choose(page, 'Gender', 'male');
  await page
    .getByLabel('Model (.glb)', { exact: true })
    .setInputFiles(upload(model, avatar(model), 'model/gltf-binary'));
  await page
    .getByLabel('Icon (PNG)', { exact: true })
    .setInputFiles(upload('basn6a08.png', pngSuite('basn6a08.png'), 'image/png'));
  await page.getByText(model).waitFor();
  await page.getByText('basn6a08.png').waitFor();
  await page.getByRole('button', { name: 'Create asset' }).click();
  await page.waitForURL(/\/assets\/(?!new)[^/?]+$/);
  await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();
  return page.url().split('/').pop() ?? '';
}

/** The changelog section of the asset page. */
const changelog = (page: Page) => page.getByRole('region', { name: 'Changelog' });
/** The toast that says `text`. */
const toast = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Notifications' }).locator('.toast').filter({ hasText: text });

describe('asset editing', () => {
  let assetId = '';

  it('creates an asset with a real avatar and icon, and the changelog shows it', async () => {
    const page = await newAssetPage();
    assetId = await createAsset(page, 'E2E jacket', 'top', 'male-emissive.glb');
    expect(assetId).not.toBe('');
    // Said in a toast; dismissed, so it covers nothing the test presses next.
    const created = toast(page, 'E2E jacket created');
    await created.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => created.count()).toBe(0);

    // The stored files come back as the form's values, and the icon is served.
    await expect
      .poll(() => page.getByLabel('Name', { exact: true }).inputValue())
      .toBe('E2E jacket');
    await changelog(page).getByText('Created', { exact: true }).waitFor();
    const stored = await readAsset(assetId);
    expect(stored.modelUrl).toMatch(/^\/files\//);
    const icon = await fetch(`${app.server.url}${stored.iconUrl}`);
    expect(icon.headers.get('content-type')).toBe('image/png');

    // The stored model shows under its original name and size, and downloads under that name.
    const modelField = page.locator('.file-drop').filter({
      has: page.getByLabel('Model (.glb)', { exact: true }),
    });
    await modelField.getByText('male-emissive.glb', { exact: true }).waitFor();
    await modelField.getByText(formatBytes(avatar('male-emissive.glb').byteLength)).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modelField.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('male-emissive.glb');

    // An edit is saved and says so.
    await page.getByLabel('Description').fill('A test jacket');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    await expect
      .poll(() => changelog(page).getByRole('listitem').first().innerText())
      .toMatch(/^Changed\s+Description/);

    // Leaving with unsaved changes asks first; "Stay" keeps the page and the typed text.
    await page.getByLabel('Description').fill('Not saved yet');
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Assets' })
      .click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect.poll(() => page.getByLabel('Description').inputValue()).toBe('Not saved yet');

    // Form naming rule: removing the icon's file clears iconUrl when saved.
    const iconField = page.locator('.file-drop').filter({
      has: page.getByLabel('Icon (PNG)', { exact: true }),
    });
    await iconField.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    await expect.poll(async () => (await readAsset(assetId)).iconUrl).toBeNull();
    await page.context().close();
  });

  it('shows each upload rule’s error and blocks the submit', async () => {
    const page = await newAssetPage();
    const model = page.getByLabel('Model (.glb)', { exact: true });
    const icon = page.getByLabel('Icon (PNG)', { exact: true });
    const iconError = () =>
      page.locator('.file-drop').filter({ has: icon }).locator('.field-error').innerText();

    await model.setInputFiles(upload('icon.png', pngSuite('basn6a08.png'), 'image/png'));
    // Errors name their file.
    await page.getByText('icon.png: This type of file is not accepted. Accepted: .glb.').waitFor();

    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(pngSuite('basn6a08.png'));
    await icon.setInputFiles(upload('huge.png', big, 'image/png'));
    await expect.poll(iconError).toBe('huge.png: The file must be at most 5 MB.');

    const rules: Array<[string, Uint8Array, string]> = [
      ['wide.png', widePng(1025), 'The image must be at most 1024 × 1024 pixels.'],
      ['basn2c08.png', pngSuite('basn2c08.png'), 'colour type'],
      ['basn6a16.png', pngSuite('basn6a16.png'), 'bits per channel'],
      [
        'adobe.png',
        new Uint8Array(
          await withChunksAfterIhdr(
            'basn6a08.png',
            iccpChunk('Adobe RGB', iccProfileV2('Adobe RGB (1998)')),
          ).arrayBuffer(),
        ),
        'colour profile must be sRGB',
      ],
    ];
    for (const [name, bytes, message] of rules) {
      await icon.setInputFiles(upload(name, bytes, 'image/png'));
      await expect.poll(iconError).toContain(message);
      expect(await iconError()).toMatch(new RegExp(`^${name.replace('.', '\\.')}: `));
    }

    // A file named .glb that is something else is called what it really is.
    await model.setInputFiles(upload('avatar.glb', pngSuite('basn6a08.png'), 'model/gltf-binary'));
    await page
      .getByText('avatar.glb: This file is a PNG image, not a glTF binary model (.glb).')
      .waitFor();
    const text = new TextEncoder().encode('These are notes about an avatar, not the avatar.\n');
    await model.setInputFiles(upload('notes.glb', text, 'model/gltf-binary'));
    await page.getByText('notes.glb: This file is text, not a glTF binary model (.glb).').waitFor();

    // A .glb whose start is overwritten is damaged, not "not accepted".
    const damaged = new Uint8Array(avatar('maleIdle.glb'));
    damaged.fill(0, 0, 64);
    await model.setInputFiles(upload('avatar.glb', damaged, 'model/gltf-binary'));
    await page
      .getByText('avatar.glb: The file is damaged or incomplete and cannot be read.')
      .waitFor();

    // The submit is blocked, and focus goes to the first invalid field (the empty name).
    await page.getByRole('button', { name: 'Create asset' }).click();
    await page.getByText('Please fix the highlighted fields.').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')))
      .toBe('name');
    expect(page.url()).toMatch(/\/assets\/new$/);
    await page.context().close();
  });

  it('locks and unlocks: the form is read-only while locked, the changelog shows both', async () => {
    const page = await assetPage('E2E jacket');
    // The state reads as a badge beside the name either way, and the form shows display labels.
    const badge = page.locator('.asset-page-header .badge');
    expect(await badge.innerText()).toBe('Unlocked');
    expect(await page.getByRole('button', { name: /Gender$/ }).innerText()).toMatch(/^Male/);
    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    // Said in a toast that offers Undo (dismissed here, so the next one of its words is new).
    const locked = toast(page, 'E2E jacket locked');
    await locked.getByRole('button', { name: 'Undo' }).waitFor();
    await locked.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => locked.count()).toBe(0);
    await page.getByText('Locked: this asset cannot be edited').waitFor();
    expect(await badge.innerText()).toBe('Locked');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await changelog(page).getByText('Locked', { exact: true }).waitFor();

    const unlocked = toast(page, 'E2E jacket unlocked');
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    await unlocked.waitFor();
    await changelog(page).getByText('Unlocked', { exact: true }).waitFor();
    await expect.poll(() => page.getByLabel('Name', { exact: true }).isDisabled()).toBe(false);
    // Undo takes the unlock back and says so; that toast's Undo unlocks again.
    await unlocked.getByRole('button', { name: 'Undo' }).click();
    await locked.getByRole('button', { name: 'Undo' }).waitFor();
    await expect.poll(() => badge.innerText()).toBe('Locked');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await locked.getByRole('button', { name: 'Undo' }).click();
    await unlocked.waitFor();
    await expect.poll(() => badge.innerText()).toBe('Unlocked');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).isDisabled()).toBe(false);
    // Readable titles; the routing key is only their tooltip. Two locks, two unlocks.
    await expect.poll(() => changelog(page).locator('[title="asset.locked.v1"]').count()).toBe(4);
    await page.context().close();
  });

  it('after an action the list, the page and the changelog are current without a reload', async () => {
    const page = await assetPage('E2E jacket');
    const row = () => page.getByRole('row').filter({ hasText: 'E2E jacket' });
    const document = await page.evaluateHandle(() => window.document);

    // Locked on its page; Back returns to the list page read before the lock, which shows it.
    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    await page.getByText('Locked: this asset cannot be edited').waitFor();
    await page.goBack();
    await expect.poll(() => row().innerText()).toContain('Locked');

    // Unlocked from the list's row menu; the asset's page opens unlocked.
    await page.getByRole('button', { name: 'Actions: E2E jacket' }).click();
    await page.getByRole('menuitem', { name: 'Unlock' }).click();
    await expect.poll(() => row().innerText()).not.toContain('Locked');
    await row().getByRole('link', { name: 'E2E jacket' }).click();
    await page.getByRole('heading', { name: 'Asset E2E jacket' }).waitFor();
    expect(await page.getByText('Locked: this asset cannot be edited').count()).toBe(0);

    // A tag set on the page is in the changelog at once (newest first, after the unlock).
    const newest = () => changelog(page).getByRole('listitem').first().innerText();
    await expect.poll(newest).toMatch(/^Unlocked/);
    await page.getByRole('combobox', { name: 'Add a tag' }).fill('Vintage');
    await page.getByRole('option', { name: 'Vintage', exact: true }).click();
    // Close the options (while open, the combo box hides the page from role queries).
    await page.locator('#panel-changelog').click();
    await page.getByRole('button', { name: 'Remove Vintage' }).waitFor();
    // Said in a toast with Undo (dismissed, so the removal's toast is the only one).
    const saved = toast(page, 'Tags of E2E jacket saved');
    await saved.getByRole('button', { name: 'Undo' }).waitFor();
    await saved.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => saved.count()).toBe(0);
    // One row per change, saying what changed and who changed it: the save's companion events
    // fold into it.
    await expect.poll(newest).toMatch(/^Changed\s+Tags: added Vintage\s+by admin@avatar\.studio/);
    await page.getByRole('button', { name: 'Remove Vintage' }).click();
    await saved.waitFor();
    await expect.poll(newest).toMatch(/^Changed\s+Tags: removed Vintage\s+by admin@avatar\.studio/);
    expect(await changelog(page).getByText('Tags: added Vintage').count()).toBe(1);
    // No routing key as text (asset.updated.v1, the folded asset.updated.v2).
    expect(await changelog(page).innerText()).not.toMatch(/asset\.[a-z-]+\.v\d/);
    // Undo puts the tag back and says so.
    await saved.getByRole('button', { name: 'Undo' }).click();
    await toast(page, 'Tags of E2E jacket restored').waitFor();
    await page.getByRole('button', { name: 'Remove Vintage' }).waitFor();
    await expect.poll(newest).toMatch(/^Changed\s+Tags: added Vintage/);
    // All of it in the document the page first loaded: no reload.
    expect(await document.evaluate((d) => d === window.document)).toBe(true);
    await page.context().close();
  });

  it('generates a morphed asset onto a body and follows the job to completed', async () => {
    const token = await apiToken();
    const bodyId = await createModelAsset(token);
    const page = await assetPage('E2E jacket');
    const bodies = page.getByRole('combobox', { name: 'Body assets' });
    await readyToPick(page, bodies);
    await bodies.fill('E2E body');
    await page.getByRole('option', { name: 'E2E body' }).click();
    // Close the options by clicking beside them: while open, the combo box hides the rest of
    // the page from assistive technology (and so from role queries).
    await page.locator('#panel-morphed-assets').click();
    await page.getByRole('button', { name: 'Remove E2E body' }).waitFor();
    await page.getByRole('button', { name: 'Generate morphed assets' }).click();
    const job = page.locator('.morph-jobs li').first();
    await expect
      .poll(() => job.getAttribute('data-status'), { timeout: 60_000 })
      .toMatch(/^(completed|failed)$/);
    // On failure this shows the worker's error message.
    expect(await job.innerText()).toContain('Completed');
    await job.getByRole('link', { name: 'Open the morphed asset' }).waitFor();
    // Named, not an id: "<source> on <body>".
    expect(await job.innerText()).toContain('on E2E body');
    expect(await job.innerText()).not.toContain(bodyId);
    await changelog(page).getByText('Morph requested', { exact: true }).waitFor();

    // The morph queue names the job's source and body too, not their ids.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Morph queue' })
      .click();
    const queued = page
      .locator('[role="grid"] [role="row"]:not(.skeleton-row)')
      .filter({ has: page.getByRole('rowheader', { name: 'E2E jacket', exact: true }) });
    await queued.getByRole('gridcell', { name: 'E2E body', exact: true }).waitFor();
    const queuedText = await queued.innerText();
    expect(queuedText).toContain('Completed');
    expect(queuedText).not.toContain(bodyId);
    expect(queuedText).not.toContain(assetId);
    await page.context().close();
  });
});

describe('asset preview', () => {
  it('shows the viewer’s dot loader in the middle of the preview while the viewer loads, then the viewer inside its card at 800 px', async () => {
    const name = 'E2E preview';
    await createModelAsset(await apiToken(), { name, type: 'body', gender: 'male' });
    const page = await assetsPage({ search: name });
    // 800 px: the preview's card is narrower than the viewer's first size (300 px).
    await page.setViewportSize({ width: 800, height: 800 });
    // The viewer's code is held back, so the preview shows what stands in for it. Its dots
    // are measured once the code is asked for: before, the preview (not yet idle) shows dots
    // of its own that the ones of the viewer's loading replace.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = () => {};
    const requested = new Promise<void>((resolve) => (asked = resolve));
    await page.route('**/assets/viewer-*.js', async (route) => {
      asked();
      await held;
      await route.fallback();
    });
    await page.getByRole('link', { name }).click();
    const preview = page.getByRole('region', { name: 'Preview', exact: true });
    const loader = preview.getByRole('progressbar', { name: 'Loading…' });
    await requested;
    await loader.waitFor();
    const box = (await page.locator('.asset-preview').boundingBox())!;
    const middleDot = (await loader.locator('span').nth(1).boundingBox())!;
    expect(Math.abs(middleDot.x + middleDot.width / 2 - (box.x + box.width / 2))).toBeLessThan(2);
    expect(Math.abs(middleDot.y + middleDot.height / 2 - (box.y + box.height / 2))).toBeLessThan(2);
    await shot(preview, 'asset-preview-loader');
    release();

    // The viewer stays inside its card, and the page does not scroll sideways.
    const canvas = preview.locator('canvas');
    await canvas.waitFor();
    const card = (await preview.boundingBox())!;
    const drawn = (await canvas.boundingBox())!;
    expect(drawn.x).toBeGreaterThanOrEqual(card.x);
    expect(drawn.x + drawn.width).toBeLessThanOrEqual(card.x + card.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(800);

    // Deleted from its row's menu in the list, which says so.
    await page.goBack();
    await page.getByRole('button', { name: `Actions: ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, `${name} deleted`).waitFor();
    await expect.poll(() => page.getByRole('rowheader', { name, exact: true }).count()).toBe(0);
    await page.context().close();
  });
});

describe('cage mesh editing', () => {
  it('creates a cage mesh with a model, then edits it', async () => {
    const page = await signedInAt(app, `${app.server.url}/cage-meshes`);
    await page.getByRole('link', { name: 'New cage mesh' }).click();
    await page.getByLabel('Name', { exact: true }).fill('E2E cage');
    await choose(page, 'Gender', 'female');
    await page
      .getByLabel('Model', { exact: true })
      .setInputFiles(upload('halfBodyAPIv2.glb', avatar('halfBodyAPIv2.glb'), 'model/gltf-binary'));
    await page.getByText('halfBodyAPIv2.glb').waitFor();
    await page.getByRole('button', { name: 'Create cage mesh' }).click();
    await page.getByRole('heading', { name: 'Cage mesh E2E cage' }).waitFor();
    expect(page.url()).toMatch(/\/cage-meshes\/(?!new)[^/]+$/);

    await page.getByLabel('Body type').fill('slim');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Body type').inputValue()).toBe('slim');
    // The stored model is kept (its field offers Remove).
    await page
      .locator('.file-drop')
      .filter({ has: page.getByLabel('Model', { exact: true }) })
      .getByRole('button', { name: 'Remove' })
      .waitFor();
    await page.context().close();
  });
});

/** An access token of the admin, for setting up data through the API. */
async function apiToken(): Promise<string> {
  const response = await fetch(`${app.server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await response.json()) as { data: { token: string } }).data.token;
}

/** The stored asset, read through the API. */
async function readAsset(id: string): Promise<{ iconUrl: string | null; modelUrl: string | null }> {
  const response = await fetch(`${app.server.url}/v1/assets/${id}`, {
    headers: { authorization: `Bearer ${await apiToken()}` },
  });
  return ((await response.json()) as { data: { iconUrl: string | null; modelUrl: string | null } })
    .data;
}

/** An asset (by default a body) with a real model (halfBodyAPIv2.glb), created through the API. */
async function createModelAsset(
  token: string,
  fields = { name: 'E2E body', type: 'body', gender: 'female' },
): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const stored = await fetch(`${app.server.url}/v1/uploads/model`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'model/gltf-binary' },
    body: avatar('halfBodyAPIv2.glb'),
  });
  const { url } = ((await stored.json()) as { data: { url: string } }).data;
  const created = await fetch(`${app.server.url}/v1/assets`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...fields, modelUrl: url }),
  });
  expect(created.status).toBe(200);
  return ((await created.json()) as { data: { id: string } }).data.id;
}

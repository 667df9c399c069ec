/**
 * "Generate icon from model" on a server without ICON_RENDERER_URL: the browser renders the
 * icon with the viewer (Chromium with SwiftShader WebGL, every other host blocked), uploads it
 * and sets it on the asset, and the asset list shows it; a model that cannot be drawn is an
 * error that says so. The page also says why "Predict texture" is unavailable.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readImageHeader } from '../../core/files/image-header';
import { UPLOAD_RULES } from '../../core/files/rules';
import { FIXTURES } from '../../core/files/test-fixtures';
import { validateFileContent } from '../../core/files/validate';
import { ADMIN, appUnderTest, signedInPage } from '../helpers/app';
import { opaqueIn, pixelsOf } from '../helpers/pixels';
import { shot } from '../helpers/shots';

const app = appUnderTest({ webgl: true });
let page: Page;
/** Requests the page tried to send to any host but the app's own. */
const foreign: string[] = [];
let token = '';

beforeAll(async () => {
  page = await signedInPage(app);
  page.setDefaultTimeout(60_000);
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol.startsWith('http')) {
      foreign.push(url.href);
      return route.abort();
    }
    return route.fallback();
  });
  const response = await fetch(`${app.server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  token = ((await response.json()) as { data: { token: string } }).data.token;
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${app.server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...init.headers },
  });

/** An asset whose model is `model` (bytes), created through the API; answers its id. */
async function createAsset(name: string, model: Uint8Array): Promise<string> {
  const stored = await api('/v1/uploads/model', {
    method: 'POST',
    headers: { 'content-type': 'model/gltf-binary' },
    body: Buffer.from(model),
  });
  expect(stored.status).toBe(200);
  const { url } = ((await stored.json()) as { data: { url: string } }).data;
  const created = await api('/v1/assets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, type: 'outfit', gender: 'male', modelUrl: url }),
  });
  expect(created.status).toBe(200);
  return ((await created.json()) as { data: { id: string } }).data.id;
}

const iconUrlOf = async (id: string) =>
  ((await (await api(`/v1/assets/${id}`)).json()) as { data: { iconUrl: string | null } }).data
    .iconUrl;

/** The asset's page, opened from its row in the list (as a user gets there). */
async function openAsset(name: string) {
  const filter = encodeURIComponent(JSON.stringify({ search: name }));
  await page.goto(`${app.server.url}/assets?filter=${filter}`);
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { name: `Asset ${name}` }).waitFor();
}

/** Records every text the actions' status line shows, in order. */
function recordStatus() {
  return page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { statusSeen: string[] }).statusSeen = seen;
    const status = document.querySelector('.panel [role="status"]')!;
    new MutationObserver(() => {
      const text = status.textContent ?? '';
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
}
const statusSeen = () =>
  page.evaluate(() => (window as unknown as { statusSeen: string[] }).statusSeen);

/** Opaque pixels in the middle and in the corners of a PNG. */
async function coverage(png: Buffer) {
  const pixels = await pixelsOf(page, png);
  const { width: w, height: h } = pixels;
  const opaque = (x: number, y: number, size: number) => opaqueIn(pixels, x, y, size, size).opaque;
  return {
    middle: opaque(w / 2 - 16, h / 2 - 16, 32),
    corners:
      opaque(0, 0, 16) + opaque(w - 16, 0, 16) + opaque(0, h - 16, 16) + opaque(w - 16, h - 16, 16),
  };
}

describe('generate icon from model, without an icon renderer', () => {
  it('renders a 512 x 512 transparent PNG in the browser, stores it as the icon, and the list shows it', async () => {
    const name = 'Icon from the browser';
    const id = await createAsset(
      name,
      readFileSync(resolve(FIXTURES, 'avatars', 'halfBodyAPIv2.glb')),
    );
    const { modelUrl, modelDelivery } = (
      (await (await api(`/v1/assets/${id}`)).json()) as {
        data: { modelUrl: string; modelDelivery: { status: string; url: string } };
      }
    ).data;
    expect(modelDelivery.status).toBe('ready');
    const models: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.glb')) models.push(pathname);
    });
    await openAsset(name);
    // The preview shows the delivery version, and says what it saves.
    await expect
      .poll(() => page.getByTestId('model-delivery').innerText())
      .toMatch(/^2\.7 MB uploaded, \d+(\.\d)? KB delivered$/);

    // No texture predictor either: its button says why it does nothing.
    const predict = page.getByRole('button', { name: 'Predict texture' });
    // Once the page knows the server's services (GET /v1/services).
    await expect.poll(() => predict.getAttribute('aria-disabled')).toBe('true');
    expect(
      await page.locator(`#${await predict.getAttribute('aria-describedby')}`).innerText(),
    ).toMatch(/no texture predictor/);

    await recordStatus();
    await page.getByRole('button', { name: 'Generate icon from model' }).click();
    await page.getByText('A new icon was generated from the model.').waitFor();
    const seen = await statusSeen();
    expect(seen[0]).toBe('Rendering the icon…');
    expect(seen.some((text) => /^Uploading the icon: \d+ %$/.test(text))).toBe(true);
    expect(seen.at(-1)).toBe('Saving the icon…');

    const iconUrl = await iconUrlOf(id);
    expect(iconUrl).toMatch(/^\/files\//);
    const png = Buffer.from(await (await fetch(`${app.server.url}${iconUrl}`)).arrayBuffer());
    writeFileSync('/tmp/generated-icon.png', png);
    const file = new Blob([png], { type: 'image/png' });
    // What the icon field and the server accept.
    expect(await validateFileContent(file, UPLOAD_RULES.icon)).toBeNull();
    expect(await readImageHeader(file)).toMatchObject({
      ok: true,
      header: { format: 'png', width: 512, height: 512, colorType: 'rgba', bitDepth: 8 },
    });
    // The avatar in the middle, framed with fit, on a transparent background.
    const { middle, corners } = await coverage(png);
    expect(middle).toBeGreaterThan(32 * 32 * 0.5);
    expect(corners).toBe(0);
    // The preview and the icon were drawn from the delivery version, never the upload.
    expect(models).toContain(new URL(modelDelivery.url, app.server.url).pathname);
    expect(models).not.toContain(modelUrl);

    // The list's thumbnail is the new icon, loaded.
    const filter = encodeURIComponent(JSON.stringify({ search: name }));
    await page.goto(`${app.server.url}/assets?filter=${filter}`);
    const thumbnail = page.getByRole('row').filter({ hasText: name }).locator('img.asset-icon');
    await expect(thumbnail.getAttribute('src')).resolves.toBe(iconUrl);
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(512);
    await shot(page, 'generated-icon-list');
    expect(foreign).toEqual([]);
  });

  it('says the model could not be rendered, and keeps the asset as it was', async () => {
    // A glTF binary header the upload accepts, around a JSON chunk no loader can read.
    const json = new TextEncoder().encode('{ no');
    const glb = new Uint8Array(12 + 8 + json.length);
    const view = new DataView(glb.buffer);
    view.setUint32(0, 0x46546c67, true);
    view.setUint32(4, 2, true);
    view.setUint32(8, glb.length, true);
    view.setUint32(12, json.length, true);
    view.setUint32(16, 0x4e4f534a, true);
    glb.set(json, 20);
    const name = 'Icon from a broken model';
    const id = await createAsset(name, glb);
    await openAsset(name);
    await page.getByRole('button', { name: 'Generate icon from model' }).click();
    const alert = page.getByText(/^The icon could not be made: the model could not be rendered/);
    await alert.waitFor();
    expect(await iconUrlOf(id)).toBeNull();
    // The hidden viewer is gone again.
    await expect(page.locator('[data-icon-renderer]').count()).resolves.toBe(0);
  });
});

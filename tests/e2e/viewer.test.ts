import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { startServer, type TestServer } from '../helpers/server';

const FIXTURES = resolve('..', 'shared', 'fixtures');
const AVATARS = resolve(FIXTURES, 'avatars');
/** Avatar files only: animation clips and the spawn effect are not avatars. */
const AVATAR_FILES = readdirSync(AVATARS).filter(
  (f) => f.endsWith('.glb') && !/idle|animation|spawn-effect|draco/i.test(f),
);
const SIZE = { width: 320, height: 320 };

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser({ webgl: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Session {
  page: Page;
  context: BrowserContext;
  /** Requests the page tried to send to any host but the app's own. */
  foreign: string[];
  warnings: string[];
}

/** A context whose /fixtures/* come from ../shared/fixtures and every other host is blocked. */
async function fixtureContext() {
  const context = await browser.newContext(SIZE);
  const foreign: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol.startsWith('http')) {
      foreign.push(url.href);
      return route.abort();
    }
    if (url.pathname.startsWith('/fixtures/')) {
      return route.fulfill({
        body: readFileSync(resolve(FIXTURES, url.pathname.slice('/fixtures/'.length))),
        contentType: 'model/gltf-binary',
      });
    }
    return route.fallback();
  });
  return { context, foreign };
}

/** /embed with `query` in such a context. */
async function open(query: string): Promise<Session> {
  const { context, foreign } = await fixtureContext();
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.goto(`${server.url}/embed?${query}`);
  return { page, context, foreign, warnings };
}

const viewer = (page: Page) => page.getByRole('img', { name: '3D avatar viewer' });

async function waitForState(page: Page, state: string) {
  await page.locator(`[data-state="${state}"]`).waitFor({ timeout: 90_000 });
}

/** Opaque pixels in the middle tenth of a PNG screenshot of the canvas. */
async function centreOpaquePixels(page: Page): Promise<number> {
  const png = await page.locator('canvas').screenshot({ omitBackground: true });
  return page.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(
      await (await fetch(`data:image/png;base64,${b64}`)).blob(),
    );
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const w = Math.round(bitmap.width / 10);
    const h = Math.round(bitmap.height / 10);
    const { data } = ctx.getImageData((bitmap.width - w) / 2, (bitmap.height - h) / 2, w, h);
    let opaque = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 200) opaque++;
    return opaque;
  }, png.toString('base64'));
}

const shot = (page: Page) => page.locator('canvas').screenshot({ omitBackground: true });

describe('the embeddable avatar viewer', () => {
  it.each(AVATAR_FILES)('spawns %s and paints it in the middle of the canvas', async (file) => {
    const { page, context, foreign } = await open(`modelSrc=/fixtures/avatars/${file}&fit=true`);
    await expect(viewer(page).getAttribute('data-state')).resolves.toMatch(/loading|spawn/);
    await waitForState(page, 'spawned');
    expect(await centreOpaquePixels(page)).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('rotates the avatar when dragged, and changes the face with an emotion', async () => {
    const model = 'modelSrc=/fixtures/avatars/male-emissive.glb&fit=true';
    const { page, context } = await open(model);
    await waitForState(page, 'spawned');
    const before = await shot(page);
    const box = (await viewer(page).boundingBox())!;
    await page.mouse.move(box.x + 100, box.y + 160);
    await page.mouse.down();
    await page.mouse.move(box.x + 220, box.y + 160, { steps: 4 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    expect((await shot(page)).equals(before)).toBe(false);

    const smiling = await open(`${model}&emotion=${encodeURIComponent('{"mouthOpen":1}')}`);
    await waitForState(smiling.page, 'spawned');
    expect((await shot(smiling.page)).equals(before)).toBe(false);
    await smiling.context.close();
    await context.close();
  });

  it('plays a spawn effect to its end: spawning, then spawned', async () => {
    const { page, context } = await open(
      'modelSrc=/fixtures/avatars/male-emissive.glb&fit=true&spawnEffect=/fixtures/avatars/spawn-effect.glb',
    );
    await waitForState(page, 'spawning');
    await waitForState(page, 'spawned');
    await context.close();
  });

  it('loads the Draco-compressed avatar with every other host blocked', async () => {
    const { page, context, foreign } = await open(
      'modelSrc=/fixtures/avatars/male-emissive.draco.glb&fit=true',
    );
    await waitForState(page, 'spawned');
    expect(await centreOpaquePixels(page)).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('warns about an invalid source and paints nothing', async () => {
    const { page, context, warnings } = await open('modelSrc=/fixtures/avatars/readme.txt');
    await expect
      .poll(() => warnings)
      .toContain('Provided GLB/FBX is invalid. Check docs for supported formats');
    await expect(page.locator('canvas').count()).resolves.toBe(0);
    await context.close();
  });

  it('shows the error state for a model that does not exist', async () => {
    const { page, context } = await open('modelSrc=/missing/avatar.glb');
    await waitForState(page, 'error');
    await page.getByRole('alert').waitFor();
    await context.close();
  });

  it('draws ambient occlusion (ao=Combined, quality=Low) from its lazy chunk', async () => {
    const { page, context, foreign, warnings } = await open(
      'modelSrc=/fixtures/avatars/male-emissive.glb&fit=true&ao=Combined&quality=Low',
    );
    await waitForState(page, 'spawned');
    const loadedPostEffects = () =>
      page.evaluate(() =>
        performance.getEntriesByType('resource').some((e) => /post-effects/.test(e.name)),
      );
    await expect.poll(loadedPostEffects).toBe(true);
    await expect.poll(() => centreOpaquePixels(page), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
    expect(warnings.filter((w) => /Environment/.test(w))).toEqual([]);
    await context.close();
  });

  it('tells the embedding page: loaded, then spawnFinished', async () => {
    const { context } = await fixtureContext();
    const page = await context.newPage();
    // A same-origin parent page. A parent faked with page.route (no real address) framing
    // 127.0.0.1 is refused by Chromium's Local Network Access checks
    // (ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS), which says nothing about /embed itself.
    await page.goto(`${server.url}/healthz`);
    await page.evaluate((src) => {
      const seen: unknown[] = [];
      (window as unknown as { seen: unknown[] }).seen = seen;
      window.addEventListener('message', (event) => seen.push(event.data));
      const frame = document.createElement('iframe');
      frame.src = src;
      frame.width = frame.height = '320';
      document.body.append(frame);
    }, `${server.url}/embed?modelSrc=/fixtures/avatars/male-emissive.glb&fit=true`);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seen: unknown[] }).seen), {
        timeout: 60_000,
      })
      .toEqual([{ type: 'loaded' }, { type: 'spawnFinished' }]);
    await context.close();
  });
});

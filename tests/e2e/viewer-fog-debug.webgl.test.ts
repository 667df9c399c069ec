/**
 * The viewer's fog and debug options (spec §8): fog moves the avatar's colours toward the fog
 * colour; an unsupported fog type is logged and the avatar drawn without fog; debug mode is
 * shows the GPU time per frame where the WebGL2 timer-query extension is available (SwiftShader
 * in headless Chromium has it) and is disabled, with a message, where it is not (hidden here).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBUG_UNAVAILABLE_WARNING, TIMER_QUERY_EXTENSION } from '../../src/ui/canvas/gpu-timer';
import { appUnderTest } from '../helpers/app';
import { serveFixtures } from '../helpers/browser';
import { pixelsOf, type Pixels } from '../helpers/pixels';

const MODEL = 'modelSrc=/fixtures/avatars/male-emissive.glb&fit=true';
const RED_FOG = { type: 'linear', color: '#ff0000', near: 1, far: 6 };

const app = appUnderTest({ webgl: true });

/** The mean colour (0..255 per channel) of the opaque pixels, and how many there are. */
function meanColour({ data }: Pixels) {
  const sum = [0, 0, 0];
  let count = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3]! < 255) continue;
    count++;
    for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
  }
  const [r, g, b] = sum.map((s) => s / count) as [number, number, number];
  return { count, r, g, b };
}

/** Init script: a browser without the timer-query extension. */
function withoutTimerQueries(name: string) {
  const proto = WebGL2RenderingContext.prototype as unknown as Record<
    'getExtension',
    (this: WebGL2RenderingContext, wanted: string) => unknown
  >;
  const getExtension = proto.getExtension;
  proto.getExtension = function (wanted) {
    return wanted === name ? null : getExtension.call(this, wanted);
  };
}

describe('fog and debug mode on /embed', () => {
  let page: Page;
  /** The page's console warnings and errors about fog or debug mode. */
  const messages: string[] = [];

  /**
   * /embed with the model and `options`, until the avatar has spawned; then the canvas' own
   * picture once two reads a moment apart agree (not a screenshot: no overlay in it).
   */
  async function show(options: string) {
    messages.length = 0;
    await page.goto(`${app.server.url}/embed?${MODEL}&${options}`);
    await page.locator('[data-state="spawned"]').waitFor({ timeout: 90_000 });
    const read = () => page.locator('canvas').evaluate((c: HTMLCanvasElement) => c.toDataURL());
    let picture = await read();
    for (let i = 0; i < 20; i++) {
      await page.waitForTimeout(200);
      const next = await read();
      if (next === picture) break;
      picture = next;
    }
    return meanColour(await pixelsOf(page, Buffer.from(picture.split(',')[1]!, 'base64')));
  }

  beforeAll(async () => {
    const context = await app.browser.newContext({ width: 320, height: 320 });
    await serveFixtures(context);
    page = await context.newPage();
    page.setDefaultTimeout(90_000);
    page.on('console', (message) => {
      const text = message.text();
      if (/fog|debug/i.test(text)) messages.push(text);
    });
  }, 60_000);
  afterAll(() => page?.context().close());

  it('fogs the avatar toward the fog colour; an unsupported type is logged and draws none; debug mode shows the GPU time, and is disabled with a message without the timer-query extension', async () => {
    // SwiftShader has the timer-query extension: debug mode shows the GPU time.
    const unsupported = encodeURIComponent(JSON.stringify({ type: 'volumetric', color: '#f00' }));
    const plain = await show(`fog=${unsupported}&debug=true`);
    // (The address is read twice: to preload, then to render.)
    expect(new Set(messages)).toEqual(
      new Set([
        `/embed: ignoring invalid fog={"type":"volumetric","color":"#f00"}: unsupported fog type "volumetric": the supported types are "linear" and "exponential"`,
      ]),
    );
    const time = page.getByRole('status', { name: 'GPU time per frame' });
    await expect(time.textContent()).resolves.toMatch(/^GPU \d+\.\d\d ms$/);
    // The avatar is drawn, in its own colours.
    expect(plain.count).toBeGreaterThan(5000);

    // Without the extension: red linear fog, and debug mode disabled.
    await page.context().addInitScript(withoutTimerQueries, TIMER_QUERY_EXTENSION);
    const fogged = await show(`fog=${encodeURIComponent(JSON.stringify(RED_FOG))}&debug=true`);
    expect(messages).toEqual([DEBUG_UNAVAILABLE_WARNING]);
    await expect(page.getByRole('status').count()).resolves.toBe(0);
    // The same avatar, its colours pulled toward the fog's red.
    expect(Math.abs(fogged.count - plain.count)).toBeLessThan(plain.count * 0.02);
    // (Measured: red 46 -> 105, green 42 -> 30, blue 55 -> 40.)
    expect(fogged.r - plain.r).toBeGreaterThan(40);
    expect(plain.g - fogged.g).toBeGreaterThan(5);
    expect(plain.b - fogged.b).toBeGreaterThan(5);
  }, 240_000);
});

/**
 * The environment presets come prefiltered from the build (.pmrem, scripts/prefilter-environment.ts)
 * and any other .exr/.hdr is prefiltered the same way in a worker: the viewer never runs
 * three.js's PMREMGenerator for them, and the avatar is lit as when three.js prefilters the same
 * preset's EXR on the first frame (what the viewer does where no worker can run).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stablePixels } from '../helpers/pixels';
import { appUnderTest } from '../helpers/app';
import { serveFixtures } from '../helpers/browser';

const MODEL = 'modelSrc=/fixtures/avatars/male-emissive.glb&fit=true';
const SIZE = { width: 320, height: 320 };

const app = appUnderTest({ webgl: true });

/** An /embed page with its avatar on screen, and what it did until then. */
interface Visit {
  page: Page;
  close: () => Promise<unknown>;
  /** Paths of the environment files it fetched. */
  environments: string[];
  /** Names of the shader programs it compiled (three.js's SHADER_NAME). */
  shaders: string[];
  /** ms from the navigation to the spawned state (the avatar's first frame is on screen). */
  spawnedMs: number;
  /** The longest task (ms) on the page's main thread until then. */
  longestTaskMs: number;
}

/** Init script: notes shader names, the longest task and when the viewer says `spawned`. */
function probe() {
  const names = new Set<string>();
  const w = window as unknown as {
    shaderNames: () => string[];
    longestTask: number;
    spawnedAt?: number;
  };
  w.shaderNames = () => [...names];
  w.longestTask = 0;
  const proto = WebGL2RenderingContext.prototype as unknown as Record<
    'shaderSource',
    (this: WebGL2RenderingContext, shader: WebGLShader, source: string) => void
  >;
  const shaderSource = proto.shaderSource;
  proto.shaderSource = function (shader, source) {
    const name = /#define SHADER_NAME (\S+)/.exec(source)?.[1];
    if (name) names.add(name);
    shaderSource.call(this, shader, source);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.longestTask = Math.max(w.longestTask, entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver(() => {
    if (w.spawnedAt === undefined && document.querySelector('[data-state="spawned"]')) {
      w.spawnedAt = performance.now();
    }
  }).observe(document, { subtree: true, attributes: true, childList: true });
}

/**
 * /embed with `environment` (none: the default) in a fresh context, until it has spawned;
 * `workers: false` takes Worker away from the page, as a Content-Security-Policy could.
 */
async function visit(environment?: string, { workers = true } = {}): Promise<Visit> {
  const context = await app.browser.newContext(SIZE);
  if (!workers) await context.addInitScript('window.Worker = undefined;');
  await serveFixtures(context);
  await context.addInitScript(probe);
  const page = await context.newPage();
  page.setDefaultTimeout(90_000);
  const environments: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/environments/')) environments.push(path);
  });
  const query = environment ? `${MODEL}&environment=${encodeURIComponent(environment)}` : MODEL;
  await page.goto(`${app.server.url}/embed?${query}`);
  await page.locator('[data-state="spawned"]').waitFor({ timeout: 90_000 });
  const measured = await page.evaluate(() => {
    const w = window as unknown as {
      longestTask: number;
      spawnedAt: number;
      shaderNames: () => string[];
    };
    return { spawnedMs: w.spawnedAt, longestTaskMs: w.longestTask, shaders: w.shaderNames() };
  });
  return { page, close: () => context.close(), environments, ...measured };
}

/**
 * Over the pixels opaque in both pictures (0..255 per channel): how far their mean colours are
 * apart (the largest channel), and the mean difference of a pixel.
 */
function difference(a: Buffer, b: Buffer) {
  const sumA = [0, 0, 0];
  const sumB = [0, 0, 0];
  let perPixel = 0;
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i + 3]! < 255 || b[i + 3]! < 255) continue;
    count++;
    for (let c = 0; c < 3; c++) {
      sumA[c]! += a[i + c]!;
      sumB[c]! += b[i + c]!;
      perPixel += Math.abs(a[i + c]! - b[i + c]!) / 3;
    }
  }
  return {
    count,
    meanColour: Math.max(...sumA.map((sum, c) => Math.abs(sum - sumB[c]!) / count)),
    meanPixel: perPixel / count,
  };
}

describe('the prefiltered environments', () => {
  // city, the default preset, as the build ships it; its EXR, which the viewer prefilters in a
  // worker; and the EXR again on a page without workers, where three.js prefilters it.
  let preset: Visit;
  let exr: Visit;
  let three: Visit;
  let presetPixels: Buffer;
  let exrPixels: Buffer;
  let threePixels: Buffer;
  beforeAll(async () => {
    preset = await visit();
    presetPixels = (await stablePixels(preset.page)).data;
    exr = await visit('/environments/city.exr');
    exrPixels = (await stablePixels(exr.page)).data;
    three = await visit('/environments/city.exr', { workers: false });
    threePixels = (await stablePixels(three.page)).data;
    console.log(
      `first frame on SwiftShader: prefiltered preset ${preset.spawnedMs.toFixed(0)} ms ` +
        `(longest task ${preset.longestTaskMs} ms), EXR prefiltered in a worker ` +
        `${exr.spawnedMs.toFixed(0)} ms (longest task ${exr.longestTaskMs} ms), by three.js ` +
        `${three.spawnedMs.toFixed(0)} ms (longest task ${three.longestTaskMs} ms)`,
    );
  }, 240_000);
  afterAll(() => Promise.all([preset?.close(), exr?.close(), three?.close()]));

  it('loads each file once and runs no prefiltering on the page', () => {
    expect(preset.environments).toEqual(['/environments/city.pmrem']);
    expect(exr.environments).toEqual(['/environments/city.exr']);
    for (const { shaders } of [preset, exr]) {
      expect(shaders.filter((name) => name.startsWith('PMREM'))).toEqual([]);
    }
    // Without a worker the page prefilters the EXR on its first frame (what the probe would see).
    expect(three.environments).toEqual(['/environments/city.exr']);
    expect(three.shaders).toEqual(expect.arrayContaining(['PMREMGGXConvolution']));
  });

  it("lights the avatar as three.js's own prefiltering of the EXR does", () => {
    // The avatar covers the same pixels; its colours differ by under 1 of 255 (measured: about
    // 0.3 in the mean colour, 0.5 per pixel), while another preset moves them by tens.
    for (const pixels of [presetPixels, exrPixels]) {
      const { count, meanColour, meanPixel } = difference(pixels, threePixels);
      expect(count).toBeGreaterThan(5000);
      expect(meanColour).toBeLessThan(1);
      expect(meanPixel).toBeLessThan(1.5);
    }
  });

  it('lights it differently with another preset (the comparison sees lighting)', async () => {
    const other = await visit('sunset');
    const pixels = (await stablePixels(other.page)).data;
    await other.close();
    expect(other.environments).toEqual(['/environments/sunset.pmrem']);
    expect(difference(pixels, threePixels).meanPixel).toBeGreaterThan(5);
  });
});

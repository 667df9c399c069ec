import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, blankPage } from '../helpers/app';
import { opaqueIn, pixelsOf, type Pixels } from '../helpers/pixels';
import { ENVIRONMENT_PRESET_FILES } from '../../core/environment-presets';
import { shot as picture } from '../helpers/shots';

const FIXTURES = resolve('..', 'shared', 'fixtures');
const AVATARS = resolve(FIXTURES, 'avatars');
/** Avatar files only: animation clips and the spawn effect are not avatars. */
const AVATAR_FILES = readdirSync(AVATARS).filter(
  (f) => f.endsWith('.glb') && !/idle|animation|spawn-effect|draco/i.test(f),
);
const SIZE = { width: 320, height: 320 };

const app = appUnderTest({ webgl: true });

interface Session {
  page: Page;
  context: BrowserContext;
  /** Requests the page tried to send to any host but the app's own. */
  foreign: string[];
  warnings: string[];
}

/**
 * The embedding page of the framed tests, at the app's own address. The server's answers
 * (/healthz too) carry a Content-Security-Policy that frames nothing, so the test serves it.
 */
const PARENT_PATH = '/test-parent.html';

/**
 * A context whose /fixtures/* come from ../shared/fixtures, whose PARENT_PATH is an empty page,
 * and in which every other host is blocked.
 */
async function fixtureContext() {
  const page = await blankPage(app, SIZE);
  page.setDefaultTimeout(60_000);
  const context = page.context();
  const foreign: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol.startsWith('http')) {
      foreign.push(url.href);
      return route.abort();
    }
    if (url.pathname === PARENT_PATH) {
      return route.fulfill({
        body: '<!doctype html><title>Parent</title>',
        contentType: 'text/html',
      });
    }
    if (url.pathname.startsWith('/fixtures/')) {
      return route.fulfill({
        body: readFileSync(resolve(FIXTURES, url.pathname.slice('/fixtures/'.length))),
        contentType: 'model/gltf-binary',
      });
    }
    return route.fallback();
  });
  return { context, page, foreign };
}

/** /embed with `query` in such a context. */
async function open(query: string): Promise<Session> {
  const { context, page, foreign } = await fixtureContext();
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.goto(`${app.server.url}/embed?${query}`);
  return { page, context, foreign, warnings };
}

/** A page, or the /embed iframe of a parent page. */
type Surface = Page | Frame;

const viewer = (surface: Surface) => surface.getByRole('img', { name: '3D avatar viewer' });

async function waitForState(surface: Surface, state: string) {
  await surface.locator(`[data-state="${state}"]`).waitFor({ timeout: 90_000 });
}

const shot = (surface: Surface) => surface.locator('canvas').screenshot({ omitBackground: true });

/**
 * The canvas's pixels as the page reads them (a PNG data URL; the viewer keeps its drawing
 * buffer): while the viewer draws every frame (floating), a screenshot waits seconds for the
 * compositor in SwiftShader, this a few milliseconds. (Polling it while an animation runs to
 * its end, as snapping back does, takes the main thread from the animation: no faster.)
 */
const canvasPicture = (surface: Surface) =>
  surface.evaluate(() => document.querySelector('canvas')!.toDataURL());

/**
 * The middle tenth of a PNG (base64): how many pixels are opaque and their mean brightness
 * (0..255).
 */
async function centreOf(surface: Surface, pngBase64: string) {
  const pixels = await pixelsOf(surface, Buffer.from(pngBase64, 'base64'));
  const [w, h] = [Math.round(pixels.width / 10), Math.round(pixels.height / 10)];
  return opaqueIn(pixels, (pixels.width - w) / 2, (pixels.height - h) / 2, w, h);
}

/** Opaque pixels in the middle tenth of a PNG (base64). */
async function centreOpaqueIn(surface: Surface, pngBase64: string): Promise<number> {
  return (await centreOf(surface, pngBase64)).opaque;
}

/** Opaque pixels in the middle tenth of a screenshot of the canvas. */
async function centreOpaquePixels(surface: Surface): Promise<number> {
  return centreOpaqueIn(surface, (await shot(surface)).toString('base64'));
}

/** Drags across the viewer from its centre by (dx, dy) pixels; `release: false` keeps holding. */
async function drag(page: Page, surface: Surface, dx: number, dy: number, release = true) {
  const box = (await viewer(surface).boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  if (release) await page.mouse.up();
}

/**
 * Drags one finger across the viewer from its centre by (dx, dy) pixels, as a touch screen
 * does (CDP touch events: the browser applies touch-action and may take the gesture over).
 * The finger stays down: it returns the lifting of it.
 */
async function touchDrag(page: Page, surface: Surface, dx: number, dy: number) {
  const box = (await viewer(surface).boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const cdp = await page.context().newCDPSession(page);
  const touch = (
    type: 'touchStart' | 'touchMove' | 'touchEnd',
    touchPoints: { x: number; y: number }[],
  ) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
  await touch('touchStart', [{ x, y }]);
  for (let step = 1; step <= 4; step++) {
    await touch('touchMove', [{ x: x + (dx * step) / 4, y: y + (dy * step) / 4 }]);
  }
  return () => touch('touchEnd', []).then(() => cdp.detach());
}

/** Lets the viewer draw what the last input asked for (it renders on demand, a few frames). */
const settle = (surface: Surface) =>
  surface.evaluate(
    () =>
      new Promise<void>((done) => {
        let frames = 6;
        const next = () => (--frames === 0 ? done() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
  );

/** WebGL objects alive and draw calls made, counted in every frame of a context. */
interface GlCounters {
  buffers: number;
  textures: number;
  draws: number;
}

/** Init script: wraps WebGL2's create/delete and draw calls to keep GlCounters. */
function countWebGl() {
  const buffers = new Set<unknown>();
  const textures = new Set<unknown>();
  let draws = 0;
  (window as unknown as { glCounters: () => GlCounters }).glCounters = () => ({
    buffers: buffers.size,
    textures: textures.size,
    draws,
  });
  const proto = WebGL2RenderingContext.prototype as unknown as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  const wrap = (name: string, after: (result: unknown, args: unknown[]) => void) => {
    const original = proto[name]!;
    proto[name] = function (this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      after(result, args);
      return result;
    };
  };
  wrap('createBuffer', (buffer) => buffers.add(buffer));
  wrap('deleteBuffer', (_, [buffer]) => buffers.delete(buffer));
  wrap('createTexture', (texture) => textures.add(texture));
  wrap('deleteTexture', (_, [texture]) => textures.delete(texture));
  for (const name of [
    'drawArrays',
    'drawElements',
    'drawArraysInstanced',
    'drawElementsInstanced',
  ]) {
    wrap(name, () => draws++);
  }
}

const glCounters = (surface: Surface) =>
  surface.evaluate(() => (window as unknown as { glCounters: () => GlCounters }).glCounters());

/** Draw calls the viewer makes during `ms` milliseconds. */
async function drawsDuring(surface: Surface, ms: number) {
  const before = (await glCounters(surface)).draws;
  await surface.evaluate((wait) => new Promise((done) => setTimeout(done, wait)), ms);
  return (await glCounters(surface)).draws - before;
}

interface Framed {
  page: Page;
  frame: Frame;
  context: BrowserContext;
  foreign: string[];
  /** Every message /embed posted to the parent, in order. */
  messages: () => Promise<{ type: string; dataUrl?: string | null; message?: string }[]>;
}

/**
 * /embed with `query` in an iframe filling a same-origin parent page (PARENT_PATH), which
 * records the messages the viewer posts; `prepare` sets up the context before the page
 * opens. (A parent faked with page.route at another address framing
 * 127.0.0.1 is refused by Chromium's Local Network Access checks
 * (ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS), which says nothing about /embed itself.)
 */
async function openFramed(
  query: string,
  prepare?: (context: BrowserContext) => Promise<unknown>,
): Promise<Framed> {
  const { context, page, foreign } = await fixtureContext();
  await prepare?.(context);
  await context.addInitScript(countWebGl);
  await page.goto(`${app.server.url}${PARENT_PATH}`);
  await page.evaluate((src) => {
    const seen: unknown[] = [];
    const drawnAt: { type: string; drawn: boolean }[] = [];
    Object.assign(window, { seen, drawnAt });
    window.addEventListener('message', (event: MessageEvent<{ type: string }>) => {
      seen.push(event.data);
      // Whether the avatar was on the canvas when the message came (read back from it).
      const canvas = document.querySelector('iframe')?.contentDocument?.querySelector('canvas');
      drawnAt.push({ type: event.data.type, drawn: canvas ? centreDrawn(canvas) : false });
    });
    function centreDrawn(canvas: HTMLCanvasElement) {
      const probe = document.createElement('canvas');
      probe.width = probe.height = 1;
      const context = probe.getContext('2d')!;
      context.drawImage(canvas, canvas.width / 2, canvas.height / 2, 1, 1, 0, 0, 1, 1);
      return context.getImageData(0, 0, 1, 1).data[3]! > 0;
    }
    const frame = document.createElement('iframe');
    frame.src = src;
    frame.style.cssText = 'position: fixed; inset: 0; width: 100%; height: 100%; border: 0';
    document.body.append(frame);
  }, `${app.server.url}/embed?${query}`);
  const frame = (await (await page.waitForSelector('iframe')).contentFrame())!;
  const messages = () =>
    page.evaluate(() => (window as unknown as { seen: { type: string }[] }).seen.slice());
  return { page, frame, context, foreign, messages };
}

/**
 * Changes /embed's query in place, as a step through the frame's history does (the page follows
 * popstate): the viewer keeps its canvas and its loaded models, as when an app changes the
 * component's props.
 */
async function setQuery(frame: Surface, query: string) {
  await frame.evaluate((q) => {
    history.pushState(history.state, '', `/embed?${q}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, query);
  await settle(frame);
}

/**
 * The viewer's picture once it has changed from `before` (a new option takes a few frames, or
 * a download) and then stays as it is.
 */
async function changedPicture(surface: Surface, before: Buffer): Promise<Buffer> {
  await expect.poll(async () => (await shot(surface)).equals(before)).toBe(false);
  return stablePicture(surface);
}

/** The viewer's picture once two shots a few frames apart are the same. */
async function stablePicture(surface: Surface): Promise<Buffer> {
  let previous = await shot(surface);
  for (let i = 0; i < 20; i++) {
    await settle(surface);
    const next = await shot(surface);
    if (next.equals(previous)) return next;
    previous = next;
  }
  throw new Error('The picture keeps changing');
}

/** A PNG's pixels (RGBA, row by row), decoded in the browser. */
/** Pixels of `a` and `b` in columns [from, to) that are not the same. */
function differingPixels(a: Pixels, b: Pixels, from = 0, to = a.width): number {
  let count = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = from; x < to; x++) {
      const i = (y * a.width + x) * 4;
      if (a.data.readUInt32BE(i) !== b.data.readUInt32BE(i)) count++;
    }
  }
  return count;
}

/** The opaque pixels of a picture: count, mean brightness, greys, and grain (high frequency). */
function opaqueStats({ width, height, data }: Pixels) {
  let opaque = 0;
  let brightness = 0;
  let grey = 0;
  let grain = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (data[i + 3]! < 255) continue;
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      opaque++;
      brightness += (r + g + b) / 3;
      if (Math.max(r, g, b) - Math.min(r, g, b) <= 1) grey++;
      // The step to the right-hand neighbour, where that is opaque too.
      if (x + 1 < width && data[i + 7] === 255) grain += Math.abs(data[i + 4]! - r);
    }
  }
  return { opaque, brightness: brightness / opaque, grey: grey / opaque, grain: grain / opaque };
}

/** Pairs of `pictures` (by name) that are the same, pixel for pixel: none, when each differs. */
function samePictures(pictures: Map<string, Buffer>): string[] {
  const entries = [...pictures];
  return entries.flatMap(([a, first], i) =>
    entries.slice(i + 1).flatMap(([b, second]) => (first.equals(second) ? [`${a} = ${b}`] : [])),
  );
}

const MODEL = 'modelSrc=/fixtures/avatars/male-emissive.glb&fit=true';
// prettier-ignore
const SPEC_PRESETS = ['hub', 'sunset', 'dawn', 'night', 'warehouse', 'forest', 'apartment', 'studio', 'city', 'park', 'lobby'];
/**
 * The memory test switches between the two lightest fixtures (about 0.2 s a switch in
 * SwiftShader, where every switch compiles the shaders again): a skinned avatar without
 * textures (bone textures) and the textured spawn effect.
 */
const SWITCH_MODELS = ['female-animation-catwalk.glb', 'spawn-effect.glb'].map(
  (file) => `modelSrc=/fixtures/avatars/${file}&fit=true`,
);

describe('the embeddable avatar viewer', () => {
  // Each avatar on a page of its own: /embed asks for the model and the environment (city, the
  // default) with the page, before any script, once each, and paints the model once spawned.
  it.each(AVATAR_FILES)(
    'spawns %s and paints it in the middle of the canvas, the model and the environment asked for with the page',
    async (file) => {
      const { context, page, foreign } = await fixtureContext();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(new URL(request.url()).pathname));
      await page.goto(`${app.server.url}/embed?modelSrc=/fixtures/avatars/${file}&fit=true`);
      await expect(viewer(page).getAttribute('data-state')).resolves.toMatch(/loading|spawn/);
      await waitForState(page, 'spawned');
      expect(await centreOpaquePixels(page)).toBeGreaterThan(0);
      expect(foreign).toEqual([]);
      const model = `/fixtures/avatars/${file}`;
      const environment = '/environments/city.pmrem';
      expect(requests.filter((path) => path === model)).toHaveLength(1);
      expect(requests.filter((path) => path === environment)).toHaveLength(1);
      const firstScript = requests.findIndex((path) => path.endsWith('.js'));
      expect(requests.indexOf(model)).toBeLessThan(firstScript);
      expect(requests.indexOf(environment)).toBeLessThan(firstScript);
      await context.close();
    },
  );

  it.each([
    ['a preset', '**/environments/*', ''],
    // Fetched and prefiltered by the worker while the avatar's shaders compile against a
    // stand-in environment (src/ui/canvas/warm-up.tsx), which must never be what is seen.
    ['an .hdr file', '**/*.hdr', '&environment=/fixtures/environments/soft.hdr'],
  ])(
    'lights the avatar from its first frame, also when %s arrives late',
    async (_, files, query) => {
      const { context, page } = await fixtureContext();
      // The environment file answers well after the model, as on a slow connection.
      await context.route(files, async (route) => {
        await new Promise((done) => setTimeout(done, 1500));
        await route.fallback();
      });
      await page.goto(
        `${app.server.url}/embed?modelSrc=/fixtures/avatars/male-emissive.glb&fit=true${query}`,
      );
      await waitForState(page, 'spawned');
      const first = await centreOf(page, (await shot(page)).toString('base64'));
      await page.waitForTimeout(2000);
      await settle(page);
      const later = await centreOf(page, (await shot(page)).toString('base64'));
      expect(first.opaque).toBeGreaterThan(0);
      expect(Math.abs(first.brightness - later.brightness)).toBeLessThan(3);
      await context.close();
    },
  );

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
});

/** Posts `message` from the parent page to the /embed iframe (`model`: a fixture as a Blob). */
function postToFrame(page: Page, message: Record<string, unknown>, model?: string) {
  return page.evaluate(
    async ({ message, model }) => {
      const modelSrc = model ? await (await fetch(`/fixtures/avatars/${model}`)).blob() : undefined;
      const frame = document.querySelector('iframe')!.contentWindow!;
      frame.postMessage(modelSrc ? { ...message, modelSrc } : message, '*');
    },
    { message, model },
  );
}

const types = async (framed: Framed) => (await framed.messages()).map((m) => m.type);

/**
 * One framed viewer of male-emissive.glb for every option that can change on a live viewer,
 * and for messages that must change nothing: each test sets the query it needs (the viewer
 * keeps its canvas and models), so the file pays for one page load instead of one per option.
 * Tests run in order; each takes its own "before" picture.
 */
describe('a live embedded viewer', () => {
  let framed: Framed;
  beforeAll(async () => {
    framed = await openFramed(MODEL);
    await waitForState(framed.frame, 'spawned');
  });
  afterAll(() => framed?.context.close());

  it('tells the embedding page: ready, loading, loaded, then spawnFinished', async () => {
    await expect
      .poll(framed.messages)
      .toEqual([
        { type: 'ready' },
        { type: 'loading' },
        { type: 'loaded' },
        { type: 'spawnFinished' },
      ]);
    expect(framed.foreign).toEqual([]);
  });

  it('announces loaded and spawnFinished only once the avatar is drawn at the canvas centre', async () => {
    const drawnAt = await framed.page.evaluate(
      () => (window as unknown as { drawnAt: { type: string; drawn: boolean }[] }).drawnAt,
    );
    expect(drawnAt.filter(({ type }) => type !== 'ready' && type !== 'loading')).toEqual([
      { type: 'loaded', drawn: true },
      { type: 'spawnFinished', drawn: true },
    ]);
  });

  it('answers a message it does not understand with what was wrong, and changes nothing', async () => {
    const { page, frame, messages } = framed;
    const before = await shot(frame);
    await postToFrame(page, { type: 'set', fit: 'yes', colour: 'red' });
    await expect
      .poll(async () => (await messages()).find((m) => m.type === 'error'))
      .toEqual({
        type: 'error',
        cause: 'request',
        message: 'Invalid "set" request: fit: expected boolean; unknown option colour',
      });
    await postToFrame(page, { type: 'load', modelSrc: '/fixtures/avatars/readme.txt' });
    await expect
      .poll(async () => (await messages()).filter((m) => m.type === 'error').at(-1)?.message)
      .toMatch(/^Invalid "load" request: modelSrc: expected a \.glb\/\.fbx address/);
    await settle(frame);
    expect((await shot(frame)).equals(before)).toBe(true);
    await expect(viewer(frame).getAttribute('data-state')).resolves.toBe('spawned');
  });

  it('draws nothing while it stands still, and keeps drawing while it floats', async () => {
    const { frame } = framed;
    await setQuery(frame, MODEL);
    await expect.poll(() => drawsDuring(frame, 500)).toBe(0);
    const still = await canvasPicture(frame);

    await setQuery(frame, `${MODEL}&float=true`);
    expect(await drawsDuring(frame, 500)).toBeGreaterThan(0);
    expect((await canvasPicture(frame)) === still).toBe(false);
    const swaying = await canvasPicture(frame);
    await frame.waitForTimeout(300);
    expect((await canvasPicture(frame)) === swaying).toBe(false);

    await setQuery(frame, MODEL);
    await expect.poll(() => drawsDuring(frame, 500)).toBe(0);
  });

  it('turns back to the start angle after a drag with snap on, by mouse or by one finger (as far on touch)', async () => {
    const { page, frame } = framed;
    await setQuery(frame, `${MODEL}&snap=true`);
    const start = await shot(frame);
    await drag(page, frame, 120, 0, false);
    await settle(frame);
    const byMouse = await shot(frame);
    expect(byMouse.equals(start)).toBe(false);
    await page.mouse.up();
    await expect.poll(async () => (await shot(frame)).equals(start)).toBe(true);

    const lift = await touchDrag(page, frame, 120, 0);
    await settle(frame);
    expect((await shot(frame)).equals(byMouse)).toBe(true);
    await lift();
    await expect.poll(async () => (await shot(frame)).equals(start)).toBe(true);
  });

  it('tilts on a vertical drag unless lock-vertical is on; turns on a horizontal one', async () => {
    const { page, frame } = framed;
    await setQuery(frame, `${MODEL}&lockVertical=true`);
    const start = await shot(frame);
    await drag(page, frame, 0, 80);
    await settle(frame);
    expect((await shot(frame)).equals(start)).toBe(true);
    await drag(page, frame, 120, 0);
    await settle(frame);
    const turned = await shot(frame);
    expect(turned.equals(start)).toBe(false);

    await setQuery(frame, MODEL);
    await drag(page, frame, 0, 80);
    await settle(frame);
    expect((await shot(frame)).equals(turned)).toBe(false);
  });

  it('changes the face with an emotion', async () => {
    const { frame } = framed;
    await setQuery(frame, MODEL);
    const plain = await shot(frame);
    await setQuery(frame, `${MODEL}&emotion=${encodeURIComponent('{"mouthOpen":1}')}`);
    await expect.poll(async () => (await shot(frame)).equals(plain)).toBe(false);
  });

  it('casts a shadow with shadows on', async () => {
    const { frame } = framed;
    await setQuery(frame, MODEL);
    const unshadowed = await shot(frame);
    await setQuery(frame, `${MODEL}&shadows=true`);
    await expect.poll(async () => (await shot(frame)).equals(unshadowed)).toBe(false);
    await setQuery(frame, MODEL);
    await expect.poll(async () => (await shot(frame)).equals(unshadowed)).toBe(true);
  });

  it('answers a capture request with a PNG of the avatar', async () => {
    const { page, frame, messages } = framed;
    await page.evaluate(() =>
      document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'capture' }, '*'),
    );
    await expect.poll(async () => (await messages()).some((m) => m.type === 'capture')).toBe(true);
    const { dataUrl } = (await messages()).find((m) => m.type === 'capture')!;
    expect(dataUrl).toMatch(/^data:image\/png;base64,/);
    expect(await centreOpaqueIn(frame, dataUrl!.split(',')[1]!)).toBeGreaterThan(0);
  });

  it('captures lossy types at quality 0.1 unless told otherwise, and PNG whatever the quality', async () => {
    const { page, messages } = framed;
    const requests = [
      { mimeType: 'image/jpeg' },
      { mimeType: 'image/jpeg', quality: 0.1 },
      { mimeType: 'image/jpeg', quality: 0.9 },
      { mimeType: 'image/png' },
      { mimeType: 'image/png', quality: 0.1 },
    ];
    const before = (await messages()).filter((m) => m.type === 'capture').length;
    for (const request of requests) {
      await page.evaluate(
        (r) =>
          document
            .querySelector('iframe')!
            .contentWindow!.postMessage({ type: 'capture', ...r }, '*'),
        request,
      );
    }
    const captures = async () =>
      (await messages()).filter((m) => m.type === 'capture').slice(before);
    await expect.poll(async () => (await captures()).length).toBe(requests.length);
    const [jpeg, jpeg01, jpeg09, png, png01] = (await captures()).map((m) => m.dataUrl!);
    expect(jpeg).toMatch(/^data:image\/jpeg;base64,/);
    expect(jpeg).toBe(jpeg01);
    // Quality 0.1 is a much smaller, blockier file than 0.9.
    expect(jpeg!.length).toBeLessThan(jpeg09!.length / 2);
    expect(png).toMatch(/^data:image\/png;base64,/);
    expect(png01).toBe(png);
  });

  // The counts must come back exactly, so one switch that leaks fails it: 20 switches (ten of
  // each model, neither ever evicted from the model cache) find what 50 did (8 s alone).
  it('frees every buffer and texture of a model it no longer shows (20 switches)', async () => {
    const { page, frame, messages } = framed;
    // A small canvas: the test is about memory, not pixels.
    await page.evaluate(() => (document.querySelector('iframe')!.style.width = '96px'));
    const spawned = async () => (await messages()).filter((m) => m.type === 'spawnFinished').length;
    const switchTo = async (query: string) => {
      const count = await spawned();
      await setQuery(frame, query);
      await expect.poll(spawned).toBe(count + 1);
      await settle(frame);
    };
    const [first, second] = SWITCH_MODELS as [string, string];
    // Both models parsed and shown once: only what switching leaks can change the counts.
    await switchTo(second);
    await switchTo(first);
    const start = await glCounters(frame);
    for (let i = 0; i < 20; i++) await switchTo(i % 2 === 0 ? second : first);
    const end = await glCounters(frame);
    expect({ buffers: end.buffers, textures: end.textures }).toEqual({
      buffers: start.buffers,
      textures: start.textures,
    });
    await page.evaluate(() => (document.querySelector('iframe')!.style.width = '100%'));
  });

  it('paints again after the WebGL context is lost and restored', async () => {
    const { frame } = framed;
    await setQuery(frame, MODEL);
    await waitForState(frame, 'spawned');
    expect(await centreOpaquePixels(frame)).toBeGreaterThan(0);
    const lose = () =>
      frame.evaluate(async () => {
        const canvas = document.querySelector('canvas')!;
        const extension = canvas.getContext('webgl2')!.getExtension('WEBGL_lose_context')!;
        await new Promise((lost) => {
          canvas.addEventListener('webglcontextlost', lost, { once: true });
          extension.loseContext();
        });
        (window as unknown as { restore: () => void }).restore = () => extension.restoreContext();
      });
    await lose();
    expect(await centreOpaquePixels(frame)).toBe(0);
    await frame.evaluate(() => (window as unknown as { restore: () => void }).restore());
    await expect.poll(() => centreOpaquePixels(frame)).toBeGreaterThan(0);
    await expect(viewer(frame).getAttribute('data-state')).resolves.toBe('spawned');
  });

  it('loads a model it showed before from IndexedDB when the network fails', async () => {
    const { context } = framed;
    const page = await context.newPage();
    const blocked: string[] = [];
    await page.route('**/fixtures/avatars/male-emissive.glb', (route) => {
      blocked.push(route.request().url());
      return route.abort();
    });
    await page.goto(`${app.server.url}/embed?${MODEL}`);
    await waitForState(page, 'spawned');
    expect(blocked).toHaveLength(1);
    expect(await centreOpaquePixels(page)).toBeGreaterThan(0);
    await page.close();
  });
});

describe('the /embed message protocol', () => {
  it('says how to give it a model when it has none', async () => {
    const { page, context } = await open('');
    const hint = page.getByRole('status');
    await expect(hint.innerText().then((text) => text.replace(/\u00a0/g, ' '))).resolves.toBe(
      'No model yet: add a modelSrc parameter to the address, or post { type: "load", modelSrc } to this frame.',
    );
    expect(await hint.isVisible()).toBe(true);
    await expect(page.locator('canvas').count()).resolves.toBe(0);
    await picture(page, 'embed-hint');
    await context.close();
  });

  it('spawns a Blob handed over by the parent page; set changes the face without a new load', async () => {
    const framed = await openFramed('');
    const { page, frame } = framed;
    await expect.poll(() => types(framed)).toEqual(['ready']);
    await frame.getByRole('status').waitFor();
    await postToFrame(page, { type: 'load', fit: true }, 'male-emissive.glb');
    await waitForState(frame, 'spawned');
    await expect.poll(() => types(framed)).toEqual(['ready', 'loading', 'loaded', 'spawnFinished']);
    expect(await centreOpaquePixels(frame)).toBeGreaterThan(0);
    expect(framed.foreign).toEqual([]);

    const plain = await shot(frame);
    await postToFrame(page, { type: 'set', emotion: { mouthOpen: 1 } });
    await expect.poll(async () => (await shot(frame)).equals(plain)).toBe(false);
    expect(await types(framed)).toEqual(['ready', 'loading', 'loaded', 'spawnFinished']);

    // An ArrayBuffer is a model too: the spawn effect's file, as bytes.
    await page.evaluate(async () => {
      const bytes = await (await fetch('/fixtures/avatars/spawn-effect.glb')).arrayBuffer();
      document
        .querySelector('iframe')!
        .contentWindow!.postMessage({ type: 'load', modelSrc: bytes }, '*', [bytes]);
    });
    await expect
      .poll(async () => (await types(framed)).filter((t) => t === 'loaded'))
      .toHaveLength(2);
    await framed.context.close();
  });

  it('ignores messages from origins that allowedOrigins does not name', async () => {
    // Two entries: the events go to any origin, so this parent still hears "ready".
    const ignored = await openFramed('allowedOrigins=https://a.example,https://b.example');
    await expect.poll(() => types(ignored)).toEqual(['ready']);
    await postToFrame(ignored.page, { type: 'set', fit: 'yes' });
    await postToFrame(ignored.page, { type: 'load' }, 'male-emissive.glb');

    // The same messages from an allowed origin are taken. (The time that takes, a page and a
    // model loaded, is how long the first frame had to show it ignored them.)
    const taken = await openFramed(`allowedOrigins=https://a.example,${app.server.url}`);
    await expect.poll(() => types(taken)).toEqual(['ready']);
    await postToFrame(taken.page, { type: 'set', fit: 'yes' });
    await postToFrame(taken.page, { type: 'load' }, 'male-emissive.glb');
    await expect
      .poll(() => types(taken))
      .toEqual(['ready', 'error', 'loading', 'loaded', 'spawnFinished']);
    await taken.context.close();

    expect(await types(ignored)).toEqual(['ready']);
    await ignored.frame.getByRole('status').waitFor();
    await expect(ignored.frame.locator('canvas').count()).resolves.toBe(0);
    await ignored.context.close();
  });

  it('shows why a model failed with a Retry button, and Retry loads it again', async () => {
    // The first download is cut short; the next one is whole.
    let served = 0;
    const framed = await openFramed(MODEL, (context) =>
      context.route('**/fixtures/avatars/male-emissive.glb', async (route) => {
        if (served++ > 0) return route.fallback();
        const whole = readFileSync(resolve(AVATARS, 'male-emissive.glb'));
        return route.fulfill({ body: whole.subarray(0, 4096), contentType: 'model/gltf-binary' });
      }),
    );
    const { page, frame } = framed;
    await waitForState(frame, 'error');
    const text = await frame.getByRole('alert').innerText();
    expect(text).toMatch(/^The avatar could not be loaded\.\n\S/);
    const retry = frame.getByRole('button', { name: 'Try again' });
    expect(await retry.isVisible()).toBe(true);
    await picture(page, 'embed-error');
    const errors = (await framed.messages()).filter((m) => m.type === 'error');
    expect(errors).toMatchObject([{ type: 'error', cause: 'viewer' }]);
    expect(text).toContain(errors[0]!.message!.slice(0, 40));

    await retry.click();
    await waitForState(frame, 'spawned');
    expect(await centreOpaquePixels(frame)).toBeGreaterThan(0);
    expect(served).toBe(2);
    await expect(frame.getByRole('alert').count()).resolves.toBe(0);
    expect(await types(framed)).toEqual([
      'ready',
      'loading',
      'error',
      'loading',
      'loaded',
      'spawnFinished',
    ]);
    await framed.context.close();
  });
});

/**
 * One /embed page of male-emissive.glb for the options that change how the avatar is drawn
 * (environment, ambient occlusion and its quality, scale, zoom): each test sets the query it
 * needs, so the whole block pays for one page and one model load.
 */
describe('every drawing option changes the picture', () => {
  let session: Session;
  beforeAll(async () => {
    session = await open(MODEL);
    await waitForState(session.page, 'spawned');
  });
  afterAll(() => session?.context.close());

  it('loads each of the eleven presets from the app itself, and any other value as a file address', async () => {
    const { page } = session;
    // The eleven presets of spec §2, each served from the app under its file's name, prefiltered.
    const presets: Record<string, string> = ENVIRONMENT_PRESET_FILES;
    expect(Object.keys(presets)).toEqual(SPEC_PRESETS);
    const custom = '/fixtures/environments/soft.hdr';
    const pictures = new Map<string, Buffer>();
    const expected: string[] = [];
    // An .hdr is fetched by the viewer's prefilter worker, which the page's own list leaves out.
    const workerFiles: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (request.url().endsWith('.hdr')) workerFiles.push(request.url());
    };
    page.context().on('request', onRequest);
    let before = await shot(page);
    const cases: [string, string][] = [...Object.entries(presets), [custom, custom]];
    for (const [environment, file] of cases) {
      await setQuery(page, `${MODEL}&environment=${encodeURIComponent(environment)}`);
      const picture = await changedPicture(page, before);
      pictures.set(environment, picture);
      expected.push(
        `${app.server.url}${file.startsWith('/') ? file : `/environments/${file}.pmrem`}`,
      );
      before = picture;
    }
    expect(samePictures(pictures)).toEqual([]);
    // Each file once, from the app (city, the default, came with the first picture: /embed
    // preloads it, so the page's own resource list, not a listener added after it, sees it).
    page.context().off('request', onRequest);
    const environmentRequests = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => /\/environments\//.test(name)),
    );
    expect([...environmentRequests, ...workerFiles].sort()).toEqual(expected.sort());
    expect(session.warnings.filter((w) => /Environment/.test(w))).toEqual([]);
    expect(session.foreign).toEqual([]);
  });

  it('draws each ambient-occlusion display mode as it should', async () => {
    const { page } = session;
    const pictures = new Map<string, Buffer>();
    let before = await shot(page);
    for (const mode of ['Combined', 'AO', 'No AO', 'Split', 'Split AO']) {
      await setQuery(page, `${MODEL}&ao=${encodeURIComponent(mode)}`);
      const picture = await changedPicture(page, before);
      pictures.set(mode, picture);
      before = picture;
    }
    expect(samePictures(pictures)).toEqual([]);

    const [combined, ao, noAo, split, splitAo] = await Promise.all(
      [...pictures.values()].map((picture) => pixelsOf(page, picture)),
    );
    const half = combined!.width / 2;
    // Occlusion only darkens: Combined is No AO with its creases darker.
    const [withAo, withoutAo] = [opaqueStats(combined!), opaqueStats(noAo!)];
    expect(withAo.opaque).toBe(withoutAo.opaque);
    expect(withAo.brightness).toBeLessThan(withoutAo.brightness - 1);
    // AO alone is a grey picture of the occlusion, mostly light.
    const occlusion = opaqueStats(ao!);
    expect(occlusion.grey).toBeGreaterThan(0.99);
    expect(occlusion.brightness).toBeGreaterThan(200);
    // Split: No AO on the left, Combined on the right, a white line between.
    expect(differingPixels(split!, noAo!, 0, half - 1)).toBe(0);
    expect(differingPixels(split!, combined!, half + 1)).toBe(0);
    expect(differingPixels(split!, noAo!, half + 1)).toBeGreaterThan(0);
    for (let y = 0; y < split!.height; y++) {
      expect(split!.data.readUInt32BE((y * split!.width + half) * 4)).toBe(0xffffffff);
    }
    // Split AO: No AO on the left, the occlusion on the right.
    expect(differingPixels(splitAo!, noAo!, 0, half - 1)).toBe(0);
    expect(differingPixels(splitAo!, ao!, half + 1)).toBe(0);
  });

  it('draws each occlusion quality preset differently, and half resolution differently again', async () => {
    const { page } = session;
    const pictures = new Map<string, Buffer>();
    let before = await shot(page);
    for (const quality of ['Performance', 'Low', 'Medium', 'High', 'Ultra', 'half']) {
      const query =
        quality === 'half'
          ? 'ao=AO&quality=Medium&aoHalfResolution=true'
          : `ao=AO&quality=${quality}`;
      await setQuery(page, `${MODEL}&${query}`);
      const picture = await changedPicture(page, before);
      pictures.set(quality, picture);
      before = picture;
    }
    expect(samePictures(pictures)).toEqual([]);
    // More occlusion and denoise samples: less grain.
    const grain = async (name: string) =>
      opaqueStats(await pixelsOf(page, pictures.get(name)!)).grain;
    const grains = Object.fromEntries(
      await Promise.all([...pictures.keys()].map(async (name) => [name, await grain(name)])),
    ) as Record<string, number>;
    expect(grains.Low).toBeLessThan(grains.Performance!);
    expect(grains.Medium).toBeLessThan(grains.Low!);
    expect(grains.High).toBeLessThan(grains.Medium!);
    expect(grains.Ultra).toBeLessThan(grains.High!);
    // Half resolution: computed on a quarter of the pixels and upsampled, so smoother still.
    expect(grains.half).toBeLessThan(grains.Medium!);
  });

  it('draws the avatar as before once occlusion is switched off again', async () => {
    const { page } = session;
    await setQuery(page, MODEL);
    const plain = await stablePicture(page);
    await setQuery(page, `${MODEL}&ao=AO&aoHalfResolution=true`);
    const occluded = await changedPicture(page, plain);
    await setQuery(page, MODEL);
    expect((await changedPicture(page, occluded)).equals(plain)).toBe(true);
  });

  it('draws the avatar smaller with a smaller scale', async () => {
    const { page } = session;
    // Without fit, which would frame the scaled avatar just the same.
    const unframed = 'modelSrc=/fixtures/avatars/male-emissive.glb';
    await setQuery(page, unframed);
    const wholePicture = await stablePicture(page);
    await setQuery(page, `${unframed}&scale=0.5`);
    const halfPicture = await changedPicture(page, wholePicture);
    const whole = opaqueStats(await pixelsOf(page, wholePicture));
    const half = opaqueStats(await pixelsOf(page, halfPicture));
    // Half as tall and half as wide: about a quarter of the pixels.
    expect(half.opaque / whole.opaque).toBeGreaterThan(0.15);
    expect(half.opaque / whole.opaque).toBeLessThan(0.35);
  });

  it('zooms with the wheel only when zoom is on, and frames as before when it is off again', async () => {
    const { page } = session;
    const wheelUp = async () => {
      const box = (await viewer(page).boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -400);
      await settle(page);
    };
    await setQuery(page, MODEL);
    const framed = await stablePicture(page);
    await wheelUp();
    expect((await shot(page)).equals(framed)).toBe(true);

    await setQuery(page, `${MODEL}&zoom=true`);
    expect((await shot(page)).equals(framed)).toBe(true);
    await wheelUp();
    const zoomed = await changedPicture(page, framed);
    const before = opaqueStats(await pixelsOf(page, framed));
    const after = opaqueStats(await pixelsOf(page, zoomed));
    expect(after.opaque).toBeGreaterThan(before.opaque * 1.5);

    await setQuery(page, MODEL);
    expect((await changedPicture(page, zoomed)).equals(framed)).toBe(true);
  });
});

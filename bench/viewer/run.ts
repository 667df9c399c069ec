// The viewer bench (our viewer against visage and <model-viewer>): the same model
// in the same headless Chromium with SwiftShader WebGL, viewers alternated run by run.
// Measurements only, never pass/fail, and never made up: a viewer that cannot be built or
// fails in a run is reported as such.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../tests/helpers/browser';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const BENCH_DIR = here('.');
const DIST = here('../.out/viewer');
const FIXTURES = here('../../../shared/fixtures');
const APP_ROOT = here('../..');

export const VIEWERS = ['ours', 'visage', 'model-viewer'] as const;
export type Viewer = (typeof VIEWERS)[number];

export interface ViewerRun {
  viewer: Viewer;
  run: number;
  /** ms from mount to the first frame with opaque pixels at the canvas centre. */
  firstPaintMs?: number;
  /** ms from mount to spawned (ours) or the load event (peers). */
  spawnedMs?: number;
  /** gzip -9 bytes of the scripts that finished loading before the first paint. */
  jsGzipBeforePaint?: number;
  /** Part of that which is environment-map data shipped as JS (our presets' .exr modules). */
  envDataGzipBeforePaint?: number;
  /** Frames with WebGL draws during 3 s after load, the avatar standing still. */
  stillFrames?: number;
  /** JSHeapUsedSize (after a forced GC) after the first load and after the switches. */
  heapAfterLoad?: number;
  heapAfterSwitches?: number;
  error?: string;
}

export interface BenchViewerOptions {
  runs?: number;
  switches?: number;
  stillMs?: number;
  /** Longest wait for a viewer's first paint and load, in ms. */
  timeoutMs?: number;
  /** Skip `npm install --prefix bench/viewer` when the peers are missing. */
  install?: boolean;
}

/** Installs (if missing, and allowed) and builds the bench pages; returns the built viewers. */
function prepare(install: boolean): { viewers: Viewer[]; note?: string } {
  let note: string | undefined;
  let peers = existsSync(join(BENCH_DIR, 'node_modules', '@readyplayerme', 'visage'));
  if (!peers && install) {
    try {
      console.log('bench/viewer: installing the peers (npm install --prefix bench/viewer) ...');
      execSync('npm install --prefix bench/viewer', { cwd: APP_ROOT, stdio: 'inherit' });
      peers = true;
    } catch (error) {
      note = `peer install failed (${String(error).split('\n')[0]})`;
    }
  } else if (!peers) {
    note = 'peers not installed: run `npm install --prefix bench/viewer`';
  }
  const viewers: Viewer[] = peers ? [...VIEWERS] : ['ours'];
  try {
    execSync('npx vite build --config bench/viewer/vite.config.ts', {
      cwd: APP_ROOT,
      stdio: 'ignore',
      env: { ...process.env, BENCH_VIEWER_PAGES: viewers.join(',') },
    });
  } catch (error) {
    if (viewers.length === 1) throw error;
    note = `peer pages failed to build (${String(error).split('\n')[0]}); ours alone`;
    execSync('npx vite build --config bench/viewer/vite.config.ts', {
      cwd: APP_ROOT,
      stdio: 'ignore',
      env: { ...process.env, BENCH_VIEWER_PAGES: 'ours' },
    });
    return { viewers: ['ours'], note };
  }
  return { viewers, note };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.glb': 'model/gltf-binary',
  '.wasm': 'application/wasm',
  '.exr': 'image/x-exr',
};

/** The "city" preset the app uses, as a file: visage loads it by address. */
function cityExr(): Buffer {
  const module = readFileSync(
    join(APP_ROOT, 'node_modules/@pmndrs/assets/hdri/city.exr.js'),
    'utf8',
  );
  const base64 = /base64,([^'"]+)/.exec(module)?.[1];
  if (!base64) throw new Error('no data URL in @pmndrs/assets/hdri/city.exr.js');
  return Buffer.from(base64, 'base64');
}

/** Serves the bench build, /fixtures/ from ../shared/fixtures and /city.exr. */
async function serve(): Promise<{ url: string; server: Server }> {
  const exr = cityExr();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let body: Buffer | undefined;
    if (path === '/city.exr') body = exr;
    else {
      const file = path.startsWith('/fixtures/')
        ? join(FIXTURES, normalize(path.slice('/fixtures/'.length)))
        : join(DIST, normalize(path));
      if (existsSync(file) && !file.endsWith('/')) body = readFileSync(file);
    }
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream',
      'Cache-Control': 'no-store',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server };
}

/**
 * Runs in every page before its scripts: WebGL canvases keep their drawing buffer (so the
 * centre can be read back, for every viewer alike), draw calls are counted, and a
 * requestAnimationFrame loop counts frames with draws and notes the first painted frame.
 */
function instrument() {
  const probe = { draws: 0, frames: 0, firstPaintAt: undefined as number | undefined };
  (window as unknown as { __benchProbe: typeof probe }).__benchProbe = probe;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call(this)
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (
    this: HTMLCanvasElement,
    type: string,
    attributes?: Record<string, unknown>,
  ) {
    const options = type.startsWith('webgl')
      ? { ...attributes, preserveDrawingBuffer: true }
      : attributes;
    return getContext.call(this, type, options);
  } as typeof getContext;
  const names = [
    'drawArrays',
    'drawElements',
    'drawArraysInstanced',
    'drawElementsInstanced',
    'drawRangeElements',
  ];
  for (const proto of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype]) {
    const table = proto as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of names) {
      const original = table[name];
      if (!original) continue;
      table[name] = function (this: unknown, ...args: unknown[]) {
        probe.draws++;
        return original.apply(this, args);
      };
    }
  }
  const sample = document.createElement('canvas');
  sample.width = sample.height = 8;
  const ctx = sample.getContext('2d', { willReadFrequently: true })!;
  const canvases = (root: Document | ShadowRoot, found: HTMLCanvasElement[] = []) => {
    for (const element of Array.from(root.querySelectorAll('*'))) {
      if (element instanceof HTMLCanvasElement && element !== sample) found.push(element);
      if (element.shadowRoot) canvases(element.shadowRoot, found);
    }
    return found;
  };
  const painted = () =>
    canvases(document).some((canvas) => {
      if (canvas.width < 16 || canvas.height < 16) return false;
      ctx.clearRect(0, 0, 8, 8);
      ctx.drawImage(canvas, canvas.width / 2 - 4, canvas.height / 2 - 4, 8, 8, 0, 0, 8, 8);
      const { data } = ctx.getImageData(0, 0, 8, 8);
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 200) return true;
      return false;
    });
  let seen = 0;
  const tick = () => {
    if (probe.draws !== seen) {
      seen = probe.draws;
      probe.frames++;
    }
    if (probe.firstPaintAt === undefined && painted()) probe.firstPaintAt = performance.now();
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

interface Probe {
  draws: number;
  frames: number;
  firstPaintAt?: number;
}
interface PageHooks {
  mountedAt?: number;
  spawnedAt?: number;
  switchTo?: (url: string) => Promise<void>;
}
type Win = Window & { __benchProbe: Probe; __benchPage: PageHooks };

const gzipCache = new Map<string, number>();
function gzipOf(pathname: string): number {
  let size = gzipCache.get(pathname);
  if (size === undefined) {
    const file = join(DIST, normalize(pathname));
    size = existsSync(file) ? gzipSync(readFileSync(file), { level: 9 }).length : 0;
    gzipCache.set(pathname, size);
  }
  return size;
}

async function heapUsed(page: Page, context: BrowserContext): Promise<number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
}

const MODELS = [
  '/fixtures/avatars/male-emissive.glb',
  '/fixtures/avatars/male-emissive.glb?copy=2',
];

async function measure(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  base: string,
  viewer: Viewer,
  run: number,
  options: Required<Omit<BenchViewerOptions, 'install'>>,
): Promise<ViewerRun> {
  const result: ViewerRun = { viewer, run };
  const context = await browser.newContext({ width: 360, height: 360 });
  // Nothing leaves the machine: peers' CDN look-ups (GPU tier lists, analytics) fail fast.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  // tsx (esbuild keepNames) may wrap functions in __name(): give the page a stand-in.
  await context.addInitScript({ content: `var __name = (f) => f; (${instrument.toString()})();` });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(`${base}/${viewer}.html`);
    await page.waitForFunction(
      () => {
        const w = window as unknown as Win;
        return w.__benchProbe.firstPaintAt !== undefined && w.__benchPage?.spawnedAt !== undefined;
      },
      undefined,
      { timeout: options.timeoutMs, polling: 100 },
    );
    const timing = await page.evaluate(() => {
      const w = window as unknown as Win;
      const paint = w.__benchProbe.firstPaintAt!;
      const scripts = performance
        .getEntriesByType('resource')
        .filter((e) => (e as PerformanceResourceTiming).responseEnd <= paint)
        .map((e) => new URL(e.name).pathname)
        .filter((p) => p.endsWith('.js') || p.endsWith('.mjs'));
      const mounted = w.__benchPage.mountedAt ?? 0;
      return {
        firstPaintMs: paint - mounted,
        spawnedMs: w.__benchPage.spawnedAt! - mounted,
        scripts,
      };
    });
    result.firstPaintMs = timing.firstPaintMs;
    result.spawnedMs = timing.spawnedMs;
    const scripts = [...new Set(timing.scripts)];
    result.jsGzipBeforePaint = scripts.reduce((s, p) => s + gzipOf(p), 0);
    result.envDataGzipBeforePaint = scripts
      .filter((p) => /\.(exr|hdr)-[^/]*\.js$/.test(p))
      .reduce((s, p) => s + gzipOf(p), 0);

    const frames = () => page.evaluate(() => (window as unknown as Win).__benchProbe.frames);
    const before = await frames();
    await page.waitForTimeout(options.stillMs);
    result.stillFrames = (await frames()) - before;

    result.heapAfterLoad = await heapUsed(page, context);
    for (let i = 1; i <= options.switches; i++) {
      const url = MODELS[i % MODELS.length]!;
      const shown = page.evaluate(
        (next) => (window as unknown as Win).__benchPage.switchTo!(next),
        url,
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`switch ${i} took over ${options.timeoutMs} ms`)),
          options.timeoutMs,
        );
      });
      await Promise.race([shown, late]).finally(() => clearTimeout(timer));
    }
    result.heapAfterSwitches = await heapUsed(page, context);
  } catch (error) {
    result.error = [String(error).split('\n')[0], ...errors.slice(0, 3)].join(' | ');
  } finally {
    await context.close();
  }
  return result;
}

const median = (values: number[]) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const METRICS: { key: keyof ViewerRun; title: string; format: (v: number) => string }[] = [
  { key: 'firstPaintMs', title: 'first paint (ms)', format: (v) => v.toFixed(0) },
  { key: 'spawnedMs', title: 'spawned/load (ms)', format: (v) => v.toFixed(0) },
  {
    key: 'jsGzipBeforePaint',
    title: 'JS gz pre-paint',
    format: (v) => `${(v / 1024).toFixed(1)} KiB`,
  },
  {
    key: 'envDataGzipBeforePaint',
    title: ' of which env data',
    format: (v) => `${(v / 1024).toFixed(1)} KiB`,
  },
  { key: 'stillFrames', title: 'frames still 3 s', format: (v) => v.toFixed(0) },
  {
    key: 'heapAfterLoad',
    title: 'heap after load',
    format: (v) => `${(v / 2 ** 20).toFixed(1)} MiB`,
  },
  {
    key: 'heapAfterSwitches',
    title: 'heap after switches',
    format: (v) => `${(v / 2 ** 20).toFixed(1)} MiB`,
  },
];

/** Prints the table (medians over runs) and our ratios against each peer; returns the runs. */
export async function benchViewer(options: BenchViewerOptions = {}): Promise<ViewerRun[]> {
  const opts = { runs: 3, switches: 20, stillMs: 3000, timeoutMs: 120_000, ...options };
  const { viewers, note } = prepare(options.install ?? true);
  if (note) console.log(`NOTE: ${note}`);
  if (viewers.length === 1) console.log('Measuring OUR VIEWER ALONE: no peer figures below.');
  const { url, server } = await serve();
  const browser = await launchBrowser({ webgl: true });
  const runs: ViewerRun[] = [];
  try {
    for (let run = 0; run < opts.runs; run++) {
      // A B C, then B C A, then C A B: no viewer always goes first on a cold browser.
      const order = viewers.map((_, i) => viewers[(i + run) % viewers.length]!);
      for (const viewer of order) {
        const result = await measure(browser, url, viewer, run + 1, opts);
        runs.push(result);
        console.log(
          `  run ${run + 1} ${viewer}: ${
            result.error
              ? `FAILED: ${result.error}`
              : METRICS.map((m) => `${m.title} ${m.format(result[m.key] as number)}`).join(', ')
          }`,
        );
      }
    }
  } finally {
    await browser.close();
    server.close();
  }

  console.log(
    `\nMedians of ${opts.runs} runs, ${opts.switches} model switches, model male-emissive.glb, 360x360, SwiftShader:`,
  );
  console.log(['metric'.padEnd(22), ...viewers.map((v) => v.padStart(14))].join(''));
  const medians = new Map<string, number>();
  for (const metric of METRICS) {
    const cells = viewers.map((viewer) => {
      const value = median(
        runs.filter((r) => r.viewer === viewer && !r.error).map((r) => r[metric.key] as number),
      );
      medians.set(`${viewer}:${metric.key}`, value);
      return (Number.isFinite(value) ? metric.format(value) : 'n/a').padStart(14);
    });
    console.log([metric.title.padEnd(22), ...cells].join(''));
  }
  for (const peer of viewers.filter((v) => v !== 'ours')) {
    const ratios = METRICS.map((metric) => {
      const ours = medians.get(`ours:${metric.key}`)!;
      const theirs = medians.get(`${peer}:${metric.key}`)!;
      const ratio = ours / theirs;
      return `${metric.title} ${Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a'}`;
    });
    console.log(`ours / ${peer}: ${ratios.join(', ')}`);
  }
  const failed = runs.filter((r) => r.error).length;
  if (failed) console.log(`${failed} run(s) failed; medians use the others.`);
  return runs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchViewer({
    runs: Number(process.env.BENCH_VIEWER_RUNS ?? 3),
    switches: Number(process.env.BENCH_VIEWER_SWITCHES ?? 20),
    timeoutMs: Number(process.env.BENCH_VIEWER_TIMEOUT_MS ?? 120_000),
  });
}

// The viewer bench: our viewer on /embed, the route embedders use, against visage and
// <model-viewer>, each on a page that only fills the window with the viewer. How it is kept
// fair (docs/benchmarks.md "Viewer: first painted frame"):
// - one build folder holds the app's build, the peer pages (their scripts under /assets/ like
//   ours) and the fixture files, all compressed by scripts/compress-dist.ts; the project's
//   real server (tests/helpers/server.ts) serves it, so every file of every viewer comes from
//   the same server with the same headers and compression;
// - every viewer gets the same .glb and the same .hdr file (/fixtures/...), and a camera that
//   looks at the model's bounding sphere from the distance at which the sphere fills a 50°
//   vertical field of view (our `fit`);
// - each run is a fresh Chromium (SwiftShader WebGL) at 1280 x 720 with the cache disabled;
//   times are performance.now() in the page, i.e. from navigation start;
// - "first painted frame" is the same probe for all three (probe.ts); each viewer's own
//   "loaded" signal is recorded next to it.
// Measurements only, never pass/fail, and never made up: a viewer that cannot be built or
// fails in a run is reported as such.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { getBounds } from '@gltf-transform/functions';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { deriveDelivery } from '../../server/delivery-derive';
import { compressModel } from '../../server/http/compressed-models';
import { launchBrowser } from '../../tests/helpers/browser';
import { startServer } from '../../tests/helpers/server';
import { probe, type Probe, type ProbeOptions } from './probe';
import { summarizeTrace, traced } from './trace';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const APP_ROOT = here('../..');
const OUT = here('../.out/viewer');
/** The one folder the server serves: app build, peer pages, fixtures. */
const SITE = join(OUT, 'site');
const SCREENSHOTS = join(OUT, 'screenshots');
/** With `--before <ref>`: the same site with /embed as that commit builds it, served apart. */
const BEFORE_SITE = join(OUT, 'site-before');
/** That commit's working tree while its /embed is built (a git worktree, removed after). */
const BEFORE_TREE = join(OUT, 'tree-before');
const FIXTURES = here('../../../shared/fixtures');

/**
 * `ours-delivery` is ours on the delivery version of the same avatar (what the
 * studio serves for its own models, derived here as the server derives it), reported as such:
 * it breaks the same-file rule on purpose, to show what the smaller file gives.
 * `ours-before` is /embed as another commit built it (`--before <ref>`), given the same file:
 * an A/B of a change measured run by run beside the code as it is.
 */
export const VIEWERS = ['ours', 'ours-delivery', 'ours-before', 'visage', 'model-viewer'] as const;
export type Viewer = (typeof VIEWERS)[number];
const isOurs = (viewer: Viewer) => viewer.startsWith('ours');

/** The model file a viewer is given: the fixture, or its delivery version beside it. */
const modelPath = (viewer: Viewer, avatar: string) =>
  `/fixtures/avatars/${viewer === 'ours-delivery' ? deliveryName(avatar) : avatar}`;
const deliveryName = (avatar: string) => avatar.replace(/\.glb$/, '.delivery.glb');

/**
 * The avatars, from ../shared/fixtures/avatars: a textured one (3.1 MiB, 19 images of at most
 * 1024 px), an untextured one (0.8 MiB), one the viewer was never tuned on before it joined
 * (`halfBodyAPIv2.glb`, 2.7 MiB: a 2048 px base colour and 9 smaller images, 18 animations),
 * and one that joined after the last change tuned on that one (`neutral-animated-mask.glb`,
 * 1.6 MiB: 23 WebP images, 10 materials, a mask). maleIdle.glb and female-idle.glb hold
 * animations only, no mesh.
 */
export const AVATARS = [
  'male-emissive.glb',
  'female-animation-catwalk.glb',
  'halfBodyAPIv2.glb',
  'neutral-animated-mask.glb',
] as const;
type Avatar = (typeof AVATARS)[number];
/** The memory measurement switches between the first two. */
const SWITCHED: readonly Avatar[] = AVATARS.slice(0, 2);
const ENVIRONMENT = '/fixtures/environments/soft.hdr';
/** Our viewer's vertical field of view (src/ui/canvas/avatar-view.tsx); the peers get it too. */
const FOV_DEG = 50;
const VIEWPORT = { width: 1280, height: 720 };

/** Chromium's network emulation for the throttled case (CDP Network.emulateNetworkConditions). */
const THROTTLED = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
export const CASES = ['unthrottled', 'throttled'] as const;
type Case = (typeof CASES)[number];

export interface BenchViewerOptions {
  /** Runs per viewer, avatar and case (viewers alternated run by run). */
  runs?: number;
  /** Model switches in the memory measurement. */
  switches?: number;
  viewers?: readonly Viewer[];
  cases?: readonly Case[];
  avatars?: readonly Avatar[];
  /** Frames with draws are counted over this long, the avatar standing still. */
  stillMs?: number;
  /** Longest wait for a viewer's first painted frame and loaded signal, in ms. */
  timeoutMs?: number;
  /** Run `npm install --prefix bench/viewer` when the peers are missing. */
  install?: boolean;
  screenshots?: boolean;
  /** Also record one Chrome trace per viewer and avatar and print where the time goes. */
  trace?: boolean;
  /** A git commit whose /embed is measured too, as `ours-before`. */
  before?: string;
}
type Options = Required<Omit<BenchViewerOptions, 'before'>> & Pick<BenchViewerOptions, 'before'>;

export interface FirstFrameRun {
  viewer: Viewer;
  avatar: string;
  case: Case;
  run: number;
  /** ms from navigation start to the first painted frame. */
  firstPaintMs?: number;
  /** ms from navigation start to the viewer's own loaded signal. */
  loadedMs?: number;
  /** Bytes received (as sent: compressed where the server compresses) before the first frame. */
  bytesBeforePaint?: number;
  jsBytesBeforePaint?: number;
  error?: string;
}

export interface SteadyRun {
  viewer: Viewer;
  /** Animation frames with WebGL draws while the avatar stands still (stillMs). */
  stillFrames?: number;
  /** JSHeapUsedSize after a forced GC, after the first load and after the switches. */
  heapAfterLoad?: number;
  heapAfterSwitches?: number;
  error?: string;
}

/** Reads `--runs 3 --switches 50 --cases throttled --viewers ours,visage --avatars halfBodyAPIv2.glb`. */
export function viewerOptionsFromArgs(args: readonly string[]): BenchViewerOptions {
  const options: BenchViewerOptions = {};
  const list = <T extends string>(value: string, allowed: readonly T[], flag: string): T[] => {
    const items = value.split(',').filter(Boolean);
    const wrong = items.filter((item) => !(allowed as readonly string[]).includes(item));
    if (wrong.length || !items.length)
      throw new Error(`${flag}: expected some of ${allowed.join(', ')}, got "${value}"`);
    return items as T[];
  };
  const count = (value: string, flag: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${flag}: expected a whole number`);
    return n;
  };
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value = ''] = [args[i]!, args[i + 1]];
    if (flag === '--runs') options.runs = Math.max(1, count(value, flag));
    else if (flag === '--switches') options.switches = count(value, flag);
    else if (flag === '--viewers') options.viewers = list(value, VIEWERS, flag);
    else if (flag === '--cases') options.cases = list(value, CASES, flag);
    else if (flag === '--avatars') options.avatars = list(value, AVATARS, flag);
    else if (flag === '--no-screenshots') {
      options.screenshots = false;
      i--;
    } else if (flag === '--trace') {
      options.trace = true;
      i--;
    } else if (flag === '--before') {
      if (!value) throw new Error('--before: expected a git commit (a hash, tag or branch)');
      options.before = value;
    } else
      throw new Error(
        `unknown option ${flag} (--runs N, --switches N, --viewers ${VIEWERS.join(',')}, --cases ${CASES.join(',')}, --avatars ${AVATARS.join(',')}, --no-screenshots, --trace, --before REF)`,
      );
  }
  return options;
}

/** Runs a command in the app's root (or `cwd`); on failure, the error carries its output's end. */
function run(command: string, args: string[], env: Record<string, string> = {}, cwd = APP_ROOT) {
  try {
    execFileSync(command, args, {
      cwd,
      stdio: 'pipe',
      env: { ...process.env, ...env },
      maxBuffer: 64 * 2 ** 20,
    });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    const output = `${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`.trim();
    throw new Error(
      `${[command, ...args].join(' ')} failed:\n${output.split('\n').slice(-15).join('\n')}`,
      { cause: error },
    );
  }
}

/**
 * Builds the site: the app as `npm run build` builds it (into SITE), the peer pages into the
 * same folder, the fixtures beside them, then the build's own compression over all of it.
 * Returns the viewers that could be built and, for the others, why not.
 */
async function buildSite(
  viewers: readonly Viewer[],
  avatars: readonly Avatar[],
  install: boolean,
  before: string | undefined,
): Promise<Map<Viewer, string>> {
  const unbuilt = new Map<Viewer, string>();
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(SITE, { recursive: true });
  if (viewers.some(isOurs)) {
    console.log(
      'bench/viewer: building the app (tsr generate, vite build, the same for /embed) ...',
    );
    try {
      run('npx', ['tsr', 'generate']);
      run('npx', ['vite', 'build', '--outDir', SITE, '--emptyOutDir']);
      run('npx', ['vite', 'build', '--config', 'vite.embed.config.ts', '--outDir', SITE]);
    } catch (error) {
      for (const viewer of viewers.filter(isOurs)) unbuilt.set(viewer, String(error));
    }
  }
  // The server serves a folder only when it holds an index.html.
  if (!existsSync(join(SITE, 'index.html'))) writeFileSync(join(SITE, 'index.html'), '');

  const peers = viewers.filter((v) => !isOurs(v));
  if (peers.length) {
    const installed = () => existsSync(here('node_modules/@readyplayerme/visage'));
    if (!installed() && install) {
      console.log('bench/viewer: installing the peers (npm install --prefix bench/viewer) ...');
      try {
        run('npm', ['install', '--prefix', 'bench/viewer']);
      } catch (error) {
        for (const peer of peers) unbuilt.set(peer, `peer install failed: ${String(error)}`);
      }
    } else if (!installed()) {
      for (const peer of peers)
        unbuilt.set(peer, 'peers not installed: run `npm install --prefix bench/viewer`');
    }
    const buildable = peers.filter((p) => !unbuilt.has(p));
    console.log(`bench/viewer: building the peer pages (${buildable.join(', ')}) ...`);
    const config = ['vite', 'build', '--config', 'bench/viewer/vite.config.ts'];
    try {
      run('npx', config, { BENCH_VIEWER_OUT: SITE, BENCH_VIEWER_PAGES: buildable.join(',') });
    } catch {
      // Build them one by one, to tell which one fails.
      for (const peer of buildable) {
        try {
          run('npx', config, { BENCH_VIEWER_OUT: SITE, BENCH_VIEWER_PAGES: peer });
        } catch (error) {
          unbuilt.set(peer, String(error));
        }
      }
    }
  }

  for (const file of [...avatars.map((a) => `avatars/${a}`), 'environments/soft.hdr']) {
    const target = join(SITE, 'fixtures', file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(FIXTURES, file), target);
  }
  if (viewers.includes('ours-delivery')) {
    console.log('bench/viewer: deriving the delivery versions (server/delivery-derive.ts) ...');
    for (const avatar of avatars) {
      const original = new Uint8Array(readFileSync(join(FIXTURES, 'avatars', avatar)));
      const derived = await deriveDelivery(original);
      const bytes = derived.kind === 'derived' ? derived.bytes : original;
      const target = join(SITE, 'fixtures', 'avatars', deliveryName(avatar));
      writeFileSync(target, bytes);
      // Sent as the studio's /files sends a model to a browser that accepts brotli.
      const compressed = await compressModel(bytes);
      writeFileSync(`${target}.br`, compressed);
      console.log(
        `  ${avatar}: ${bytes.byteLength} of ${original.byteLength} bytes, ${compressed.byteLength} sent (brotli)`,
      );
    }
  }
  const sites = [SITE];
  if (before && viewers.includes('ours-before')) {
    try {
      buildBefore(before);
      sites.push(BEFORE_SITE);
    } catch (error) {
      unbuilt.set('ours-before', String(error));
    }
  }
  console.log('bench/viewer: compressing (scripts/compress-dist.ts) ...');
  for (const site of sites) run('node', ['--import', 'tsx', 'scripts/compress-dist.ts', site]);
  return unbuilt;
}

/**
 * The site as built above (not yet compressed), with /embed as commit `ref` builds it: its
 * page and scripts laid over the same folder, so everything else (the back office's public
 * files, the peers, the fixtures) is the same. Built in a git worktree of `ref` sharing this
 * checkout's node_modules, so `ref` must need no other dependencies.
 */
function buildBefore(ref: string) {
  console.log(`bench/viewer: building /embed as ${ref} builds it (ours-before) ...`);
  rmSync(BEFORE_TREE, { recursive: true, force: true });
  run('git', ['worktree', 'prune']);
  run('git', ['worktree', 'add', '--detach', BEFORE_TREE, ref]);
  try {
    symlinkSync(join(APP_ROOT, 'node_modules'), join(BEFORE_TREE, 'node_modules'));
    const built = join(BEFORE_TREE, '.bench-embed');
    run('npx', ['tsr', 'generate'], {}, BEFORE_TREE);
    const config = ['--config', 'vite.embed.config.ts', '--outDir', built, '--emptyOutDir'];
    run('npx', ['vite', 'build', ...config], {}, BEFORE_TREE);
    rmSync(BEFORE_SITE, { recursive: true, force: true });
    cpSync(SITE, BEFORE_SITE, { recursive: true });
    cpSync(built, BEFORE_SITE, { recursive: true });
  } finally {
    run('git', ['worktree', 'remove', '--force', BEFORE_TREE]);
  }
}

interface Framing {
  /** The bounding sphere's centre, in the model's own coordinates (metres). */
  target: [number, number, number];
  /** Distance at which the sphere fills the vertical field of view. */
  distance: number;
}

/** Our `fit` (src/ui/canvas/avatar-model.tsx): the sphere around the bind-pose bounding box. */
async function framing(avatar: string): Promise<Framing> {
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const document = await io.read(join(FIXTURES, 'avatars', avatar));
  const root = document.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (!scene) throw new Error(`${avatar} has no scene`);
  const { min, max } = getBounds(scene);
  const target = [0, 1, 2].map((i) => (min[i]! + max[i]!) / 2) as Framing['target'];
  const radius = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2;
  const distance = radius / Math.sin(((FOV_DEG / 2) * Math.PI) / 180);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return { target: target.map(round) as Framing['target'], distance: round(distance) };
}

/** The address each viewer is measured on: /embed for ours, a thin page for the peers. */
function pageUrl(base: string, viewer: Viewer, avatar: string, frame: Framing): string {
  const modelSrc = modelPath(viewer, avatar);
  if (isOurs(viewer)) {
    const query = new URLSearchParams({ modelSrc, environment: ENVIRONMENT, fit: 'true' });
    return `${base}/embed?${query}`;
  }
  const query = new URLSearchParams({
    modelSrc,
    environment: ENVIRONMENT,
    target: frame.target.join(','),
    distance: String(frame.distance),
    fov: String(FOV_DEG),
  });
  return `${base}/${viewer}.html?${query}`;
}

type Win = Window & { __bench: Probe; __benchSwitch?: (url: string) => void };

interface Session {
  browser: Browser;
  page: Page;
  context: BrowserContext;
  close: () => Promise<void>;
  /** Page errors and console errors, for failure messages. */
  problems: string[];
  /** Every finished http(s) response of the page and its workers: when it ended, its bytes. */
  responses: Promise<{ url: string; endedAt: number; bytes: number }>[];
}

/** A fresh Chromium with one page at 1280 x 720, the probe installed, the cache disabled. */
async function openPage(
  viewer: Viewer,
  networkCase: Case,
  probeOptions: Omit<ProbeOptions, 'dataState'>,
): Promise<Session> {
  const browser = await launchBrowser({ webgl: true });
  try {
    const context = await browser.newContext(VIEWPORT);
    const options: ProbeOptions = { ...probeOptions, dataState: isOurs(viewer) };
    // tsx (esbuild keepNames) may wrap functions in __name(): give the page a stand-in.
    await context.addInitScript({
      content: `globalThis.__name = (f) => f; (${probe.toString()})(${JSON.stringify(options)});`,
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    // Context-wide, so a worker's downloads count too (ours fetches an .hdr in one).
    const responses: Session['responses'] = [];
    context.on('requestfinished', (request) => {
      if (!/^https?:/.test(request.url())) return;
      const { startTime, responseEnd } = request.timing();
      responses.push(
        request.sizes().then((sizes) => ({
          url: request.url(),
          endedAt: startTime + responseEnd,
          bytes: sizes.responseBodySize,
        })),
      );
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // Nothing leaves the machine: the peers' look-ups elsewhere (visage's GPU tier list and
    // analytics) fail at once, the same on every machine. The bench server is plain http.
    await cdp.send('Network.setBlockedURLs', { urls: ['https://*'] });
    if (networkCase === 'throttled') await cdp.send('Network.emulateNetworkConditions', THROTTLED);
    return {
      browser: browser.browser,
      page,
      context,
      problems,
      responses,
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Waits until the probe saw the first painted frame and the loaded signal (or an error). */
async function waitForFirstFrame(session: Session, timeoutMs: number) {
  await session.page.waitForFunction(
    () => {
      const bench = (window as unknown as Win).__bench;
      return (
        bench.error !== undefined ||
        (bench.firstPaintAt !== undefined && bench.loadedAt !== undefined)
      );
    },
    undefined,
    { timeout: timeoutMs, polling: 100 },
  );
  const error = await session.page.evaluate(() => (window as unknown as Win).__bench.error);
  if (error) throw new Error(error);
}

function failure(error: unknown, session?: Session): string {
  const problems = session?.problems.slice(0, 3) ?? [];
  return [String(error).split('\n')[0], ...problems].join(' | ');
}

async function measureFirstFrame(
  url: string,
  result: FirstFrameRun,
  options: Options,
): Promise<FirstFrameRun> {
  let session: Session | undefined;
  try {
    session = await openPage(result.viewer, result.case, { capture: false });
    await session.page.goto(url, { waitUntil: 'commit' });
    await waitForFirstFrame(session, options.timeoutMs);
    const page = await session.page.evaluate(() => {
      const bench = (window as unknown as Win).__bench;
      return {
        firstPaintMs: bench.firstPaintAt!,
        loadedMs: bench.loadedAt,
        timeOrigin: performance.timeOrigin,
        csp: bench.csp,
      };
    });
    // Bytes as received (compressed where the server compresses), page and workers alike.
    const before = (await Promise.all(session.responses)).filter(
      (r) => r.endedAt <= page.timeOrigin + page.firstPaintMs,
    );
    const sum = (list: typeof before) => list.reduce((total, r) => total + r.bytes, 0);
    Object.assign(result, {
      firstPaintMs: page.firstPaintMs,
      loadedMs: page.loadedMs,
      bytesBeforePaint: sum(before),
      jsBytesBeforePaint: sum(before.filter((r) => /\.m?js$/.test(new URL(r.url).pathname))),
      csp: page.csp,
    });
    const { csp } = result as FirstFrameRun & { csp?: string[] };
    delete (result as { csp?: string[] }).csp;
    if (csp?.length)
      console.log(`    ${result.viewer}: Content-Security-Policy blocked ${csp.join(', ')}`);
  } catch (error) {
    result.error = failure(error, session);
  } finally {
    await session?.close();
  }
  return result;
}

/**
 * One traced unthrottled run: the requests and, per thread, the kinds of work before the first
 * painted frame. The trace is written to bench/.out/viewer/traces/ (opens in DevTools).
 */
async function traceFirstFrame(url: string, viewer: Viewer, avatar: string, options: Options) {
  let session: Session | undefined;
  try {
    session = await openPage(viewer, 'unthrottled', { capture: false });
    const { page } = session;
    const events = await traced(session.browser, async () => {
      await page.goto(url, { waitUntil: 'commit' });
      await waitForFirstFrame(session!, options.timeoutMs);
    });
    const paint = await page.evaluate(() => (window as unknown as Win).__bench.firstPaintAt!);
    mkdirSync(join(OUT, 'traces'), { recursive: true });
    const file = join(OUT, 'traces', `${avatar.replace(/\.glb$/, '')}-${viewer}.json`);
    writeFileSync(file, JSON.stringify({ traceEvents: events }));
    const { threads, requests } = summarizeTrace(events, paint);
    console.log(`\nTrace, ${viewer} on ${avatar}: first painted frame ${ms(paint)} (${file})`);
    for (const r of requests.filter((r) => r.start <= paint))
      console.log(
        `  ${ms(r.start).padStart(8)} -> ${(Number.isFinite(r.end) ? ms(r.end) : 'open').padStart(8)}  ${kib(r.bytes).padStart(10)}  ${r.url.startsWith('blob:') ? 'blob (an image the loader made)' : new URL(r.url).pathname.slice(0, 70)}`,
      );
    for (const [thread, kinds] of Object.entries(threads)) {
      const total = Object.values(kinds).reduce((a, b) => a + b, 0);
      if (total < 20) continue;
      const parts = Object.entries(kinds)
        .sort((a, b) => b[1] - a[1])
        .map(([kind, t]) => `${kind} ${t.toFixed(0)}`);
      console.log(`  ${thread}: ${total.toFixed(0)} ms (${parts.join(', ')})`);
    }
  } catch (error) {
    console.log(`  trace of ${viewer} on ${avatar} FAILED: ${failure(error, session)}`);
  } finally {
    await session?.close();
  }
}

async function heapUsed(session: Session): Promise<number> {
  const cdp = await session.context.newCDPSession(session.page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
}

/** Shows `url` (ours: a new address in the frame's history, as /embed follows it). */
async function switchModel(session: Session, viewer: Viewer, url: string, timeoutMs: number) {
  const loads = await session.page.evaluate(
    ({ ours, url }) => {
      const w = window as unknown as Win;
      const before = w.__bench.loads;
      if (ours) {
        const address = new URL(location.href);
        address.searchParams.set('modelSrc', url);
        history.pushState(null, '', address);
        dispatchEvent(new PopStateEvent('popstate'));
      } else w.__benchSwitch!(url);
      return before;
    },
    { ours: isOurs(viewer), url },
  );
  await session.page.waitForFunction(
    (before) => {
      const bench = (window as unknown as Win).__bench;
      return bench.error !== undefined || bench.loads > before;
    },
    loads,
    { timeout: timeoutMs, polling: 50 },
  );
}

/** Frames drawn while still, and memory over `switches` model switches (unthrottled). */
async function measureSteady(url: string, viewer: Viewer, options: Options): Promise<SteadyRun> {
  const result: SteadyRun = { viewer };
  let session: Session | undefined;
  try {
    session = await openPage(viewer, 'unthrottled', { capture: false });
    await session.page.goto(url, { waitUntil: 'commit' });
    await waitForFirstFrame(session, options.timeoutMs);
    // Let the spawn (ours), fades and first-load work settle before counting.
    await session.page.waitForTimeout(2000);
    const frames = () => session!.page.evaluate(() => (window as unknown as Win).__bench.frames);
    const before = await frames();
    await session.page.waitForTimeout(options.stillMs);
    result.stillFrames = (await frames()) - before;
    result.heapAfterLoad = await heapUsed(session);
    for (let i = 1; i <= options.switches; i++) {
      const avatar = SWITCHED[i % SWITCHED.length]!;
      await switchModel(session, viewer, modelPath(viewer, avatar), options.timeoutMs);
    }
    const error = await session.page.evaluate(() => (window as unknown as Win).__bench.error);
    if (error) throw new Error(error);
    result.heapAfterSwitches = await heapUsed(session);
  } catch (error) {
    result.error = failure(error, session);
  } finally {
    await session?.close();
  }
  return result;
}

/** The first painted frame (as the probe copied it) and the settled frame, as PNG files. */
async function screenshots(url: string, viewer: Viewer, avatar: string, options: Options) {
  const name = `${avatar.replace(/\.glb$/, '')}-${viewer}`;
  let session: Session | undefined;
  try {
    session = await openPage(viewer, 'unthrottled', { capture: true });
    await session.page.goto(url, { waitUntil: 'commit' });
    await waitForFirstFrame(session, options.timeoutMs);
    const { first, size } = await session.page.evaluate(() => {
      const bench = (window as unknown as Win).__bench;
      return { first: bench.firstFrame!.toDataURL('image/png'), size: bench.paintedSize };
    });
    writeFileSync(
      join(SCREENSHOTS, `${name}-first.png`),
      Buffer.from(first.slice(first.indexOf(',') + 1), 'base64'),
    );
    await session.page.waitForTimeout(3000);
    await session.page.screenshot({ path: join(SCREENSHOTS, `${name}-settled.png`) });
    return `${name}-first.png, ${name}-settled.png (canvas ${size})`;
  } catch (error) {
    return `${name}: FAILED: ${failure(error, session)}`;
  } finally {
    await session?.close();
  }
}

/** What the server answers for each kind of file, so the run shows the headers are the same. */
async function describeHeaders(base: string, urls: Record<string, string>) {
  console.log('What the server sends (Accept-Encoding: br, gzip):');
  for (const [what, url] of Object.entries(urls)) {
    const response = await fetch(`${base}${url}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    await response.arrayBuffer();
    const h = (name: string) => response.headers.get(name) ?? '-';
    console.log(
      `  ${what.padEnd(26)} ${response.status} ${h('content-type')}; encoding ${h('content-encoding')}; cache-control ${h('cache-control')}${
        h('link') !== '-' ? `; link ${h('link')}` : ''
      }`,
    );
  }
}

const median = (values: (number | undefined)[]) => {
  const sorted = values.filter((v): v is number => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)} ms` : 'n/a');
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : 'n/a');
const kib = (v: number) => (Number.isFinite(v) ? `${(v / 1024).toFixed(0)} KiB` : 'n/a');
const mib = (v: number) => (Number.isFinite(v) ? `${(v / 2 ** 20).toFixed(1)} MiB` : 'n/a');

/** A Markdown table: the first `text` columns left-aligned, the figures right-aligned. */
function table(head: string[], rows: string[][], text: number) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i < text ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(head));
  console.log(
    `| ${widths.map((w, i) => (i < text ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`,
  );
  for (const row of rows) console.log(line(row));
}

function report(
  firstFrames: FirstFrameRun[],
  steady: SteadyRun[],
  viewers: readonly Viewer[],
  options: Options,
) {
  console.log(
    `\nFirst painted frame and loaded signal, ms from navigation start, medians of ${options.runs} run(s) (fresh Chromium each, SwiftShader, 1280 x 720):`,
  );
  const medianOf = (viewer: Viewer, avatar: string, c: Case, key: keyof FirstFrameRun) =>
    median(
      firstFrames
        .filter((r) => r.viewer === viewer && r.avatar === avatar && r.case === c && !r.error)
        .map((r) => r[key] as number | undefined),
    );
  const rows: string[][] = [];
  for (const c of options.cases)
    for (const avatar of options.avatars)
      for (const viewer of viewers) {
        const runs = firstFrames.filter(
          (r) => r.viewer === viewer && r.avatar === avatar && r.case === c,
        );
        const ok = runs.filter((r) => !r.error).length;
        const first = medianOf(viewer, avatar, c, 'firstPaintMs');
        const loadedLead = median(
          runs.filter((r) => !r.error).map((r) => r.loadedMs! - r.firstPaintMs!),
        );
        rows.push([
          viewer,
          avatar,
          c,
          `${ok}/${runs.length}`,
          ms(first),
          ms(medianOf(viewer, avatar, c, 'loadedMs')),
          Number.isFinite(loadedLead)
            ? `${loadedLead >= 0 ? '+' : ''}${loadedLead.toFixed(0)} ms`
            : 'n/a',
          viewers.includes('model-viewer')
            ? ratio(first, medianOf('model-viewer', avatar, c, 'firstPaintMs'))
            : 'n/a',
          viewers.includes('visage')
            ? ratio(first, medianOf('visage', avatar, c, 'firstPaintMs'))
            : 'n/a',
          kib(medianOf(viewer, avatar, c, 'bytesBeforePaint')),
          kib(medianOf(viewer, avatar, c, 'jsBytesBeforePaint')),
        ]);
      }
  table(
    [
      'viewer',
      'avatar',
      'case',
      'runs ok',
      'first painted frame',
      'loaded',
      'loaded - frame',
      'frame / model-viewer',
      'frame / visage',
      'bytes before frame',
      'of which JS',
    ],
    rows,
    3,
  );
  if (steady.length) {
    console.log(
      `\nStill and switching (unthrottled, ${SWITCHED[0]}; ${options.switches} switches between ${SWITCHED.join(' and ')}):`,
    );
    table(
      [
        'viewer',
        `frames drawn in ${options.stillMs / 1000} s still`,
        'heap after load',
        `heap after ${options.switches} switches`,
      ],
      steady.map((s) =>
        s.error && s.stillFrames === undefined
          ? [s.viewer, `FAILED: ${s.error}`, '', '']
          : [
              s.viewer,
              String(s.stillFrames ?? 'n/a'),
              mib(s.heapAfterLoad ?? NaN),
              s.error ? `FAILED: ${s.error}` : mib(s.heapAfterSwitches ?? NaN),
            ],
      ),
      1,
    );
  }
  const failed = firstFrames.filter((r) => r.error);
  if (failed.length)
    console.log(`${failed.length} run(s) failed (listed above); medians use the others.`);
}

/** Builds, serves and measures; prints the tables and returns every run. */
export async function benchViewer(options: BenchViewerOptions = {}) {
  const opts: Options = {
    runs: 5,
    switches: 50,
    viewers: VIEWERS,
    cases: CASES,
    avatars: AVATARS,
    stillMs: 3000,
    timeoutMs: 180_000,
    install: true,
    screenshots: true,
    trace: false,
    ...options,
  };
  const measured = [...new Set([...opts.avatars, ...SWITCHED])];
  // ours-before is measured with --before, always then.
  const asked = opts.before
    ? [...new Set<Viewer>([...opts.viewers, 'ours-before'])]
    : opts.viewers.filter((v) => v !== 'ours-before' || options.viewers?.includes(v));
  const unbuilt = await buildSite(asked, measured, opts.install, opts.before);
  if (!opts.before && asked.includes('ours-before'))
    unbuilt.set('ours-before', 'no commit to build it from: add --before <ref>');
  for (const [viewer, why] of unbuilt)
    console.log(`NOT MEASURED: ${viewer} could not be built: ${why}`);
  const viewers = asked.filter((v) => !unbuilt.has(v));
  if (viewers.length === 0) return { firstFrames: [], steady: [] };

  const frames = new Map<string, Framing>();
  for (const avatar of measured) frames.set(avatar, await framing(avatar));
  const server = await startServer({ STATIC_DIR: SITE, MORPH_WORKER: 'off' });
  // The same server code on the other folder, so that page is answered as /embed is.
  const beforeServer = viewers.includes('ours-before')
    ? await startServer({ STATIC_DIR: BEFORE_SITE, MORPH_WORKER: 'off' })
    : undefined;
  const firstFrames: FirstFrameRun[] = [];
  const steady: SteadyRun[] = [];
  try {
    const baseOf = (v: Viewer) => (v === 'ours-before' ? beforeServer! : server).url;
    const urls = (avatar: string) =>
      Object.fromEntries(
        viewers.map((v) => [v, pageUrl(baseOf(v), v, avatar, frames.get(avatar)!)]),
      );
    const sample = urls(opts.avatars[0]!);
    console.log(`Server: ${server.url} (the project's server, STATIC_DIR=${SITE})`);
    if (beforeServer)
      console.log(`Server for ours-before: ${beforeServer.url} (STATIC_DIR=${BEFORE_SITE})`);
    for (const viewer of viewers)
      console.log(`  ${viewer}: ${sample[viewer]!.slice(baseOf(viewer).length)}`);
    await describeHeaders(server.url, {
      ...Object.fromEntries(
        viewers
          .filter((v) => v !== 'ours-before')
          .map((v) => [`page (${v})`, sample[v]!.slice(server.url.length)]),
      ),
      'model (.glb)': `/fixtures/avatars/${opts.avatars[0]}`,
      'environment (.hdr)': ENVIRONMENT,
    });
    for (const [avatar, frame] of frames)
      console.log(
        `Framing ${avatar}: target ${frame.target.join(', ')} m, distance ${frame.distance} m, fov ${FOV_DEG}°`,
      );

    if (opts.screenshots) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      console.log(`\nScreenshots (${SCREENSHOTS}):`);
      for (const avatar of opts.avatars)
        for (const viewer of viewers)
          console.log(`  ${await screenshots(urls(avatar)[viewer]!, viewer, avatar, opts)}`);
    }

    if (opts.trace)
      for (const avatar of opts.avatars)
        for (const viewer of viewers)
          await traceFirstFrame(urls(avatar)[viewer]!, viewer, avatar, opts);

    for (const c of opts.cases)
      for (const avatar of opts.avatars) {
        console.log(`\n${avatar}, ${c}:`);
        for (let run = 0; run < opts.runs; run++) {
          // A B C, then B C A, then C A B: no viewer always goes first.
          const order = viewers.map((_, i) => viewers[(i + run) % viewers.length]!);
          for (const viewer of order) {
            const result = await measureFirstFrame(
              urls(avatar)[viewer]!,
              { viewer, avatar, case: c, run: run + 1 },
              opts,
            );
            firstFrames.push(result);
            console.log(
              `  run ${run + 1} ${viewer}: ${
                result.error
                  ? `FAILED: ${result.error}`
                  : `first painted frame ${ms(result.firstPaintMs!)}, loaded ${ms(result.loadedMs!)}, ${kib(result.bytesBeforePaint!)} before the frame`
              }`,
            );
          }
        }
      }

    if (opts.switches > 0 || opts.stillMs > 0) {
      console.log('\nStill frames and memory:');
      for (const viewer of viewers) {
        const result = await measureSteady(urls(SWITCHED[0]!)[viewer]!, viewer, opts);
        steady.push(result);
        console.log(`  ${viewer}: ${result.error ? `FAILED: ${result.error}` : 'done'}`);
      }
    }
  } finally {
    await server.stop();
    await beforeServer?.stop();
  }
  report(firstFrames, steady, viewers, opts);
  for (const [viewer, why] of unbuilt)
    console.log(`${viewer}: not measured (could not be built: ${why.split('\n')[0]})`);
  writeFileSync(
    join(OUT, 'results.json'),
    JSON.stringify(
      { options: opts, unbuilt: Object.fromEntries(unbuilt), firstFrames, steady },
      null,
      2,
    ),
  );
  console.log(`Every run: ${join(OUT, 'results.json')}`);
  return { firstFrames, steady };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchViewer(viewerOptionsFromArgs(process.argv.slice(2)));
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FIXTURES } from '../../core/files/test-fixtures';
import { PagePool } from './page-pool';
import {
  chromium,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/**
 * The features Playwright turns off (playwright-core 1.65's list, `chromiumSwitches.ts`). Chromium
 * keeps only the last `--disable-features` of its command line, and Playwright puts its own list
 * first, so the one below must carry this list too: `launchBrowser` fails when the installed
 * Playwright asks for a feature that is not here.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AimEnabled',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsFirstBalancedModeAutoEnable',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'NetworkTimeServiceQuerying',
  'OptimizationHints',
  'PaintHolding',
  'PreconnectToSearch',
  'TcpPortRandomizationWin',
  'ThirdPartyStoragePartitioning',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'msForceBrowserSignIn',
];

/**
 * Each new window (every `newContext()` of headless Chromium 156 opens one) preloads its address
 * bar's popup, a WebUI page in a renderer of its own: about 1.1 s of CPU, with 0.3 s more of the
 * browser process, for a popup no test opens. In the viewer bench, whose every run starts a
 * Chromium, it ran during the first second of the page being measured.
 */
const DISABLED_FEATURES = [
  ...PLAYWRIGHT_DISABLED_FEATURES,
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

/** The window of a desktop browser, every test's unless it says otherwise. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

/**
 * Debian Chromium, headless; `webgl` adds SwiftShader. Each `newContext()` is a fresh
 * profile (own storage), so tests do not see each other's sessions.
 */
export async function launchBrowser(options: { webgl?: boolean } = {}) {
  const args = options.webgl
    ? [...BASE_ARGS, '--use-angle=swiftshader', '--enable-unsafe-swiftshader']
    : BASE_ARGS;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...args, `--disable-features=${DISABLED_FEATURES.join(',')}`],
  });
  try {
    assertFeaturesKept();
  } catch (error) {
    await browser.close();
    throw error;
  }
  return {
    browser,
    /** The profiles tests have closed, kept to clear and lend again (page-pool.ts). */
    pool: new PagePool(browser),
    newContext: (viewport = DEFAULT_VIEWPORT, options: BrowserContextOptions = {}) =>
      browser.newContext({ ...options, viewport }),
    close: () => browser.close(),
  };
}

/**
 * Fails when Playwright turned off a feature that our `--disable-features`, which replaces its
 * list, leaves on (a Playwright upgrade that adds one): read from the command line of every
 * Chromium this process started (Linux's /proc).
 */
function assertFeaturesKept() {
  if (!existsSync('/proc/self/stat')) return;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string, commandLine: string[];
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent !== process.pid || !commandLine[0]?.includes('chromium')) continue;
    const lists = commandLine
      .filter((arg) => arg.startsWith('--disable-features='))
      .map((arg) => arg.slice('--disable-features='.length).split(','));
    if (lists.length < 2) continue;
    const missing = lists[0]!.filter((feature) => !lists.at(-1)!.includes(feature));
    if (missing.length > 0) {
      throw new Error(
        `Playwright turns off ${missing.join(', ')}; add them to PLAYWRIGHT_DISABLED_FEATURES in tests/helpers/browser.ts`,
      );
    }
  }
}

type LaunchedBrowser = Awaited<ReturnType<typeof launchBrowser>>;
const launched = new Map<boolean, Promise<LaunchedBrowser>>();

/**
 * The worker's Chromium of each kind (with or without WebGL) and its page pool, launched for
 * its first file and kept for the next ones (the end-to-end projects keep a worker's modules
 * between its files: vitest's `isolate: false`); it goes when the worker does. Another one
 * replaces it if it went away.
 */
export async function workerBrowser(options: { webgl?: boolean } = {}): Promise<LaunchedBrowser> {
  const webgl = options.webgl ?? false;
  const running = await launched.get(webgl)?.catch(() => undefined);
  if (running?.browser.isConnected()) return running;
  const next = launchBrowser({ webgl });
  launched.set(webgl, next);
  return next;
}

/** Answers the page's /fixtures/<path> requests with the shared fixture files (GLB models). */
export function serveFixtures(target: BrowserContext | Page) {
  return target.route(
    (url) => url.pathname.startsWith('/fixtures/'),
    (route) =>
      route.fulfill({
        body: readFileSync(
          resolve(FIXTURES, new URL(route.request().url()).pathname.slice('/fixtures/'.length)),
        ),
        contentType: 'model/gltf-binary',
      }),
  );
}

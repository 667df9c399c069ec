import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
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
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
  return {
    browser,
    /** The profiles tests have closed, kept to clear and lend again (page-pool.ts). */
    pool: new PagePool(browser),
    newContext: (viewport = DEFAULT_VIEWPORT, options: BrowserContextOptions = {}) =>
      browser.newContext({ ...options, viewport }),
    close: () => browser.close(),
  };
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

/** The shared test data (../shared/fixtures), which the pages ask for as /fixtures/<path>. */
export const FIXTURES_DIR = resolve('..', 'shared', 'fixtures');

/** Answers the page's /fixtures/<path> requests with the shared fixture files (GLB models). */
export function serveFixtures(target: BrowserContext | Page) {
  return target.route(
    (url) => url.pathname.startsWith('/fixtures/'),
    (route) =>
      route.fulfill({
        body: readFileSync(
          resolve(FIXTURES_DIR, new URL(route.request().url()).pathname.slice('/fixtures/'.length)),
        ),
        contentType: 'model/gltf-binary',
      }),
  );
}

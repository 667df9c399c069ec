import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { authResultSchema, envelope, type AuthResult } from '../../contract/schemas';
import { SESSION_STORAGE_KEY, toPersisted } from '../../src/machines/session-persistence';
import { defaultSessionUser, mergeUser } from '../../src/machines/session.machine';
import { DEFAULT_VIEWPORT, workerBrowser } from './browser';
import { reusablePort, startServer, type TestServer } from './server';

/** The real server of one file, and the worker's Chromium (browser.ts). */
export interface AppUnderTest {
  server: TestServer;
  browser: Awaited<ReturnType<typeof workerBrowser>>;
}

/**
 * A throwaway copy of the data folder the global set-up migrated and seeded: a server of a
 * file's own (other settings, a restart) starts on it in a second or two, where a fresh folder
 * is migrated, seeded and has its demo models derived first.
 */
export function seededCopy(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'avatar-studio-e2e-'));
  cpSync(inject('seededDataDir'), dataDir, { recursive: true });
  return dataDir;
}

/**
 * Starts the reference server (with `env` on top of the test settings) on a throwaway copy of
 * the seeded data folder, at the worker's address, before the file's tests, and stops it after
 * them; the worker's Debian Chromium serves them, and keeps the profiles they closed for the
 * worker's next file. Read `server` and `browser` inside tests and hooks.
 */
export function appUnderTest(
  options: { webgl?: boolean; env?: Record<string, string> } = {},
): AppUnderTest {
  const app = {} as AppUnderTest;
  beforeAll(async () => {
    app.server = await startServer(options.env, {
      dataDir: seededCopy(),
      port: await reusablePort(),
    });
    app.browser = await workerBrowser(options);
  });
  beforeEach(() => app.browser?.pool.testBegins());
  afterEach(async ({ task }) => {
    // Before the profiles a test left open go back to the pool, where they are cleared.
    if (task.result?.state === 'fail') task.meta.openPages = await showOpenPages(app, task.name);
    await app.browser?.pool.takeBack();
  });
  afterAll(async () => {
    await app.browser?.pool.fileEnds();
    await app.server?.stop();
  });
  return app;
}

/** Where a failed test's pages are pictured (scripts/test.sh keeps .tmp/test-results). */
const FAILURES_DIR = join('.tmp', 'test-results', 'failures');

declare module 'vitest' {
  interface TaskMeta {
    /** Where each page still open was when the test failed (the CI summary prints it). */
    openPages?: string[];
  }
}

/**
 * What the pages still open when a test failed showed: each one's address, headings and
 * focused element, in the log and returned (for the test's report, whose summary ends the CI
 * log), and a screenshot in FAILURES_DIR, so that a failure seen once (a race) says where the
 * page was, not only what the test waited for.
 */
async function showOpenPages(app: AppUnderTest, test: string): Promise<string[]> {
  const pages = (
    app.browser?.browser.contexts().flatMap((context) => context.pages()) ?? []
  ).filter((page) => !app.browser.pool.isFree(page));
  const name = test.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
  mkdirSync(FAILURES_DIR, { recursive: true });
  const shown: string[] = [];
  for (const [index, page] of pages.entries()) {
    const state = await page
      .evaluate(() => ({
        url: location.href,
        headings: Array.from(document.querySelectorAll('h1, h2, [role="alert"]'))
          .slice(0, 6)
          .map((element) => element.textContent?.trim()),
        // The focused element itself, without its children.
        focused: (document.activeElement?.cloneNode(false) as Element | undefined)?.outerHTML,
        scrollY,
      }))
      .catch((error: unknown) => String(error));
    const path = join(FAILURES_DIR, `${name}-${index}.png`);
    await page.screenshot({ path }).catch(() => undefined);
    console.log(`Open page ${index} when "${test}" failed (${path}):`, state);
    shown.push(`open page ${index}: ${JSON.stringify(state)}`);
  }
  return shown;
}

/** The admin the server seeds (its published development password). */
export const ADMIN = { email: 'admin@avatar.studio', password: 'avatar-studio-admin' };

/**
 * A profile at `viewport` holding only `session` (an answer of the sign-in or sign-up API)
 * where and as the app stores a sign-in (new, or one a test closed, cleared: page-pool.ts),
 * with the tests' default timeout.
 */
async function pageWithSession(
  app: AppUnderTest,
  session: AuthResult,
  viewport?: { width: number; height: number },
) {
  const record = toPersisted({ data: mergeUser(defaultSessionUser(), session) });
  return borrow(app, viewport, { [SESSION_STORAGE_KEY]: JSON.stringify(record) });
}

/**
 * A page in a profile that holds nothing, signed out (a new context, or one a test closed,
 * cleared: page-pool.ts), with the tests' default timeout. Nothing is opened in it.
 */
export function blankPage(app: AppUnderTest, viewport = DEFAULT_VIEWPORT) {
  return borrow(app, viewport, {});
}

/** A page from the pool holding only `localStorage`, with the tests' default timeout. */
async function borrow(
  app: AppUnderTest,
  viewport = DEFAULT_VIEWPORT,
  localStorage: Record<string, string>,
) {
  const page = await app.browser.pool.page(app.server.url, viewport, localStorage);
  page.setDefaultTimeout(15_000);
  return page;
}

/** Signs in (or, without `body`, starts a guest) through the API, as the sign-in page does. */
async function apiSession(app: AppUnderTest, body?: { email: string; password: string }) {
  const res = await fetch(`${app.server.url}/v1/auth/${body ? 'login' : 'signup'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`signing in as ${body?.email ?? 'a guest'}: ${res.status}`);
  return envelope(authResultSchema).parse(await res.json()).data;
}

/**
 * A fresh profile signed in the way the sign-in page would leave it, opened at `at` (a full
 * URL), or on the dashboard without one. Opening where the test starts spares a whole load of
 * the app (about a second of the renderer a test on 2 cores).
 */
async function openAs(
  app: AppUnderTest,
  body: { email: string; password: string } | undefined,
  viewport?: { width: number; height: number },
  at?: string,
) {
  const page = await pageWithSession(app, await apiSession(app, body), viewport);
  await page.goto(at ?? app.server.url);
  // The app's heading (in #main), not the one the server draws before the scripts run.
  if (!at) await page.locator('#main').getByRole('heading', { name: 'Dashboard' }).waitFor();
  return page;
}

/**
 * A fresh profile signed in as `account` (the admin by default), on the dashboard. The sign-in
 * goes through the API: the sign-in page has tests of its own (accounts.test.ts), and skipping
 * its load and form saves about a second a test.
 */
export function signedInPage(
  app: AppUnderTest,
  account: { email: string; password: string } = ADMIN,
  viewport?: { width: number; height: number },
) {
  return openAs(app, account, viewport);
}

/** As `signedInPage`, opened at `url` instead of the dashboard (waits for nothing on it). */
export function signedInAt(
  app: AppUnderTest,
  url: string,
  account: { email: string; password: string } = ADMIN,
  viewport?: { width: number; height: number },
) {
  return openAs(app, account, viewport, url);
}

/** A fresh profile with a guest session (what "Continue as guest" starts), on the dashboard. */
export function guestPage(app: AppUnderTest, viewport?: { width: number; height: number }) {
  return openAs(app, undefined, viewport);
}

/** As `guestPage`, opened at `url` instead of the dashboard. */
export function guestAt(
  app: AppUnderTest,
  url: string,
  viewport?: { width: number; height: number },
) {
  return openAs(app, undefined, viewport, url);
}

/**
 * Waits until no part of the page is still reading its content (`aria-busy`: the asset page's
 * changelog and applications panels move the panels below them when they arrive, a picker's
 * chips while their names are looked up), then brings
 * `field` wholly into view, as a person looks at a field before typing into it. React Aria
 * closes an open list on any scroll of the page: a list opened from a field at the bottom
 * edge closed as the option was scrolled to, and the pick was lost (seen in four tests).
 */
export async function readyToPick(page: Page, field: Locator) {
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  await field.scrollIntoViewIfNeeded();
  // The page's scroll event comes with the next frame: past it, it can no longer close a list
  // that typing opens.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

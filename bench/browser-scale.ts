/**
 * `npm run bench -- browser-scale [--large-url URL] [--runs 3] [--out .tmp/browser-scale]`:
 * the assets list as a person feels it in headless Debian Chromium, at the seed's size (600
 * assets: the demo's 300 and `seed:scale --assets 300`'s) and at a million, on PostgreSQL: open the list until its rows are painted, the next page, a jump to a
 * page in the middle (by its address), the pager's last page, sort by name, search "hoodie"
 * (typed; timed from the last key), then the endless list and 5 loads as its end is scrolled
 * into view. Prints the median of each at both sizes and their ratio, and saves screenshots at
 * 1280 and 390 px wide into `--out`.
 *
 * Against the build in dist/ (`npm run build` first), served by the real server
 * (tests/helpers/server.ts) on a database of its own: the small size is seeded with
 * `npm run seed:scale`'s code on DATABASE_URL's server (or a throwaway cluster, as
 * `bench -- scale` does); the million is `--large-url` (e.g. a copy of an `npm run seed:scale`
 * database, used as it is, migrations aside), or that same database grown to a million
 * (long). Measurements, never pass/fail.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import type { Page } from 'playwright-core';
import { createApp } from '../server/app';
import { createPgDb } from '../server/db';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, loadConfig } from '../server/config';
import { configureLog } from '../server/log';
import { createDevMailbox } from '../server/mail';
import { migrate } from '../server/migrate';
import { seedScale } from '../scripts/seed-scale';
import { launchBrowser } from '../tests/helpers/browser';
import { freePort } from '../tests/helpers/server';
import { benchOptions } from './args';
import { startPostgres } from './server-scale';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SEARCH = 'hoodie';
const LOADS = 5;

/** One timed step: milliseconds per run, and what the screen showed at the end. */
interface Step {
  ms: number[];
  shown: string;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

async function signIn(page: Page, url: string) {
  await page.goto(`${url}/signin`);
  await page.getByLabel('E-mail').fill(DEFAULT_ADMIN_EMAIL);
  await page.getByLabel('Password').fill(DEFAULT_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

/**
 * Resolves on the first frame where the list has settled: rows painted and no skeleton or
 * "loading" row left, or the message that takes the rows' place. Says which, with the total.
 */
async function settled(page: Page): Promise<string> {
  await page.waitForFunction(
    () => {
      const list = document.querySelector('.list-screen');
      if (!list) return false;
      if (list.querySelector('.skeleton-row, [aria-busy="true"]')) return false;
      return (
        list.querySelector('[role="rowheader"]') !== null || list.querySelector('.alert') !== null
      );
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return page.evaluate(() => {
    const list = document.querySelector('.list-screen')!;
    const alert = list.querySelector('.alert')?.textContent;
    const first = list.querySelector('[role="rowheader"]')?.textContent ?? '';
    const count = list.querySelector('.list-header .count')?.textContent ?? '';
    return alert ? `"${alert.slice(0, 60)}…"` : `${count}; first row ${first.trim()}`;
  });
}

/** A request of the assets list whose parameters pass `wanted`. */
const listRequest = (wanted: (params: URLSearchParams) => boolean) => (url: string) => {
  const address = new URL(url);
  return address.pathname === '/v1/assets' && wanted(address.searchParams);
};

/**
 * Times `act` until the list has settled (see `settled`); with `asks`, once the app has also
 * been answered the request it makes (the list asks once the address has changed, after its
 * debounce), so the rows on screen are the new ones.
 */
async function timed(
  page: Page,
  act: () => Promise<unknown>,
  asks?: (params: URLSearchParams) => boolean,
): Promise<{ ms: number; shown: string }> {
  const started = performance.now();
  const answered = asks
    ? page.waitForResponse((response) => listRequest(asks)(response.url()))
    : undefined;
  await act();
  await answered;
  // A frame for what the click or the answer changed to reach the screen.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  const shown = await settled(page);
  return { ms: performance.now() - started, shown };
}

/** The pager's last page: "Last page" where the total is an estimate, else its number. */
const lastPageButton = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Pages' })
    .getByRole('button', { name: /^(Last page|Page [\d,]+)$/ })
    .last();

/** The total pages of the latest first page of the assets list the app was answered. */
function trackTotalPages(page: Page): () => number {
  let totalPages = 1;
  page.on('response', (response) => {
    const address = new URL(response.url());
    if (address.pathname !== '/v1/assets' || address.searchParams.get('page') !== '1') return;
    void response
      .json()
      .then((body: { pagination?: { totalPages?: number } }) => {
        totalPages = body.pagination?.totalPages ?? totalPages;
      })
      .catch(() => undefined);
  });
  return () => totalPages;
}

/** One run of every step on the assets list, desktop width; screenshots on the first run. */
async function runSteps(page: Page, url: string, shots: (name: string) => Promise<void>) {
  const steps = new Map<string, { ms: number; shown: string }>();
  const totalPages = trackTotalPages(page);
  const step = async (
    name: string,
    act: () => Promise<unknown>,
    asks?: (params: URLSearchParams) => boolean,
  ) => {
    steps.set(name, await timed(page, act, asks));
  };
  await step(
    'open the list',
    () => page.goto(`${url}/assets`),
    () => true,
  );
  await shots('open');
  const last = totalPages();
  await step(
    'next page',
    () =>
      page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next' }).click(),
    (params) => params.get('page') === '2',
  );
  await step(
    'last page (pager)',
    () => lastPageButton(page).click(),
    (params) => params.get('page') === String(last),
  );
  await shots('last-page');
  await step(
    'sort by name',
    () => page.getByRole('columnheader', { name: /Name/ }).click(),
    (params) => params.get('order')?.endsWith('name') === true,
  );
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.click();
  await page.keyboard.type(SEARCH.slice(0, -1), { delay: 80 });
  await step(
    `search "${SEARCH}" (from the last key)`,
    () => page.keyboard.type(SEARCH.slice(-1)),
    (params) => params.get('search') === SEARCH,
  );
  await shots('search');
  // The endless list over the whole list, in the same sort.
  // (Its first page may come from the cache: no request to wait for, only the debounce.)
  await search.fill('');
  await page.waitForURL((address) => !address.search.includes(SEARCH));
  await page.waitForTimeout(500);
  await settled(page);
  await step('endless scroll on', () =>
    page.getByRole('button', { name: 'Endless scroll' }).click(),
  );
  // Its first rows may not fill the window: it has loaded more on its own, and settled.
  const rowCount = () => page.locator('.list-screen [role="rowheader"]').count();
  const loads: number[] = [];
  for (let load = 0; load < LOADS; load += 1) {
    const before = await rowCount();
    const started = performance.now();
    await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      const rows = document.querySelectorAll('.list-screen [role="row"]');
      rows[rows.length - 1]?.scrollIntoView({ block: 'end' });
    });
    // Painted: the next page's rows are in the table (it may go on loading while its end
    // stays in view).
    await page.waitForFunction(
      (n) => document.querySelectorAll('.list-screen [role="rowheader"]').length >= n + 10,
      before,
      { polling: 'raf', timeout: 60_000 },
    );
    loads.push(performance.now() - started);
    await settled(page);
  }
  steps.set(`${LOADS} loads, scrolled (each)`, {
    ms: median(loads),
    shown: `${await page.locator('.list-screen [role="rowheader"]').count()} rows`,
  });
  await shots('endless');
  // Back to the pager (the choice is remembered), then a page in the middle, by its address.
  // (From the keyboard: while rows come in above the fold, a pointer would aim at a moving
  // target.)
  await page.getByRole('button', { name: 'Endless scroll' }).focus();
  await page.keyboard.press('Space');
  await settled(page);
  const middle = Math.ceil(last / 2);
  await step(
    'jump to the middle page (address)',
    () => page.goto(`${url}/assets?page=${middle}`),
    (params) => params.get('page') === String(middle),
  );
  await shots('middle-page');
  return steps;
}

/** Screenshots of the list on a phone: opened, its last page, a page in the middle. */
async function phoneShots(page: Page, url: string, shot: (name: string) => Promise<void>) {
  const totalPages = trackTotalPages(page);
  await page.goto(`${url}/assets`);
  await settled(page);
  await shot('open');
  const last = totalPages();
  await lastPageButton(page).click();
  await settled(page);
  await shot('last-page');
  await page.goto(`${url}/assets?page=${Math.ceil(last / 2)}`);
  await settled(page);
  await shot('middle-page');
}

/**
 * The API and the built app from dist/ on `databaseUrl`, in this process (as `bench -- scale`
 * serves the API). Not server/main.ts: its start stores a file for every `/demo/` placeholder
 * of the seed, one row at a time, two million rows at a million assets; here the icons show
 * their empty tile at both sizes alike.
 */
async function serveApp(databaseUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'avatar-studio-browser-scale-'));
  const config = loadConfig({
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256!',
    DATA_DIR: dataDir,
    STATIC_DIR: 'dist',
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
  });
  // A line per request would bury the table.
  configureLog({ ...config.log, level: 'warn' });
  const db = createPgDb(databaseUrl);
  const app = createApp({ db, config, mail: createDevMailbox() });
  const port = await freePort();
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      // Open streams (the live events) would hold close() open.
      (server as Server).closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every step at one size: `runs` runs at 1280 px, then the screenshots at 390 px. */
async function measureSize(
  label: string,
  databaseUrl: string,
  { runs, out }: { runs: number; out: string },
): Promise<Map<string, Step>> {
  const server = await serveApp(databaseUrl);
  const browser = await launchBrowser();
  try {
    const results = new Map<string, Step>();
    for (let run = 0; run < runs; run += 1) {
      // A fresh profile per run: nothing cached or remembered from the one before.
      const context = await browser.newContext(DESKTOP);
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await signIn(page, server.url);
      const shots = async (name: string) => {
        if (run === 0) {
          await page.screenshot({ path: `${out}/${label}-1280-${name}.png`, fullPage: true });
        }
      };
      for (const [name, { ms, shown }] of await runSteps(page, server.url, shots)) {
        const step = results.get(name) ?? { ms: [], shown };
        step.ms.push(ms);
        results.set(name, step);
      }
      await context.close();
    }
    const phone = await browser.newContext(PHONE, { isMobile: true, hasTouch: true });
    const page = await phone.newPage();
    page.setDefaultTimeout(60_000);
    await signIn(page, server.url);
    await phoneShots(page, server.url, (name) =>
      page.screenshot({ path: `${out}/${label}-390-${name}.png`, fullPage: true }).then(() => {}),
    );
    await phone.close();
    return results;
  } finally {
    await browser.close();
    await server.stop();
  }
}

export async function benchBrowserScale(args: string[] = []): Promise<void> {
  const values = benchOptions(args, {
    'large-url': undefined,
    runs: '3',
    out: '.tmp/browser-scale',
  });
  const runs = Number(values.runs);
  const out = values.out;
  mkdirSync(out, { recursive: true });
  const postgres = await startPostgres();
  const db = createPgDb(postgres.url);
  const log = (line: string) => console.log(line);
  try {
    await seedScale(db, { assets: 300, users: 30 }, log);
    const small = await measureSize('seed', postgres.url, { runs, out });
    let largeUrl = values['large-url'];
    if (largeUrl) {
      // Here rather than in the server's start, whose wait for health a long migration outlasts.
      const started = performance.now();
      const large = createPgDb(largeUrl);
      const applied = await migrate(large).finally(() => large.close());
      log(
        `Migrations on --large-url: ${applied.length === 0 ? 'none to apply' : applied.join(', ')} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    } else {
      const started = performance.now();
      await seedScale(db, { assets: 1_000_000, users: 100_000 }, log);
      log(`Grown to a million assets in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      largeUrl = postgres.url;
    }
    const large = await measureSize('million', largeUrl, { runs, out });
    const total = (steps: Map<string, Step>) => steps.get('open the list')?.shown.split(';')[0];
    console.log(`\nseed: ${total(small)}; million: ${total(large)}`);
    console.log(
      `${'step (ms until the list has settled)'.padEnd(40)} ${'seed'.padStart(7)} ${'million'.padStart(10)} ${'ratio'.padStart(6)}  shown at a million`,
    );
    for (const [name, at] of large) {
      const before = small.get(name);
      const [a, b] = [median(before?.ms ?? []), median(at.ms)];
      console.log(
        `${name.padEnd(40)} ${a.toFixed(0).padStart(7)} ${b.toFixed(0).padStart(10)} ${`${(b / a).toFixed(2)}x`.padStart(6)}  ${at.shown}`,
      );
    }
    console.log(
      `(median of ${runs} run(s) at 1280 px in headless Chromium; screenshots at 1280 and 390 px in ${out}/)`,
    );
  } finally {
    // The app's listeners (live events, sessions) outlive its server and would report the
    // database going away.
    configureLog({ level: 'silent', format: 'json' });
    await db.close();
    await postgres.stop();
  }
}

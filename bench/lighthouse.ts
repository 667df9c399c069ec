/**
 * `npm run bench -- lighthouse [--runs 3] [--static-dir DIR] [--out DIR] [--only NAMES]`:
 * Lighthouse in its mobile preset (a mid-range phone's CPU, 4x slower, and a slow 4G network,
 * both simulated) on the pages a person opens first: sign-in, dashboard, assets list, an asset
 * page, users list, the Trash and the embed viewer (--only: some of them, by name,
 * comma-separated). Prints, per page, the median over the runs of the performance score, LCP,
 * TBT and CLS, and the accessibility, best-practices and SEO scores.
 *
 * The app is served as `npm start` serves it: the production build (written into a folder of
 * its own, not dist/, unless --static-dir names a build to use as it is), the real server in
 * development mode on a throwaway data folder with the demo seed. The sign-in form is measured
 * first, as a stranger sees it (nothing in the browser's storage); the signed-in pages then
 * with the demo admin's session kept in the page's storage. The HTTP cache is cleared before
 * each run, so every run is a first visit. Measurements, never pass/fail: on a shared machine
 * the scores move by several points from run to run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../server/config';
import { CHROMIUM_PATH } from '../tests/helpers/browser';
import { startServer } from '../tests/helpers/server';

/** A page to measure: its name in the table and its address. */
interface Target {
  name: string;
  path: string;
}

/** One page's figures from one run. */
interface Figures {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

/** Builds the SPA and the embed page into `dir`, compressed as `npm run build` does. */
function build(dir: string) {
  const run = (args: string[]) =>
    execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const vite = 'node_modules/vite/bin/vite.js';
  run([vite, 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn']);
  run([vite, 'build', '--config', 'vite.embed.config.ts', '--outDir', dir, '--logLevel', 'warn']);
  run(['--import', 'tsx', 'scripts/compress-dist.ts', dir]);
}

/** Signs the demo admin in through the page; answers the signed-in pages to measure. */
async function signInAndFindPages(browser: Browser, url: string): Promise<Target[]> {
  const page = await browser.newPage();
  await page.goto(`${url}/signin`);
  await page.locator('input[type=email]').fill(DEFAULT_ADMIN_EMAIL);
  await page.locator('input[type=password]').fill(DEFAULT_ADMIN_PASSWORD);
  await page.locator('::-p-aria([name="Sign in"][role="button"])').click();
  await page.waitForFunction(() => location.pathname === '/', { timeout: 60_000 });
  // The app's own client (src/main.tsx): the session's token, as the pages send it; it
  // answers a list's rows.
  const assets = (await page.evaluate(() => {
    const studio = (window as unknown as Record<string, { request(path: string): unknown }>)
      .avatarStudio!;
    return studio.request('v1/assets?limit=50');
  })) as { id: string; modelUrl: string | null }[];
  const asset = assets.find((row) => row.modelUrl) ?? assets[0];
  if (!asset) throw new Error('The demo seed has no asset');
  await page.close();
  const model = asset.modelUrl ? `?modelSrc=${encodeURIComponent(asset.modelUrl)}&fit=true` : '';
  return [
    { name: 'dashboard', path: '/' },
    { name: 'assets list', path: '/assets' },
    { name: 'asset page', path: `/assets/${asset.id}` },
    { name: 'users list', path: '/users' },
    { name: 'Trash', path: '/trash' },
    { name: 'embed viewer', path: `/embed${model}` },
  ];
}

async function measure(
  browser: Browser,
  port: number,
  url: string,
  out: string | undefined,
  name: string,
  run: number,
): Promise<Figures> {
  // Every run a first visit: nothing from the HTTP cache, the session kept in localStorage.
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await page.close();
  const result = await lighthouse(url, {
    port,
    output: 'html',
    logLevel: 'error',
    disableStorageReset: true,
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  // A page that sent the browser elsewhere (a signed-in visit to /signin lands on the
  // dashboard) would be measured under the wrong name.
  const landed = new URL(lhr.finalDisplayedUrl);
  const asked = new URL(url);
  if (landed.pathname !== asked.pathname) {
    throw new Error(`${name}: ${asked.pathname} ended on ${landed.pathname}`);
  }
  if (out) {
    const file = `${name.replace(/\W+/g, '-')}-${run}.html`;
    writeFileSync(join(out, file), String(result.report));
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
  };
}

export async function benchLighthouse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '3' },
      'static-dir': { type: 'string' },
      out: { type: 'string' },
      // Names of the pages to measure, comma-separated ("sign-in,asset page"); all by default.
      only: { type: 'string' },
    },
  });
  const only = values.only?.split(',').map((name) => name.trim());
  const chosen = (targets: Target[]) =>
    only ? targets.filter((target) => only.includes(target.name)) : targets;
  const runs = Math.max(1, Number(values.runs));
  const ownBuild = !values['static-dir'];
  const staticDir = values['static-dir'] ?? mkdtempSync(join(tmpdir(), 'lighthouse-dist-'));
  if (ownBuild) {
    console.log(`building into ${staticDir} ...`);
    build(staticDir);
  }
  if (values.out) mkdirSync(values.out, { recursive: true });
  const server = await startServer({ NODE_ENV: 'development', STATIC_DIR: staticDir });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--enable-unsafe-swiftshader'],
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  try {
    console.log(
      `Lighthouse mobile preset (simulated slow 4G, 4x CPU slowdown), median of ${runs} run(s)`,
    );
    console.log(
      'page'.padEnd(14),
      'perf'.padStart(5),
      'LCP'.padStart(8),
      'TBT'.padStart(8),
      'CLS'.padStart(6),
      'a11y'.padStart(5),
      'b.p.'.padStart(5),
      'SEO'.padStart(5),
    );
    // The sign-in form as a stranger sees it: measured before anyone signs in, as the session
    // then stays in the browser's storage for the pages after it.
    const stranger: Target[] = [{ name: 'sign-in', path: '/signin' }];
    const report = (name: string, figures: Figures[]) => {
      const m = (key: keyof Figures) => median(figures.map((f) => f[key]));
      // A page whose only content is a canvas has no LCP, so Lighthouse gives it no score.
      const or = (value: number, text: string) => (Number.isNaN(value) ? 'n/a' : text);
      console.log(
        name.padEnd(14),
        or(m('performance'), String(m('performance'))).padStart(5),
        or(m('lcpMs'), `${(m('lcpMs') / 1000).toFixed(1)} s`).padStart(8),
        or(m('tbtMs'), `${Math.round(m('tbtMs'))} ms`).padStart(8),
        m('cls').toFixed(2).padStart(6),
        String(m('accessibility')).padStart(5),
        String(m('bestPractices')).padStart(5),
        String(m('seo')).padStart(5),
        `  (perf per run: ${figures.map((f) => f.performance).join(', ')})`,
      );
    };
    const measureAll = async (targets: Target[]) => {
      for (const { name, path } of chosen(targets)) {
        const figures: Figures[] = [];
        for (let run = 1; run <= runs; run += 1) {
          const url = server.url + path;
          figures.push(await measure(browser, chrome.port, url, values.out, name, run));
        }
        report(name, figures);
      }
    };
    await measureAll(stranger);
    await measureAll(await signInAndFindPages(browser, server.url));
  } finally {
    await browser.disconnect();
    chrome.kill();
    await server.stop();
    if (ownBuild) rmSync(staticDir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- long-tasks [--static-dir DIR[,DIR2]] [--runs 5] [--only NAMES]`: the long
 * tasks (over 50 ms) of a first visit of the signed-in pages the Lighthouse bench opens
 * (dashboard, assets, asset, users, trash), in Chromium with the CPU slowed 4x as Lighthouse's
 * mobile preset slows it, and a phone's screen. Prints per page the medians of the number of
 * long tasks, their total, their time beyond 50 ms each (what Total Blocking Time adds up) and
 * the longest. Two builds (comma-separated, each served by its own server) are measured in
 * turn, visit by visit, so a machine's load weighs on both alike. Against dist/ by default
 * (`npm run build` first). Measurements, never pass/fail.
 */
import { parseArgs } from 'node:util';
import puppeteer, { type Page } from 'puppeteer-core';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../server/config';
import { CHROMIUM_PATH } from '../tests/helpers/browser';
import { startServer, type TestServer } from '../tests/helpers/server';

const PHONE = { width: 412, height: 823, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75 };

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN;

/** The app's own client (src/main.tsx): an asset with a model, as the Lighthouse bench picks. */
async function anAsset(page: Page) {
  const rows = (await page.evaluate(() => {
    const studio = (window as unknown as Record<string, { request(path: string): unknown }>)
      .avatarStudio!;
    return studio.request('v1/assets?limit=50');
  })) as { id: string; modelUrl: string | null }[];
  const asset = rows.find((row) => row.modelUrl) ?? rows[0];
  if (!asset) throw new Error('The demo seed has no asset');
  return asset.id;
}

/** The long tasks of the page's renderer from the load until the network has settled. */
async function firstVisit(page: Page, url: string) {
  await page.setViewport(PHONE);
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // The renderer's tasks (RunTask) are recorded only with the disabled-by-default category.
  await page.tracing.start({
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
  });
  // The event stream stays open: two connections at most is "settled".
  await page.goto(url, { waitUntil: 'networkidle2', timeout: 120_000 });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const trace = await page.tracing.stop();
  const events = (JSON.parse(Buffer.from(trace ?? []).toString()) as { traceEvents: TraceEvent[] })
    .traceEvents;
  const main = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`))
    .map((e) => (e.dur ?? 0) / 1000)
    .filter((ms) => ms > 50);
}

export async function benchLongTasks(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'static-dir': { type: 'string', default: 'dist' },
      runs: { type: 'string', default: '5' },
      only: { type: 'string' },
    },
  });
  const dirs = values['static-dir'].split(',');
  const runs = Math.max(1, Number(values.runs));
  const only = values.only?.split(',').map((name) => name.trim());
  const servers: TestServer[] = [];
  for (const dir of dirs) {
    servers.push(await startServer({ NODE_ENV: 'development', STATIC_DIR: dir }));
  }
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox'],
  });
  try {
    // Each server has its own data: the demo admin signs in on each (its own origin).
    const assetIds: string[] = [];
    for (const server of servers) {
      const page = await browser.newPage();
      await page.goto(`${server.url}/signin`);
      await page.locator('input[type=email]').fill(DEFAULT_ADMIN_EMAIL);
      await page.locator('input[type=password]').fill(DEFAULT_ADMIN_PASSWORD);
      await page.locator('::-p-aria([name="Sign in"][role="button"])').click();
      await page.waitForFunction(() => location.pathname === '/', { timeout: 60_000 });
      assetIds.push(await anAsset(page));
      await page.close();
    }
    const pages: [string, (index: number) => string][] = [
      ['dashboard', () => '/'],
      ['assets', () => '/assets'],
      ['asset', (index) => `/assets/${assetIds[index]}`],
      ['users', () => '/users'],
      ['trash', () => '/trash'],
    ];
    console.log(
      `Long tasks (> 50 ms) of a first visit, CPU 4x slower, median of ${runs}: count, total, beyond 50 ms each (TBT-like), longest`,
    );
    for (const [name, path] of pages.filter(([page]) => !only || only.includes(page))) {
      const tasks: number[][][] = dirs.map(() => []);
      for (let run = 0; run < runs; run += 1) {
        for (const [index, server] of servers.entries()) {
          const page = await browser.newPage();
          tasks[index]!.push(await firstVisit(page, server.url + path(index)));
          await page.close();
        }
      }
      for (const [index, dir] of dirs.entries()) {
        const visits = tasks[index]!;
        const sum = (list: number[]) => list.reduce((total, ms) => total + ms, 0);
        console.log(
          name.padEnd(10),
          dir.padEnd(20),
          String(median(visits.map((list) => list.length))).padStart(4),
          `${median(visits.map(sum)).toFixed(0)} ms`.padStart(9),
          `${median(visits.map((list) => sum(list) - 50 * list.length)).toFixed(0)} ms`.padStart(9),
          `${median(visits.map((list) => Math.max(0, ...list))).toFixed(0)} ms`.padStart(9),
        );
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.stop();
  }
}

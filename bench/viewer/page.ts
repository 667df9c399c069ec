// The viewer bench's page driver: a fresh Chromium with the probe on one page, waiting for the
// first painted frame, reading the heap, switching the model.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../../tests/helpers/browser';
import { isOurs, THROTTLED, VIEWPORT, type Case, type Viewer } from './config';
import { probe, type Probe, type ProbeOptions } from './probe';

export type Win = Window & { __bench: Probe; __benchSwitch?: (url: string) => void };

export interface Session {
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

/** Opens `url` and waits for the first painted frame and the loaded signal (or an error). */
export async function showFirstFrame(session: Session, url: string, timeoutMs: number) {
  await session.page.goto(url, { waitUntil: 'commit' });
  await waitForFirstFrame(session, timeoutMs);
}

/**
 * Runs `work` on a fresh page (openPage), closed after; a failure answers `failed(why)`, why
 * being the error's first line and the page's first problems.
 */
export async function onFreshPage<T>(
  viewer: Viewer,
  networkCase: Case,
  probeOptions: Omit<ProbeOptions, 'dataState'>,
  work: (session: Session) => Promise<T>,
  failed: (why: string) => T,
): Promise<T> {
  let session: Session | undefined;
  try {
    session = await openPage(viewer, networkCase, probeOptions);
    return await work(session);
  } catch (error) {
    return failed(failure(error, session));
  } finally {
    await session?.close();
  }
}

export async function heapUsed(session: Session): Promise<number> {
  const cdp = await session.context.newCDPSession(session.page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
}

/** Shows `url` (ours: a new address in the frame's history, as /embed follows it). */
export async function switchModel(
  session: Session,
  viewer: Viewer,
  url: string,
  timeoutMs: number,
) {
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

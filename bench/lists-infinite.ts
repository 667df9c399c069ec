// The infinite list part of the lists bench (bench/lists.ts): a synthetic morph queue served
// page by page, scrolled to a page and timed frame by frame.
import type { Page, Route } from 'playwright-core';
import type { MorphQueueEntry } from '../contract/schemas';

export const INFINITE_TOTAL = 2000;

/** The highest page of the synthetic queue served so far. */
let servedPage = 0;

/** A synthetic morph queue of INFINITE_TOTAL entries, served page by page. */
export async function fakeQueue(route: Route) {
  const params = new URL(route.request().url()).searchParams;
  const page = Number(params.get('page') ?? 1);
  const limit = Number(params.get('limit') ?? 20);
  servedPage = Math.max(servedPage, page);
  const totalPages = Math.ceil(INFINITE_TOTAL / limit);
  const at = new Date('2026-01-01T00:00:00Z').toISOString();
  const data = Array.from(
    { length: Math.max(0, Math.min(limit, INFINITE_TOTAL - (page - 1) * limit)) },
    (_, i): MorphQueueEntry => {
      const n = (page - 1) * limit + i + 1;
      // Typed as the API's entry: an entry missing a field the app now reads failed to parse.
      return {
        id: `entry-${n}`,
        sourceAssetId: `asset-${n}`,
        sourceAssetName: `Asset number ${n}`,
        bodyAssetId: 'body-1',
        bodyAssetName: 'Male body',
        status: 'completed',
        progress: 100,
        error: null,
        morphedAssetId: `morphed-${n}`,
        createdAt: at,
        updatedAt: at,
      };
    },
  );
  await route.fulfill({
    json: {
      data,
      pagination: {
        page,
        limit,
        totalDocs: INFINITE_TOTAL,
        totalPages,
        hasNextPage: page < totalPages,
      },
    },
  });
}

/**
 * Brings the last row into view until `page` pages were served; answers the list requests it
 * took. The table virtualises long lists, so progress is counted in pages served, not rows.
 */
export async function scrollUntil(page: Page, target: number): Promise<number> {
  let requests = 0;
  const count = (request: { url: () => string }) => {
    if (new URL(request.url()).pathname === '/v1/morphed-asset-queue') requests += 1;
  };
  page.on('request', count);
  const deadline = Date.now() + 300_000;
  while (servedPage < target) {
    if (Date.now() > deadline) throw new Error(`only ${servedPage} pages after 300 s`);
    // The page to its end, then the table's own scroll area (a virtualised list's) to its end.
    await page.evaluate(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      const grid = document.querySelector('[role="grid"]');
      if (grid && grid.scrollHeight > grid.clientHeight) grid.scrollTop = grid.scrollHeight;
    });
    await page.waitForTimeout(50);
  }
  await page.waitForTimeout(300);
  page.off('request', count);
  return requests;
}

/** Frame intervals (ms) while the list scrolls from top to bottom over ~3 s. */
export async function scrollFrameTimes(page: Page): Promise<number[]> {
  return page.evaluate(async () => {
    // The table's own scroll area when it has one (virtualised lists), else the page.
    const grid = document.querySelector('[role="grid"]');
    let scroller: Element = document.scrollingElement ?? document.documentElement;
    for (let e: Element | null = grid; e; e = e.parentElement) {
      if (e.scrollHeight > e.clientHeight + 1 && getComputedStyle(e).overflowY !== 'visible') {
        scroller = e;
        break;
      }
    }
    scroller.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(r));
    const end = scroller.scrollHeight - scroller.clientHeight;
    const frames: number[] = [];
    const start = performance.now();
    let last = start;
    await new Promise<void>((resolve) => {
      const step = (now: number) => {
        frames.push(now - last);
        last = now;
        const t = Math.min(1, (now - start) / 3000);
        scroller.scrollTop = end * t;
        if (t < 1) requestAnimationFrame(step);
        else resolve();
      };
      requestAnimationFrame(step);
    });
    return frames.slice(1);
  });
}

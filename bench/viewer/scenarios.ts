// The viewer bench's measurements, each on a fresh page: the first painted frame, a traced
// first frame, the frames drawn while still and the heap over model switches, and screenshots.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelPath, OUT, SCREENSHOTS, SWITCHED, type Case, type Viewer } from './config';
import type { Options } from './options';
import { heapUsed, onFreshPage, showFirstFrame, switchModel, type Session, type Win } from './page';
import { kib, ms } from './report';
import { summarizeTrace, traced } from './trace';

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

export async function measureFirstFrame(
  url: string,
  result: FirstFrameRun,
  options: Options,
): Promise<FirstFrameRun> {
  const measure = async (session: Session) => {
    await showFirstFrame(session, url, options.timeoutMs);
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
    return result;
  };
  return onFreshPage(result.viewer, result.case, { capture: false }, measure, (why) => {
    result.error = why;
    return result;
  });
}

/**
 * One traced unthrottled run: the requests and, per thread, the kinds of work before the first
 * painted frame. The trace is written to bench/.out/viewer/traces/ (opens in DevTools).
 */
export async function traceFirstFrame(
  url: string,
  viewer: Viewer,
  avatar: string,
  options: Options,
) {
  const trace = async (session: Session) => {
    const { page } = session;
    const events = await traced(session.browser, () =>
      showFirstFrame(session, url, options.timeoutMs),
    );
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
  };
  await onFreshPage(viewer, 'unthrottled', { capture: false }, trace, (why) => {
    console.log(`  trace of ${viewer} on ${avatar} FAILED: ${why}`);
  });
}

/** Frames drawn while still, and memory over `switches` model switches (unthrottled). */
export async function measureSteady(
  url: string,
  viewer: Viewer,
  options: Options,
): Promise<SteadyRun> {
  const result: SteadyRun = { viewer };
  const measure = async (session: Session) => {
    await showFirstFrame(session, url, options.timeoutMs);
    // Let the spawn (ours), fades and first-load work settle before counting.
    await session.page.waitForTimeout(2000);
    const frames = () => session.page.evaluate(() => (window as unknown as Win).__bench.frames);
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
    return result;
  };
  return onFreshPage(viewer, 'unthrottled', { capture: false }, measure, (why) => {
    result.error = why;
    return result;
  });
}

/** The first painted frame (as the probe copied it) and the settled frame, as PNG files. */
export async function screenshots(url: string, viewer: Viewer, avatar: string, options: Options) {
  const name = `${avatar.replace(/\.glb$/, '')}-${viewer}`;
  const shoot = async (session: Session) => {
    await showFirstFrame(session, url, options.timeoutMs);
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
  };
  return onFreshPage(viewer, 'unthrottled', { capture: true }, shoot, (why) => {
    return `${name}: FAILED: ${why}`;
  });
}

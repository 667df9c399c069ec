// `npm run bench -- viewer --trace`: one Chrome trace per viewer and avatar (unthrottled), and
// where each viewer's time goes before its first painted frame: the requests (start and end,
// ms from navigation start) and, per thread, the time in each kind of work (script, compile,
// image decode, GPU, ...). Same page, probe and browser as the first-frame runs.
import type { Browser } from 'playwright-core';

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'gpu',
  'gpu.angle',
  'disabled-by-default-gpu.angle',
  'disabled-by-default-gpu.service',
  'navigation',
  '__metadata',
];

/** Records a Chrome trace (browser-wide, through CDP) while `work` runs. */
export async function traced(browser: Browser, work: () => Promise<void>): Promise<TraceEvent[]> {
  const cdp = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) =>
    events.push(...(value as unknown as TraceEvent[])),
  );
  const complete = new Promise<void>((resolve) =>
    cdp.once('Tracing.tracingComplete', () => resolve()),
  );
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: CATEGORIES },
    transferMode: 'ReportEvents',
  });
  try {
    await work();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
  return events;
}

/** Top-level kinds of work, by trace event name. */
const KIND: Record<string, string> = {
  EvaluateScript: 'script',
  FunctionCall: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  EventDispatch: 'script',
  'v8.run': 'script',
  RunMicrotasks: 'script',
  'v8.compile': 'compile',
  'v8.compileModule': 'compile',
  'V8.CompileCode': 'compile',
  'v8.evaluateModule': 'script',
  ParseHTML: 'html',
  ParseAuthorStyleSheet: 'style',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  Paint: 'paint',
  'Decode Image': 'image decode',
  ImageDecodeTask: 'image decode',
  'Decode LazyPixelRef': 'image decode',
  GPUTask: 'gpu',
  'GPUTask ': 'gpu',
};

export interface TraceSummary {
  /** Thread name -> kind -> ms before the first frame (top-level events only). */
  threads: Record<string, Record<string, number>>;
  requests: { url: string; start: number; end: number; bytes: number }[];
}

/**
 * Sums, per thread, the top-level work of each kind between navigation start and `untilMs`
 * (the probe's first painted frame, same clock), and lists the requests.
 */
export function summarizeTrace(events: TraceEvent[], untilMs: number): TraceSummary {
  // The page's own navigation (not Chromium's internal pages, which a browser-wide trace has).
  const navigation = events.find(
    (e) =>
      e.name === 'navigationStart' &&
      String((e.args?.data as { documentLoaderURL?: string })?.documentLoaderURL).startsWith(
        'http',
      ),
  );
  if (!navigation) throw new Error('the trace has no navigation of the page');
  const pageUrl = new URL(
    (navigation.args!.data as { documentLoaderURL: string }).documentLoaderURL,
  );
  const origin = navigation.ts;
  const until = origin + untilMs * 1000;
  // The page's renderer process (main thread and workers) and the GPU process.
  const processes = new Set([navigation.pid]);
  for (const e of events)
    if (e.ph === 'M' && e.name === 'process_name' && e.args?.name === 'GPU Process')
      processes.add(e.pid);
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args!.name!);
  const threads: TraceSummary['threads'] = {};
  // Top-level: a complete event not inside another counted one on the same thread.
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || e.ts < origin || e.ts > until || !processes.has(e.pid)) continue;
    const kind = KIND[e.name] ?? (e.name.startsWith('GPU') ? 'gpu' : undefined);
    if (!kind) continue;
    const key = `${e.pid}:${e.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  for (const [key, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    let openUntil = 0;
    const sums: Record<string, number> = {};
    for (const e of list) {
      if (e.ts < openUntil) continue;
      openUntil = e.ts + e.dur!;
      const kind = KIND[e.name] ?? 'gpu';
      const end = Math.min(e.ts + e.dur!, until);
      sums[kind] = (sums[kind] ?? 0) + (end - e.ts) / 1000;
    }
    const name = names.get(key) ?? key;
    const thread = (threads[name] ??= {});
    for (const [kind, ms] of Object.entries(sums)) thread[kind] = (thread[kind] ?? 0) + ms;
  }
  const requests = new Map<string, TraceSummary['requests'][number]>();
  for (const e of events) {
    const data = e.args?.data as
      | { requestId?: string; url?: string; encodedDataLength?: number; finishTime?: number }
      | undefined;
    if (!data?.requestId) continue;
    if (data.url && !data.url.replace(/^blob:/, '').startsWith(pageUrl.origin)) continue;
    if (e.name === 'ResourceSendRequest')
      requests.set(data.requestId, {
        url: data.url!,
        start: (e.ts - origin) / 1000,
        end: NaN,
        bytes: 0,
      });
    if (e.name === 'ResourceFinish') {
      const r = requests.get(data.requestId);
      if (r) {
        r.end = data.finishTime ? data.finishTime * 1000 - origin / 1000 : (e.ts - origin) / 1000;
        r.bytes = data.encodedDataLength ?? 0;
      }
    }
  }
  return { threads, requests: [...requests.values()].sort((a, b) => a.start - b.start) };
}

/**
 * Live events against polling (npm run bench, or `npm run bench -- events` for this section
 * alone): 100 clients follow a burst of 1,000 changes (lock/unlock of one asset through the
 * API, each its own transaction, one after another) once over GET /v1/events and once by
 * polling the asset's changelog every second (the back office's polling cadence), paging
 * until they reach what they had already seen. Same server, same changes, same run.
 *
 * Figures: events delivered per second over all clients (from the first change to the last
 * delivery), latency from each change's timestamp (taken at the start of its request, just
 * before its transaction commits) to the client's receipt, p50/p95; and the server's memory
 * per connected stream (heap + external after a GC, and RSS; the server runs in a child
 * process, bench/server-events-host.ts, so the clients' memory is not counted).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { HostReply, HostRequest } from './server-events-host';
import { percentile } from './stats';

const CLIENTS = 100;
const CHANGES = 1000;
const POLL_MS = 1000;
const PAGE = 100;
const TIMEOUT_MS = 90_000;

type Reply<T extends HostReply['type']> = Extract<HostReply, { type: T }>;

function nextReply<T extends HostReply['type']>(host: ChildProcess, type: T): Promise<Reply<T>> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: HostReply) => {
      if (reply.type !== type) return;
      host.off('message', onMessage);
      host.off('exit', onExit);
      resolve(reply as Reply<T>);
    };
    const onExit = (code: number | null) => reject(new Error(`bench host exited (${code})`));
    host.on('message', onMessage);
    host.once('exit', onExit);
  });
}

function ask<T extends HostRequest['type']>(
  host: ChildProcess,
  request: HostRequest & { type: T },
) {
  const reply = nextReply(host, request.type);
  host.send(request);
  return reply;
}

/** Receipt times (ms since the epoch) against change timestamps, per delivered event. */
interface Follower {
  latencies: number[];
  lastAt: number;
  stop(): void;
}

/** A stream client that counts the events it gets and how late each one is. */
async function streamFollower(base: string, token: string, client: string): Promise<Follower> {
  const abort = new AbortController();
  const response = await fetch(`${base}/v1/events`, {
    // Each client from an address of its own, as a proxy names it: one address may hold only
    // a few dozen streams.
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client },
    signal: abort.signal,
  });
  if (!response.ok) throw new Error(`GET /v1/events answered ${response.status}`);
  const follower: Follower = { latencies: [], lastAt: 0, stop: () => abort.abort() };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const now = Date.now();
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.includes('event: ready')) started();
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (!data || !frame.includes('event: asset.')) continue;
          const { createdAt } = JSON.parse(data) as { createdAt: string };
          follower.latencies.push(now - Date.parse(createdAt));
          follower.lastAt = now;
        }
      }
    } catch {
      // Stopped.
    }
  })();
  await ready;
  return follower;
}

/** A client that polls the changelog every POLL_MS, paging back to the newest entry it knew. */
function pollFollower(base: string, token: string, assetId: string): Follower {
  const seen = new Set<string>();
  const follower: Follower = { latencies: [], lastAt: 0, stop: () => clearTimeout(timer) };
  let first = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    const now = () => Date.now();
    for (let page = 1; ; page += 1) {
      const response = await fetch(
        `${base}/v1/assets/${assetId}/backoffice-changelog?limit=${PAGE}&page=${page}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const { data } = (await response.json()) as { data: { id: string; createdAt: string }[] };
      const fresh = data.filter((entry) => !seen.has(entry.id));
      const at = now();
      for (const entry of fresh) {
        seen.add(entry.id);
        if (!first) follower.latencies.push(at - Date.parse(entry.createdAt));
      }
      if (fresh.length > 0 && !first) follower.lastAt = at;
      if (first || fresh.length < data.length || data.length < PAGE) break;
    }
    first = false;
  };
  const loop = () => {
    poll().then(
      () => (timer = setTimeout(loop, POLL_MS)),
      (error: unknown) => console.error('poller:', error),
    );
  };
  // Spread over the interval, as independent clients would be.
  timer = setTimeout(loop, Math.random() * POLL_MS);
  return follower;
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Result {
  perSecond: number;
  p50: number;
  p95: number;
  burstMs: number;
}

/** Connects the followers, runs one burst, waits until every follower has every change. */
async function followBurst(host: ChildProcess, followers: Follower[]): Promise<Result> {
  const startedAt = Date.now();
  const { ms: burstMs } = await ask(host, { type: 'burst', count: CHANGES });
  await until(
    () => followers.every((f) => f.latencies.length >= CHANGES),
    'every client to get every change',
  );
  const latencies = followers.flatMap((f) => f.latencies);
  const lastAt = Math.max(...followers.map((f) => f.lastAt));
  for (const follower of followers) follower.stop();
  return {
    perSecond: latencies.length / ((lastAt - startedAt) / 1000),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    burstMs,
  };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Runs both phases and prints the table with ratios. */
export async function benchServerEvents(): Promise<void> {
  const host = fork(join(import.meta.dirname, 'server-events-host.ts'), [String(CLIENTS)], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
  });
  try {
    const { base, tokens, assetId } = await nextReply(host, 'ready');
    const idle = await ask(host, { type: 'memory' });
    const streams = await Promise.all(
      tokens.map((token, i) => streamFollower(base, token, `10.0.${i >> 8}.${i & 255}`)),
    );
    const connected = await ask(host, { type: 'memory' });
    const live = await followBurst(host, streams);

    const pollers = tokens.map((token) => pollFollower(base, token, assetId));
    // Every poller has read the changelog once before the burst starts.
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 2));
    const polled = await followBurst(host, pollers);

    console.log(
      `${CLIENTS} clients, ${CHANGES} changes (lock/unlock through the API; the burst took ` +
        `${(live.burstMs / 1000).toFixed(1)} s streamed, ${(polled.burstMs / 1000).toFixed(1)} s polled)`,
    );
    console.log(
      'how'.padEnd(28),
      'events/s'.padStart(10),
      'p50 ms'.padStart(8),
      'p95 ms'.padStart(8),
    );
    for (const [name, r] of [
      ['GET /v1/events (SSE)', live],
      [`changelog polled every ${POLL_MS / 1000} s`, polled],
    ] as const) {
      console.log(
        name.padEnd(28),
        r.perSecond.toFixed(0).padStart(10),
        r.p50.toFixed(0).padStart(8),
        r.p95.toFixed(0).padStart(8),
      );
    }
    console.log(
      `stream vs polling: ${(live.perSecond / polled.perSecond).toFixed(1)}x events/s, ` +
        `p95 latency ${(live.p95 / Math.max(polled.p95, 1)).toFixed(3)}x ` +
        `(${(polled.p95 / Math.max(live.p95, 1)).toFixed(0)}x faster)`,
    );
    console.log(
      `server memory per connected stream: ${kib((connected.heapBytes - idle.heapBytes) / CLIENTS)} ` +
        `heap+external, ${kib((connected.rssBytes - idle.rssBytes) / CLIENTS)} RSS ` +
        `(idle server ${mib(idle.rssBytes)} RSS)`,
    );
  } finally {
    host.disconnect();
  }
}

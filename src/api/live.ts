/**
 * The live connection: one `GET v1/events` stream per tab (Server-Sent Events read with fetch,
 * so the session's bearer header and token refresh apply). It resumes from the last event it
 * saw (`Last-Event-ID`) after any break, backs off between attempts, says how it is doing
 * (connected / reconnecting / offline) and hands each event to its listeners once.
 *
 * It says so honestly: a stream whose network went away may stay "open" for a long while
 * without a byte arriving, so the browser's `offline` event drops the stream at once, and a
 * watchdog drops it when not even the server's heartbeat came for two heartbeats and
 * HEARTBEAT_SLACK_MS (the server names its EVENTS_HEARTBEAT_MS, 1 s by default, in the first
 * frame: 4 s then), or for STALE_MS from a server that does not name it.
 *
 * Its first stream starts where the tab's earliest reads were taken (./read-positions.ts), so
 * a change saved while the page loaded is announced too.
 */
import { HTTPError } from 'ky';
import { z } from 'zod/mini';
import { httpClient } from './http';
import { endpoint, ENDPOINTS } from '../../contract/paths';
import { backoffDelay } from './query';
import { streamEventSchema, type StreamEvent } from '../../contract/schemas';
import { SseParser } from './sse';
import { firstStreamPosition, streamStarted, streamStopped } from './read-positions';

export type LiveStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline';

/** What the stream delivers: an event, or `reset` (events were missed: read everything again). */
export type LiveMessage = { type: 'event'; event: StreamEvent } | { type: 'reset' };

export interface LiveOptions {
  /** Opens the stream after `lastEventId` (undefined: from now on). */
  open?: (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;
  onMessage: (message: LiveMessage) => void;
  onStatus?: (status: LiveStatus) => void;
  /** Whether the browser has a network (navigator.onLine). */
  isOnline?: () => boolean;
  /** Waits before the next attempt; resolves early when `signal` aborts. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A stream silent for this long is dropped and opened again (default STALE_MS). */
  staleMs?: number;
  /** Resolves when the stream may open (the app's: once the page's first answer is drawn). */
  ready?: () => Promise<void>;
}

/** A connection that stayed up this long counts as healthy: the next break retries at once. */
const HEALTHY_MS = 10_000;
/** A stream silent this long is gone, where the server did not say how often it beats. */
export const STALE_MS = 35_000;
/** Beyond two missed heartbeats: a busy server's or machine's late timers are not a break. */
const HEARTBEAT_SLACK_MS = 2_000;

/** The longest Retry-After honoured: a wrong clock or date must not silence the tab for days. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * How long a refusal (429, 503) asks the client to wait: its Retry-After, in seconds or as a
 * date. The server refuses a user or network that opens streams too often until its count
 * starts again; trying sooner would only be refused again.
 */
function retryAfterMs(error: unknown): number {
  if (!(error instanceof HTTPError)) return 0;
  const value = error.response.headers.get('retry-after')?.trim() ?? '';
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : 0;
}

/** The heartbeat interval a `ready` or `reset` frame names. */
const heartbeatSchema = z.object({ heartbeatMs: z.number().check(z.positive()) });
/** Where a `ready` or `reset` frame says the stream starts. */
const startSchema = z.object({ seq: z.number() });

/**
 * The app's stream: `v1/events`, no timeout (it stays open), resuming after `lastEventId`. Low
 * priority: a request that never ends would otherwise compete with the page's scripts and data
 * and keep the browser from ever calling the page loaded.
 */
export function openEventStream(
  lastEventId: string | undefined,
  signal: AbortSignal,
): Promise<Response> {
  return httpClient()(endpoint(ENDPOINTS.events), {
    timeout: false,
    priority: 'low',
    signal,
    headers: {
      accept: 'text/event-stream',
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
  });
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Starts the connection; answers a function that closes it for good. */
export function connectLive(options: LiveOptions): () => void {
  const {
    open = openEventStream,
    onMessage,
    onStatus = () => {},
    isOnline = () => typeof navigator === 'undefined' || navigator.onLine,
    wait = sleep,
    staleMs = STALE_MS,
    ready = () => Promise.resolve(),
  } = options;
  const closed = new AbortController();
  // How long the stream may stay silent: learnt from the server's first frame.
  let silentMs = staleMs;
  let lastEventId: string | undefined;
  let lastSeq = -1;
  // Wakes a backoff early when the browser comes back online.
  let wake = new AbortController();
  const onOnline = () => wake.abort();
  // Drops the stream now being read (offline, or silent for too long).
  let attempt = new AbortController();
  const onOffline = () => {
    onStatus('offline');
    attempt.abort();
  };
  if (typeof window !== 'undefined') {
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
  }

  const deliver = (event: string, data: string, id: string | undefined) => {
    if (id !== undefined) lastEventId = id;
    if (event === 'ready' || event === 'reset') {
      const frame: unknown = JSON.parse(data);
      const beat = z.safeParse(heartbeatSchema, frame);
      if (beat.success)
        silentMs = Math.min(staleMs, 2 * beat.data.heartbeatMs + HEARTBEAT_SLACK_MS);
      if (event === 'reset') onMessage({ type: 'reset' });
      const started = z.safeParse(startSchema, frame);
      if (started.success) {
        streamStarted(started.data.seq, () => onMessage({ type: 'reset' }), event === 'reset');
      }
      return;
    }
    const parsed = z.safeParse(streamEventSchema, JSON.parse(data));
    if (!parsed.success) return;
    // Never twice: a resume may overlap what was already delivered.
    if (parsed.data.seq <= lastSeq) return;
    lastSeq = parsed.data.seq;
    onMessage({ type: 'event', event: parsed.data });
  };

  const run = async () => {
    let failures = 0;
    let retryMs: number | undefined;
    onStatus('connecting');
    await ready();
    while (!closed.signal.aborted) {
      const startedAt = Date.now();
      // What a refusal's Retry-After asks for.
      let refusedForMs = 0;
      attempt = new AbortController();
      const signal = AbortSignal.any([closed.signal, attempt.signal]);
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(watchdog);
        const current = attempt;
        watchdog = setTimeout(() => current.abort(), silentMs);
      };
      try {
        arm();
        const from = lastEventId ?? firstStreamPosition()?.toString();
        const response = await open(from, signal);
        if (!response.body) throw new Error('The event stream has no body');
        onStatus('connected');
        const parser = new SseParser();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        // An abort cancels the read even where the body itself would never notice it.
        const cancel = () => void reader.cancel().catch(() => {});
        signal.addEventListener('abort', cancel, { once: true });
        for (;;) {
          const { done, value } = await reader.read();
          if (done || signal.aborted) break;
          const chunk = parser.push(value);
          retryMs = chunk.retryMs ?? retryMs;
          for (const message of chunk.messages) {
            try {
              deliver(message.event, message.data, message.id);
            } catch {
              // One unreadable message must not end the stream.
            }
          }
          // After the messages: the first names how long the next silence may last.
          arm();
        }
      } catch (error) {
        // A break, a refused request or an abort: decided below.
        refusedForMs = retryAfterMs(error);
      } finally {
        clearTimeout(watchdog);
      }
      if (closed.signal.aborted) return;
      failures = Date.now() - startedAt > HEALTHY_MS ? 0 : failures + 1;
      onStatus(isOnline() ? 'reconnecting' : 'offline');
      wake = new AbortController();
      const delay = Math.max(
        failures === 0 ? (retryMs ?? 0) : Math.max(retryMs ?? 0, backoffDelay(failures)),
        refusedForMs,
      );
      await wait(delay, AbortSignal.any([closed.signal, wake.signal]));
    }
  };
  void run();

  return () => {
    closed.abort();
    streamStopped();
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
    }
  };
}

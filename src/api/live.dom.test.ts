import ky, { type NormalizedOptions } from 'ky';
import { describe, expect, it, vi } from 'vitest';
import { connectLive, type LiveMessage, type LiveStatus } from './live';
import { noteReadPosition, streamCovers } from './read-positions';
import { httpError } from './testing';
import type { StreamEvent } from '../../contract/schemas';

const event = (seq: number, routingKey = 'asset.locked.v1'): StreamEvent => ({
  id: `e${seq}`,
  seq,
  routingKey,
  assetId: 'a1',
  cageMeshId: null,
  actorId: 'u2',
  actorEmail: 'dev@avatar.studio',
  data: { locked: true },
  createdAt: '2026-11-23T08:00:00.000Z',
});

const frame = (e: StreamEvent) =>
  `id: ${e.seq}\nevent: ${e.routingKey}\ndata: ${JSON.stringify(e)}\n\n`;

/** A stream the test writes to, then ends (a server stopping) or leaves open. */
function stream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const ready = (seq: number, event = 'ready') =>
  `id: ${seq}\nevent: ${event}\ndata: ${JSON.stringify({ seq, heartbeatMs: 1000 })}\n\n`;

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function harness(staleMs?: number) {
  const streams: ReturnType<typeof stream>[] = [];
  const opened: (string | undefined)[] = [];
  const messages: LiveMessage[] = [];
  const statuses: LiveStatus[] = [];
  const waits: number[] = [];
  let online = true;
  const close = connectLive({
    open: (lastEventId) => {
      opened.push(lastEventId);
      const next = stream();
      streams.push(next);
      return Promise.resolve(next.response);
    },
    onMessage: (message) => messages.push(message),
    onStatus: (status) => statuses.push(status),
    isOnline: () => online,
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...(staleMs === undefined ? {} : { staleMs }),
  });
  return {
    streams,
    opened,
    messages,
    statuses,
    waits,
    close,
    goOffline: () => (online = false),
    goOnline: () => (online = true),
    events: () => messages.flatMap((m) => (m.type === 'event' ? [m.event.seq] : [])),
  };
}

describe('the live connection', () => {
  it('delivers each event once, and resumes after the last one it saw when the stream breaks', async () => {
    const h = harness();
    await tick();
    expect(h.opened).toEqual([undefined]);
    h.streams[0]!.write(frame(event(1)) + frame(event(2)));
    await tick();
    h.streams[0]!.end();
    await tick();
    await tick();
    // Back at once, from event 2; a replay that overlaps is delivered once.
    expect(h.opened).toEqual([undefined, '2']);
    h.streams[1]!.write(frame(event(2)) + frame(event(3)));
    await tick();
    expect(h.events()).toEqual([1, 2, 3]);
    expect(h.statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    h.close();
  });

  it("resumes a stream its stopping server ended, after the server's last retry hint, from its last event", async () => {
    const h = harness();
    await tick();
    // What a server sends as it stops (server/event-stream.ts): a last `retry:` of 0.5-2 s.
    h.streams[0]!.write(`retry: 3000\n${ready(3)}` + frame(event(4)) + 'retry: 1500\n\n');
    await tick();
    h.streams[0]!.end();
    await tick();
    await tick();
    // The proxy sends the resume to another server, which replays what came after event 4.
    expect(h.waits).toEqual([1500]);
    expect(h.opened).toEqual([undefined, '4']);
    expect(h.events()).toEqual([4]);
    h.close();
  });

  it('passes a reset on, and keeps going past an unreadable message', async () => {
    const h = harness();
    await tick();
    h.streams[0]!.write('event: reset\ndata: {}\n\n' + 'data: not json\n\n' + frame(event(5)));
    await tick();
    expect(h.messages).toEqual([{ type: 'reset' }, { type: 'event', event: event(5) }]);
    h.close();
  });

  it('backs off more after each quick failure, and says offline when the browser is', async () => {
    const h = harness();
    await tick();
    h.goOffline();
    for (let i = 0; i < 3; i++) {
      h.streams.at(-1)!.end();
      await tick();
      await tick();
    }
    expect(h.statuses.filter((status) => status === 'offline')).toHaveLength(3);
    expect(h.statuses).not.toContain('reconnecting');
    expect(h.waits).toHaveLength(3);
    // 300 ms doubled per attempt, jittered by 0.4 to 1.4.
    expect(h.waits[0]).toBeGreaterThanOrEqual(0.4 * 600);
    expect(h.waits[2]).toBeGreaterThanOrEqual(0.4 * 2400);
    h.close();
  });

  it("waits as long as a refusal's Retry-After says before it tries again", async () => {
    const refusals = [
      { status: 429, retryAfter: '45' },
      { status: 503, retryAfter: new Date(Date.now() + 120_000).toUTCString() },
      { status: 429, retryAfter: null },
    ];
    let opened = 0;
    const waits: number[] = [];
    const close = connectLive({
      open: async () => {
        const refusal = refusals[opened];
        opened += 1;
        if (!refusal) return new Promise<Response>(() => {});
        const headers = new Headers({ 'content-type': 'application/json' });
        if (refusal.retryAfter !== null) headers.set('retry-after', refusal.retryAfter);
        const response = new Response('{"code":"RATE_LIMITED"}', {
          status: refusal.status,
          headers,
        });
        throw await httpError(response, 'http://localhost/v1/events');
      },
      onMessage: () => {},
      wait: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    await vi.waitFor(() => expect(opened).toBe(4));
    close();
    // At least what the server asked for (seconds, or a date), never sooner.
    expect(waits[0]).toBeGreaterThanOrEqual(45_000);
    expect(waits[1]).toBeGreaterThanOrEqual(110_000);
    // Without one, the usual back-off after three quick failures.
    expect(waits[2]).toBeLessThan(10_000);
  });

  it('says offline the moment the browser does, without waiting for the stream to notice', async () => {
    const h = harness();
    await tick();
    expect(h.statuses).toEqual(['connecting', 'connected']);
    // The stream itself stays open, as a dead network's often does.
    h.goOffline();
    window.dispatchEvent(new Event('offline'));
    expect(h.statuses).toEqual(['connecting', 'connected', 'offline']);
    // (This harness's backoff is instant, so it is at the next attempt already.)
    h.goOnline();
    window.dispatchEvent(new Event('online'));
    await tick();
    await tick();
    expect(h.opened).toHaveLength(2);
    expect(h.statuses.at(-1)).toBe('connected');
    h.close();
  });

  it('drops a stream that stays silent past the watchdog, but not one the heartbeat keeps up', async () => {
    vi.useFakeTimers();
    try {
      const h = harness(1_000);
      await vi.advanceTimersByTimeAsync(0);
      for (let i = 0; i < 5; i++) {
        h.streams[0]!.write(': keep-alive\n\n');
        await vi.advanceTimersByTimeAsync(600);
      }
      expect(h.statuses).toEqual(['connecting', 'connected']);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(h.statuses).toContain('reconnecting');
      expect(h.opened).toHaveLength(2);
      h.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says Reconnecting within 5 s of silence from a server that beats every second', async () => {
    vi.useFakeTimers();
    try {
      const h = harness();
      await vi.advanceTimersByTimeAsync(0);
      h.streams[0]!.write(
        'retry: 3000\nid: 7\nevent: ready\ndata: {"seq":7,"heartbeatMs":1000}\n\n',
      );
      for (let i = 0; i < 5; i++) {
        await vi.advanceTimersByTimeAsync(1_000);
        h.streams[0]!.write(': keep-alive\n\n');
      }
      expect(h.statuses).toEqual(['connecting', 'connected']);
      // Silent from here: two missed beats and the slack, not the 35 s of an unknown server.
      await vi.advanceTimersByTimeAsync(3_900);
      expect(h.statuses).toEqual(['connecting', 'connected']);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(h.statuses).toContain('reconnecting');
      expect(h.opened).toEqual([undefined, '7']);
      h.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says Connecting at once but opens the stream only once it may, and not at all if closed before', async () => {
    const opened: (string | undefined)[] = [];
    const statuses: LiveStatus[] = [];
    const gate = () => {
      let open!: () => void;
      const ready = new Promise<void>((resolve) => (open = resolve));
      return { ready: () => ready, open };
    };
    const options = (ready: () => Promise<void>) => ({
      ready,
      open: (lastEventId: string | undefined) => {
        opened.push(lastEventId);
        return Promise.resolve(stream().response);
      },
      onMessage: () => {},
      onStatus: (status: LiveStatus) => statuses.push(status),
    });
    const first = gate();
    const close = connectLive(options(first.ready));
    await tick();
    expect(statuses).toEqual(['connecting']);
    expect(opened).toEqual([]);
    first.open();
    await tick();
    expect(opened).toEqual([undefined]);
    close();

    const second = gate();
    connectLive(options(second.ready))();
    second.open();
    await tick();
    expect(opened).toEqual([undefined]);
  });

  it('opens nothing more once closed', async () => {
    const h = harness();
    await tick();
    h.close();
    h.streams[0]!.end();
    await tick();
    await tick();
    expect(h.opened).toHaveLength(1);
  });

  it('asks for the stream with the session, without a timeout, at low priority and after Last-Event-ID', async () => {
    const { openEventStream } = await import('./live');
    const http = await import('./http');
    const asked: { request: Request; options: NormalizedOptions }[] = [];
    const client = ky.create({
      prefixUrl: 'http://api.test/',
      fetch: () => Promise.resolve(new Response('')),
      hooks: { beforeRequest: [(request, options) => void asked.push({ request, options })] },
    });
    vi.spyOn(http, 'httpClient').mockReturnValue(client);
    await openEventStream('41', new AbortController().signal);
    expect(asked[0]?.request.url).toBe('http://api.test/v1/events');
    expect(asked[0]?.options).toMatchObject({
      timeout: false,
      // A request that never ends must not hold the page's load (nor its first paint) back.
      priority: 'low',
    });
    expect(Object.fromEntries(asked[0]?.request.headers ?? [])).toMatchObject({
      accept: 'text/event-stream',
      'last-event-id': '41',
    });
    vi.restoreAllMocks();
  });
});

describe('where the first stream starts (reads taken while the page loaded)', () => {
  it('opens after the lowest position read before it; a resume after its last event; the next connection afresh', async () => {
    noteReadPosition(12, false);
    noteReadPosition(9, false);
    noteReadPosition(15, false);
    const h = harness();
    await tick();
    expect(h.opened).toEqual(['9']);
    // The server sends what was saved since: the page learns of it.
    h.streams[0]!.write(ready(9) + frame(event(10)));
    await tick();
    h.streams[0]!.end();
    await tick();
    await tick();
    expect(h.opened).toEqual(['9', '10']);
    expect(h.messages).toEqual([{ type: 'event', event: event(10) }]);
    h.close();
    // Signed out and in again: nothing was read in between, so from now on.
    const next = harness();
    await tick();
    expect(next.opened).toEqual([undefined]);
    next.close();
  });

  it('reads everything again once for a read sent before the start that may have missed what came before it', async () => {
    const h = harness();
    await tick();
    expect(h.opened).toEqual([undefined]);
    // Answered while the stream was opening, two changes before where the stream starts.
    noteReadPosition(18, false);
    expect(streamCovers()).toBe(false);
    h.streams[0]!.write(ready(20));
    await tick();
    expect(h.messages).toEqual([{ type: 'reset' }]);
    expect(streamCovers()).toBe(true);
    // Sent before the start, answered after it: at the start, or below it.
    noteReadPosition(20, false);
    expect(h.messages).toHaveLength(1);
    noteReadPosition(19, false);
    expect(h.messages).toEqual([{ type: 'reset' }, { type: 'reset' }]);
    // Sent after the start: it saw everything up to it, whatever position it names.
    noteReadPosition(3, true);
    expect(h.messages).toHaveLength(2);
    h.close();
  });

  it('passes one reset on where the server answers the first position with reset', async () => {
    noteReadPosition(5, false);
    const h = harness();
    await tick();
    expect(h.opened).toEqual(['5']);
    h.streams[0]!.write(ready(100, 'reset'));
    await tick();
    expect(h.messages).toEqual([{ type: 'reset' }]);
    h.close();
  });
});

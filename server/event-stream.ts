/**
 * One client's live event stream (GET /v1/events, docs/api.md "Live events"): Server-Sent
 * Events built from the event bus (live) and the event table (resume), filtered by the
 * caller's abilities (server/event-access.ts).
 *
 * Resume without gaps or doubles: subscribe to the bus first and hold its batches, then read
 * the table after the client's Last-Event-ID, then hand the held batches over, skipping every
 * seq already sent. The bus's position at subscription was committed before the table read,
 * and seq grows in commit order (migration 007), so the two overlap but never leave a hole.
 * The hold keeps only events past the stream's position (a late notice of older commits is
 * skipped) and at most `replayLimit` of them; past that it is emptied and the table is read
 * again before going live, so a burst while resuming costs neither memory nor events.
 *
 * Memory per client is bounded: frames wait in the response stream's own queue, measured in
 * bytes; a client that falls more than `queueBytes` behind is dropped (it reconnects and
 * resumes from its last id), and a resume reads the table no faster than the client takes it.
 *
 * A resume never holds up the rest of the server: it reads a page at a time, at most
 * REPLAY_READERS pages of the whole process at once (the others wait their turn), and lets the
 * event loop turn after each page. On PGlite a read runs on this thread and queries run one
 * after another, so without that many resumes starting together (a reconnect storm, or someone
 * reconnecting on purpose) would keep every other request waiting behind their reads.
 */
import type { AppAbility } from '../contract/ability';
import type { StreamEvent } from '../contract/schemas';
import type { Db } from './db';
import { eventAsSeen, eventViewFor, type EventView } from './event-access';
import type { EventBus } from './event-bus';
import { countEventsAfter, latestEventSeq, readEventsAfter } from './events';
import { log } from './log';
import { eventStreamReplayed } from './metrics';

const streamLog = log.child({ component: 'event-stream' });

export interface EventStreamLimits {
  /** A comment line is sent this often, so proxies keep an idle stream open. */
  heartbeatMs: number;
  /** A resume further behind than this many events gets `reset` instead of the events. */
  replayLimit: number;
  /** Bytes a client may fall behind before it is dropped. */
  queueBytes: number;
}

/** The `retry:` the stream announces: how long an EventSource waits before reconnecting. */
export const EVENTS_RETRY_MS = 3000;
/**
 * The `retry:` a stream ends with when its server stops (its bus closes): soon, and spread over
 * this range, so the streams of a stopping server do not all resume on the others at once.
 */
export const STOPPING_RETRY_MS = { min: 500, max: 2000 } as const;
/** Rows read per query while resuming: a couple of milliseconds of work on PGlite. */
const REPLAY_PAGE = 100;
/** Pages of resumes the process reads at once; more resumes wait in line. */
const REPLAY_READERS = 2;
const HEARTBEAT = new TextEncoder().encode(': keep-alive\n\n');
/** The longest delay setTimeout takes (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface EventStreamOptions {
  db: Db;
  bus: EventBus;
  /** The caller's abilities (from the access token): what the stream may show. */
  ability: AppAbility;
  /** Resume after this seq (the client's Last-Event-ID); undefined starts from now. */
  after: number | undefined;
  /** When the access token expires: the stream ends then, and the client reconnects. */
  expiresAt: Date;
  now: () => Date;
  limits: EventStreamLimits;
  /**
   * Cuts the connection at once: a dropped client that does not read cannot be ended cleanly.
   * Without it, a dropped stream is errored instead.
   */
  abort?: () => void;
  /** Called once when the stream ends, however it ends. */
  onClose?: () => void;
  /**
   * Whether the caller's session still lets the token through, asked every SESSION_CHECK_MS:
   * the stream ends once it does not (signed out, session ended, user disabled, role changed),
   * and the client's reconnect meets the refusal.
   */
  isLive?: () => Promise<boolean>;
}

/** How often an open stream asks whether its session is still live (a cache lookup). */
export const SESSION_CHECK_MS = 1000;

const encoder = new TextEncoder();

/** Lets timers and I/O (other requests) run before the caller goes on. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** At most `size` callers run at once; the others wait in the order they came. */
function createSlots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

/** The process's resume reads (see the top of this file). */
const replayRead = createSlots(REPLAY_READERS);

function frame(fields: { retry?: number; id: number; event: string; data: unknown }): Uint8Array {
  const retry = fields.retry === undefined ? '' : `retry: ${fields.retry}\n`;
  const data = JSON.stringify(fields.data);
  return encoder.encode(`${retry}id: ${fields.id}\nevent: ${fields.event}\ndata: ${data}\n\n`);
}

// Every stream of the process is handed the same event objects by the bus, so each event is
// serialised once per view, not once per client.
const frames = new WeakMap<StreamEvent, Partial<Record<EventView, Uint8Array>>>();
function eventFrame(event: StreamEvent, view: EventView): Uint8Array {
  let byView = frames.get(event);
  if (!byView) frames.set(event, (byView = {}));
  return (byView[view] ??= frame({
    id: event.seq,
    event: event.routingKey,
    data: eventAsSeen(event, view),
  }));
}

/** Opens the stream; its body is what GET /v1/events answers. */
export function openEventStream(options: EventStreamOptions): ReadableStream<Uint8Array> {
  const { db, bus, ability, limits } = options;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  /** The seq of the last event handled (sent or filtered out). */
  let cursor = 0;
  /** False while resuming: bus batches are held in `held`. */
  let live = false;
  let held: StreamEvent[] = [];
  /** Set when the hold overflowed: the table is read again before going live. */
  let overflowed = false;
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let expiry: ReturnType<typeof setTimeout> | undefined;
  let sessionCheck: ReturnType<typeof setInterval> | undefined;
  /** Resumes waiting for the client to take what is queued. */
  let roomWaiters: (() => void)[] = [];

  const queued = () => limits.queueBytes - (controller.desiredSize ?? 0);

  const cleanUp = () => {
    closed = true;
    clearInterval(heartbeat);
    clearInterval(sessionCheck);
    clearTimeout(expiry);
    unsubscribe?.();
    held = [];
    for (const wake of roomWaiters) wake();
    roomWaiters = [];
    options.onClose?.();
  };
  /** Ends the stream after what is queued (token expired), with a last `retry:` if given. */
  const end = (retryMs?: number) => {
    if (closed) return;
    if (retryMs !== undefined) controller.enqueue(encoder.encode(`retry: ${retryMs}\n\n`));
    cleanUp();
    controller.close();
  };
  /** The server is stopping: the client resumes from its last id on another one, soon. */
  const stopping = () =>
    end(
      STOPPING_RETRY_MS.min +
        Math.floor(Math.random() * (STOPPING_RETRY_MS.max - STOPPING_RETRY_MS.min)),
    );
  /** Ends the stream at once, discarding what is queued. */
  const drop = (reason: string) => {
    if (closed) return;
    streamLog.warn({ reason }, 'Event stream: dropped a client; it resumes when it reconnects');
    cleanUp();
    // Cutting the connection also cancels the stream (discarding its queue) without the
    // server logging a failed response; without one, erroring the stream does both.
    if (options.abort) options.abort();
    else controller.error(new Error(reason));
  };

  const send = (bytes: Uint8Array) => {
    if (closed) return;
    const before = queued();
    controller.enqueue(bytes);
    // One frame larger than the whole allowance still goes to a client that is keeping up.
    if (before > 0 && before + bytes.byteLength > limits.queueBytes) {
      drop(`more than ${limits.queueBytes} bytes behind`);
    }
  };

  const deliver = (events: readonly StreamEvent[]) => {
    for (const event of events) {
      if (closed) return;
      if (event.seq <= cursor) continue;
      cursor = event.seq;
      const view = eventViewFor(ability, event);
      if (view) send(eventFrame(event, view));
    }
  };

  const onBatch = (events: readonly StreamEvent[]) => {
    if (live) return deliver(events);
    if (overflowed) return;
    held.push(...events.filter((event) => event.seq > cursor));
    if (held.length > limits.replayLimit) {
      held = [];
      overflowed = true;
    }
  };

  /** Waits until at most half the allowance is queued (or the stream closed). */
  const room = async () => {
    while (!closed && queued() > limits.queueBytes / 2) {
      await new Promise<void>((resolve) => roomWaiters.push(resolve));
    }
  };

  const replay = async () => {
    let replayed = 0;
    for (;;) {
      await room();
      if (closed) break;
      const events = await replayRead(() =>
        closed ? Promise.resolve([]) : readEventsAfter(db, cursor, REPLAY_PAGE),
      );
      deliver(events);
      replayed += events.length;
      if (events.length < REPLAY_PAGE) break;
      await nextTurn();
    }
    eventStreamReplayed.observe(replayed);
  };

  // Told in the first frame, so a client knows how soon a silent stream is a dead one.
  const { heartbeatMs } = limits;
  const begin = async () => {
    const stop = await bus.subscribe(onBatch, stopping);
    if (closed) return stop();
    unsubscribe = stop;
    const head = await latestEventSeq(db);
    const { after } = options;
    if (after === undefined) {
      cursor = head;
      send(
        frame({
          retry: EVENTS_RETRY_MS,
          id: head,
          event: 'ready',
          data: { seq: head, heartbeatMs },
        }),
      );
    } else if (
      after > head ||
      (await replayRead(() => countEventsAfter(db, after, limits.replayLimit + 1))) >
        limits.replayLimit
    ) {
      // Too far behind (or a position this database never had): the client reads afresh.
      cursor = head;
      send(
        frame({
          retry: EVENTS_RETRY_MS,
          id: head,
          event: 'reset',
          data: { seq: head, heartbeatMs },
        }),
      );
    } else {
      cursor = after;
      send(
        frame({
          retry: EVENTS_RETRY_MS,
          id: after,
          event: 'ready',
          data: { seq: after, heartbeatMs },
        }),
      );
      await replay();
    }
    // A burst overflowed the hold: everything in it is in the table by now.
    while (overflowed && !closed) {
      overflowed = false;
      held = [];
      await replay();
    }
    if (closed) return;
    live = true;
    const pending = held;
    held = [];
    deliver(pending);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        heartbeat = setInterval(() => {
          // Also checked here, so a test clock (or a suspended machine) ends it in time.
          if (options.now() >= options.expiresAt) end();
          else send(HEARTBEAT);
        }, limits.heartbeatMs);
        const { isLive } = options;
        if (isLive) {
          sessionCheck = setInterval(() => {
            isLive().then(
              (ok) => ok || end(),
              () => undefined, // The database is away: the next check asks again.
            );
          }, SESSION_CHECK_MS);
        }
        const untilExpiry = options.expiresAt.getTime() - options.now().getTime();
        expiry = setTimeout(end, Math.min(Math.max(untilExpiry, 0), MAX_TIMEOUT_MS));
        begin().catch((error: unknown) => {
          if (closed) return;
          streamLog.error({ err: error }, 'Event stream failed');
          drop('the server could not read the events');
        });
      },
      pull() {
        const waiters = roomWaiters;
        roomWaiters = [];
        for (const wake of waiters) wake();
      },
      cancel() {
        if (!closed) cleanUp();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: limits.queueBytes }),
  );
}

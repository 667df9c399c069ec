/**
 * The committed asset events of the whole database, as they happen, for the live streams of
 * this process (server/event-stream.ts). One LISTEN per process, not per client: a NOTIFY
 * (migration 007, sent at commit by whichever server recorded the events) only says "there is
 * something after seq N"; the bus then reads the new rows from the table once and hands the
 * same batch to every subscriber. Notifications carry no rows because NOTIFY payloads are
 * limited (8 KB) and a missed one would lose data; reading the table cannot miss anything,
 * because seq grows in commit order (migration 007).
 */
import type { StreamEvent } from '../contract/schemas';
import type { Db, Unlisten } from './db';
import { EVENTS_CHANNEL, latestEventSeq, readEventsAfter } from './events';
import { log } from './log';

const busLog = log.child({ component: 'event-bus' });

export type EventBatchListener = (events: readonly StreamEvent[]) => void;

export interface EventBus {
  /**
   * Calls `listener` with every event committed after the returned promise resolves, in seq
   * order, in batches; resolves to a function that unsubscribes. Everything up to the bus's
   * position at that moment was already committed, so a subscriber that then reads the table
   * (a resume) and skips the seqs it has read misses nothing and gets nothing twice.
   * `onClose` is called when the bus closes (the server is stopping).
   */
  subscribe(listener: EventBatchListener, onClose?: () => void): Promise<() => void>;
  /**
   * A seq up to which every event is committed and was published (a lower bound of the
   * table's newest), or undefined while the bus does not listen yet.
   */
  position(): number | undefined;
  /** The subscribers of this process (one per open stream). */
  subscribers(): number;
  /** Stops listening and tells every subscriber. */
  close(): Promise<void>;
}

/** Rows read per query while catching up. */
const PAGE = 200;
/** After a failed read (database down), the next try comes this much later. */
const RETRY_MS = 1000;

/** A bus on `db` (PGlite in process, or LISTEN on PostgreSQL); it listens from the first subscribe. */
export function createEventBus(db: Db): EventBus {
  const listeners = new Set<EventBatchListener>();
  const closers = new Map<EventBatchListener, () => void>();
  let position = 0;
  let started: Promise<Unlisten> | undefined;
  /** Set once `position` is known; notifications before that are covered by the first pump. */
  let ready = false;
  let closed = false;
  let reading = false;
  let again = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const publish = (events: readonly StreamEvent[]) => {
    for (const listener of [...listeners]) {
      try {
        listener(events);
      } catch (error) {
        busLog.error({ err: error }, 'Event bus subscriber failed');
      }
    }
  };

  /** Reads everything after `position`; concurrent calls fold into one more pass. */
  const pump = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const events = await readEventsAfter(db, position, PAGE);
        if (closed) return;
        const last = events.at(-1);
        if (last) {
          position = last.seq;
          publish(events);
        }
        if (events.length === PAGE) again = true;
      } while (again);
    } catch (error) {
      busLog.error({ err: error }, 'Event bus: reading new events failed');
      retryTimer ??= setTimeout(() => {
        retryTimer = undefined;
        void pump();
      }, RETRY_MS);
    } finally {
      reading = false;
    }
  };

  const onNotify = (payload: string | undefined) => {
    if (closed || !ready) return;
    // A notice of a seq already read changes nothing; no payload means "look anyway".
    if (payload !== undefined && Number(payload) <= position) return;
    void pump();
  };

  // Listen first, then take the position, then read once: whatever commits around the start
  // is either before the position or read by that first pump or a later notified one.
  const start = async (): Promise<Unlisten> => {
    const unlisten = await db.listen(EVENTS_CHANNEL, onNotify);
    try {
      position = await latestEventSeq(db);
    } catch (error) {
      await unlisten();
      throw error;
    }
    ready = true;
    void pump();
    return unlisten;
  };

  return {
    async subscribe(listener, onClose) {
      if (closed) throw new Error('The event bus is closed');
      // A failed start (database down) is tried again by the next subscriber.
      started ??= start().catch((error: unknown) => {
        started = undefined;
        throw error;
      });
      await started;
      listeners.add(listener);
      if (onClose) closers.set(listener, onClose);
      return () => {
        listeners.delete(listener);
        closers.delete(listener);
      };
    },
    position: () => (ready && !closed ? position : undefined),
    subscribers: () => listeners.size,
    async close() {
      closed = true;
      listeners.clear();
      for (const onClose of closers.values()) onClose();
      closers.clear();
      clearTimeout(retryTimer);
      if (started) await (await started.catch(() => undefined))?.();
    },
  };
}

/**
 * What the in-app inspector and the Stately inspector see of the running actors (development
 * builds only; see src/inspect.ts): `sanitize` strips secrets from anything that leaves an
 * actor, and `createInspectionStore` keeps the live actors and the last events for the panel.
 * Plain TypeScript, no React: the panel reads the store through props.
 */
import type { ActorRefLike, AnyActorRef, InspectionEvent, Observer } from 'xstate';

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/** Keys whose values are secrets: tokens, passwords, one-time codes, keys and headers. */
const SENSITIVE_KEY = /token|passw(?:or)?d|secret|code|otp|credential|authorization|cookie/i;
/** Error identifiers such as `USER_NOT_VERIFIED` stay readable; one-time codes are digits. */
const ERROR_IDENTIFIER = /^[A-Z]+(?:_[A-Z0-9]+)*$/;
/** A JWT anywhere in a string (its header always starts with `{"`, base64url `eyJ`). */
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g;

export interface SanitizeOptions {
  /** Deeper values become `[…]`. */
  maxDepth?: number;
  /** Longer arrays keep this many items and say how many were left out. */
  maxItems?: number;
  /** Longer strings (data URLs, file contents) are cut to this length. */
  maxString?: number;
}

const DEFAULTS: Required<SanitizeOptions> = { maxDepth: 8, maxItems: 50, maxString: 500 };

const isPlainObject = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

const isActorRef = (value: object): value is AnyActorRef =>
  typeof (value as Partial<AnyActorRef>).send === 'function' &&
  typeof (value as Partial<AnyActorRef>).getSnapshot === 'function';

/**
 * A JSON-safe copy of `value` with every secret replaced by `[redacted]`: values of keys that
 * name a token, password, code or secret (`null` and flags stay visible), and JWTs inside any
 * string. Cycles, deep nesting, long arrays and long strings are cut; class instances show their
 * class name (actors their id, errors their fields, files their name and size).
 */
export function sanitize(value: unknown, options: SanitizeOptions = {}): unknown {
  const limits = { ...DEFAULTS, ...options };
  const path = new Set<object>();

  const visit = (current: unknown, depth: number): unknown => {
    if (typeof current === 'string') {
      const clean = current.replace(JWT, REDACTED);
      return clean.length > limits.maxString
        ? `${clean.slice(0, limits.maxString)}… (${clean.length} chars)`
        : clean;
    }
    if (typeof current === 'bigint') return `${current}n`;
    if (typeof current === 'function') return `[function ${current.name || 'anonymous'}]`;
    if (typeof current === 'symbol') return current.toString();
    if (current === null || typeof current !== 'object') return current;
    if (path.has(current)) return '[circular]';
    if (depth >= limits.maxDepth) return '[…]';
    path.add(current);
    try {
      return visitObject(current, depth);
    } finally {
      path.delete(current);
    }
  };

  const visitEntries = (entries: [string, unknown][], depth: number) =>
    Object.fromEntries(
      entries.map(([key, inner]) => [
        key,
        isSecret(key, inner) ? REDACTED : visit(inner, depth + 1),
      ]),
    );

  const visitObject = (current: object, depth: number): unknown => {
    if (Array.isArray(current)) {
      const items = current.slice(0, limits.maxItems).map((item) => visit(item, depth + 1));
      const left = current.length - items.length;
      return left > 0 ? [...items, `… ${left} more`] : items;
    }
    if (isPlainObject(current)) return visitEntries(Object.entries(current), depth);
    if (current instanceof Error) {
      return visitEntries(
        [['name', current.name], ['message', current.message], ...Object.entries(current)],
        depth,
      );
    }
    if (current instanceof Date) return current.toISOString();
    if (typeof Blob !== 'undefined' && current instanceof Blob) {
      const name = current instanceof File ? `${current.name}, ` : '';
      return `[${current.constructor.name} ${name}${current.size} bytes${current.type ? `, ${current.type}` : ''}]`;
    }
    if (current instanceof Map) return visit([...current.entries()], depth);
    if (current instanceof Set) return visit([...current.values()], depth);
    if (isActorRef(current)) return `[actor ${current.id}]`;
    if (ArrayBuffer.isView(current)) {
      return `[${current.constructor.name} ${current.byteLength} bytes]`;
    }
    return `[${current.constructor.name}]`;
  };

  return visit(value, 0);
}

function isSecret(key: string, value: unknown): boolean {
  // Flags such as `isPasswordUpdated` and absent values are no secrets and help debugging.
  if (value === null || value === undefined || typeof value === 'boolean') return false;
  if (!SENSITIVE_KEY.test(key)) return false;
  return !(/code/i.test(key) && typeof value === 'string' && ERROR_IDENTIFIER.test(value));
}

// ---------------------------------------------------------------- the inspection store

/** One running actor as the panel lists it. */
interface InspectedActor {
  /** Unique in the page (`x:0`); what the event filter matches. */
  sessionId: string;
  /** The actor's id: its invoke id, or the session id of a root actor. */
  id: string;
  /** The machine id (`session`), the source of an invoked actor (`login`), or `actor`. */
  machineId: string;
  parentId: string | null;
  /** The state value, `idle` or `authenticating.login` (`a.b, a.c` for parallel states). */
  value: string | null;
  /** The context, sanitised. */
  context: unknown;
}

/** Who sent or received an event. */
interface ActorLabel {
  sessionId: string;
  machineId: string;
}

/** One event an actor received. */
interface InspectedEvent {
  /** Increases by one per event, for stable keys. */
  seq: number;
  /** Milliseconds since the epoch. */
  time: number;
  /** Null for events sent from outside any actor (the UI, the app wiring). */
  source: ActorLabel | null;
  target: ActorLabel;
  type: string;
  /** The event without its type, sanitised. */
  payload: unknown;
  /** The target's state value once it has processed the event (machines only). */
  stateAfter: string | null;
}

interface InspectionState {
  actors: readonly InspectedActor[];
  /** Oldest first, at most `limit`. */
  events: readonly InspectedEvent[];
}

export interface InspectionStore {
  /** Pass as `inspect` to `createActor` (it watches the actor's whole system). */
  observer: Observer<InspectionEvent>;
  getState: () => InspectionState;
  /** Listeners run once per batch of inspection events, never while an actor is transitioning. */
  subscribe: (listener: () => void) => () => void;
}

export interface InspectionStoreOptions {
  /** How many events are kept. */
  limit?: number;
  now?: () => number;
  /** Runs the batched notification; defaults to a microtask. */
  schedule?: (notify: () => void) => void;
}

const INSPECTION_EVENT_LIMIT = 200;

/** `idle`, `authenticating.login`, or `spawning.effect.playing, spawning.animation.done`. */
export function formatStateValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return String(value);
  return Object.entries(value as Record<string, unknown>)
    .flatMap(([key, inner]) =>
      inner && typeof inner === 'object' && Object.keys(inner).length === 0
        ? [key]
        : formatStateValue(inner)
            .split(', ')
            .map((leaf) => `${key}.${leaf}`),
    )
    .join(', ');
}

/** What inspection events carry: the running actor (xstate types it as the narrower ActorRefLike). */
type InspectedRef = ActorRefLike & {
  id?: string;
  src?: unknown;
  logic?: { config?: { id?: unknown } };
  _parent?: ActorRefLike;
};

function machineIdOf(ref: InspectedRef): string {
  const id = ref.logic?.config?.id;
  if (typeof id === 'string') return id;
  return typeof ref.src === 'string' ? ref.src : 'actor';
}

const label = (ref: InspectedRef): ActorLabel => ({
  sessionId: ref.sessionId,
  machineId: machineIdOf(ref),
});

function stateValueOf(snapshot: unknown): string | null {
  const value = (snapshot as { value?: unknown } | undefined)?.value;
  return value === undefined ? null : formatStateValue(value);
}

/**
 * Records what the actors of a page do: the actors that have started and not yet stopped, and
 * the last `limit` events they received, each with its sanitised payload.
 */
export function createInspectionStore(options: InspectionStoreOptions = {}): InspectionStore {
  const limit = options.limit ?? INSPECTION_EVENT_LIMIT;
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? queueMicrotask;
  const live = new Map<string, InspectedRef>();
  let events: InspectedEvent[] = [];
  // The inspection event of each recorded event object, to add the state it led to.
  const recorded = new WeakMap<object, number>();
  let seq = 0;
  let state: InspectionState | null = null;
  let pending = false;
  const listeners = new Set<() => void>();

  const changed = () => {
    state = null;
    if (pending) return;
    pending = true;
    schedule(() => {
      pending = false;
      listeners.forEach((listener) => listener());
    });
  };

  const onEvent = (event: InspectionEvent & { type: '@xstate.event' }) => {
    const { type, ...payload } = event.event;
    seq += 1;
    recorded.set(event.event, seq);
    events = [
      ...events.slice(-(limit - 1)),
      {
        seq,
        time: now(),
        source: event.sourceRef ? label(event.sourceRef) : null,
        target: label(event.actorRef),
        type,
        payload: sanitize(payload),
        stateAfter: null,
      },
    ];
  };

  const onSnapshot = (event: InspectionEvent & { type: '@xstate.snapshot' }) => {
    const { actorRef, snapshot } = event;
    // Actors appear once started: an actor created but never started (React StrictMode) is not live.
    if ((snapshot as { status?: string }).status === 'active')
      live.set(actorRef.sessionId, actorRef);
    else live.delete(actorRef.sessionId);
    const eventSeq = recorded.get(event.event);
    const stateAfter = stateValueOf(snapshot);
    if (eventSeq !== undefined && stateAfter !== null) {
      events = events.map((item) => (item.seq === eventSeq ? { ...item, stateAfter } : item));
    }
  };

  const read = (): InspectionState => ({
    actors: [...live.values()].map((ref) => {
      const snapshot = ref.getSnapshot() as { value?: unknown; context?: unknown };
      return {
        sessionId: ref.sessionId,
        id: ref.id ?? ref.sessionId,
        machineId: machineIdOf(ref),
        parentId: ref._parent?.sessionId ?? null,
        value: stateValueOf(snapshot),
        context: sanitize(snapshot.context),
      };
    }),
    events,
  });

  return {
    observer: {
      next: (event) => {
        if (event.type === '@xstate.event') onEvent(event);
        else if (event.type === '@xstate.snapshot') onSnapshot(event);
        else return;
        changed();
      },
    },
    getState: () => (state ??= read()),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

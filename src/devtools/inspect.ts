/**
 * Development-only inspection of every actor. Each `createActor` / `useActorRef` in the app
 * passes `{ inspect }` from here: it feeds the in-app inspector panel (src/inspect-panel.tsx)
 * and, with `?inspect` in the address, the Stately inspector (`@statelyai/inspect`, which opens
 * its own window). Secrets are stripped by `sanitize` before anything leaves the actors. In
 * production builds `import.meta.env.DEV` is false, both exports are undefined and none of this
 * code (nor the inspector library) is bundled.
 */
import type { AnyEventObject, InspectionEvent, MachineContext, Observer } from 'xstate';
import { createInspectionStore, sanitize, type InspectionStore } from './inspection';

interface DevInspection {
  observer: Observer<InspectionEvent>;
  store: InspectionStore;
}

/** The snapshot fields that can carry secrets: a promise actor's input and output, errors, context. */
const SNAPSHOT_PAYLOAD = ['context', 'input', 'output', 'error'] as const;

function sanitizeSnapshot<T extends object>(snapshot: T): T {
  const copy: Record<string, unknown> = { ...(snapshot as Record<string, unknown>) };
  for (const key of SNAPSHOT_PAYLOAD) if (key in copy) copy[key] = sanitize(copy[key]);
  return copy as T;
}

/** Forwards inspection events to the Stately inspector once its library has loaded. */
function connectStatelyInspector(): Observer<InspectionEvent> {
  // The session actor starts before the library arrives: its first events wait here.
  let waiting: InspectionEvent[] | null = [];
  let forward: (event: InspectionEvent) => void = (event) => waiting?.push(event);
  import('@statelyai/inspect').then(
    ({ createBrowserInspector }) => {
      const inspector = createBrowserInspector({
        sanitizeContext: (context) => sanitize(context) as MachineContext,
        sanitizeEvent: (event) => sanitize(event) as AnyEventObject,
        serialize: (event) => {
          if (event.type === '@xstate.event') return event;
          return { ...event, snapshot: sanitizeSnapshot(event.snapshot) } as typeof event;
        },
      });
      forward = (event) => inspector.inspect.next?.(event);
      waiting?.forEach(forward);
      waiting = null;
    },
    (error: unknown) => {
      console.warn('The Stately inspector could not be loaded', error);
      forward = () => undefined;
      waiting = null;
    },
  );
  return { next: (event) => forward(event) };
}

function startDevInspection(search: string): DevInspection {
  const store = createInspectionStore();
  const observers = [store.observer];
  // `?inspect` (or `?inspect=stately`) connects Stately; `?inspect=panel` only opens the panel.
  const param = new URLSearchParams(search).get('inspect');
  if (param !== null && param !== 'panel') observers.push(connectStatelyInspector());
  return {
    store,
    observer: { next: (event) => observers.forEach((observer) => observer.next?.(event)) },
  };
}

// Only in a browser: a unit test in Node may load a module that binds a machine.
const dev =
  import.meta.env.DEV && typeof window !== 'undefined'
    ? startDevInspection(window.location.search)
    : undefined;

/** The `inspect` option for every actor the app creates; undefined in production. */
export const inspect: Observer<InspectionEvent> | undefined = dev?.observer;

/** What the in-app panel shows; undefined in production. */
export const inspection: InspectionStore | undefined = dev?.store;

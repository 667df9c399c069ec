/**
 * Wires the session machine into the app: restore from and persist to storage, plug the session
 * into the HTTP layer, and keep browser tabs in step over a BroadcastChannel.
 */
import { createActor, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { z } from 'zod/mini';
import { configureSession } from '../api/session-bridge';
import { inspect } from '../devtools/inspect';
import {
  parseRecord,
  persist,
  readRecord,
  restore,
  toPersisted,
  type SessionStorage,
} from './session-persistence';
import { isAnonymous, isLoggedIn, sessionMachine, type SessionMachine } from './session.machine';

const SESSION_CHANNEL_NAME = 'avatar-studio:session';

export interface AppSessionOptions {
  /** Defaults to localStorage. */
  storage?: SessionStorage;
  /** Navigates to /signin?reason=login_required when the session is found invalid. */
  redirectToSignin: () => void;
  channelName?: string;
  /** The machine to run, e.g. with fake actors in tests; defaults to sessionMachine. */
  machine?: SessionMachine;
}

export type SessionActor = ActorRefFrom<SessionMachine>;
export type SessionSnapshot = SnapshotFrom<SessionMachine>;

export interface AppSession {
  actor: SessionActor;
  /** Stops the actor, closes the channel and unplugs the session from the HTTP layer. */
  dispose: () => void;
}

/**
 * What tabs tell each other. The record travels as the persisted JSON text so that a receiving
 * tab validates it exactly like a record read from storage.
 */
const tabMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync'), record: z.string() }),
  z.object({ type: z.literal('logout') }),
]);
type TabMessage = z.infer<typeof tabMessageSchema>;

/** Starts the app's session actor from storage and keeps storage, HTTP layer and other tabs in step. */
export function createAppSession(options: AppSessionOptions): AppSession {
  const storage = options.storage ?? localStorage;
  const machine = (options.machine ?? sessionMachine).provide({
    actions: { redirectToSignin: () => options.redirectToSignin() },
  });
  const actor = createActor(machine, { input: restore(storage), inspect });
  const channel =
    typeof BroadcastChannel === 'undefined'
      ? null
      : new BroadcastChannel(options.channelName ?? SESSION_CHANNEL_NAME);

  // Set while this tab applies another tab's news, so that it is not echoed back.
  let applyingRemote = false;
  let lastWritten = '';
  let wasLoggedIn = false;

  const onSnapshot = ({ context }: SessionSnapshot) => {
    const record = JSON.stringify(toPersisted(context));
    if (record === lastWritten) return;
    lastWritten = record;
    persist(storage, context);
    const loggedIn = isLoggedIn(context);
    if (channel && !applyingRemote) {
      if (loggedIn) channel.postMessage({ type: 'sync', record } satisfies TabMessage);
      else if (wasLoggedIn) channel.postMessage({ type: 'logout' } satisfies TabMessage);
    }
    wasLoggedIn = loggedIn;
  };

  const withoutEcho = (work: () => void) => {
    applyingRemote = true;
    try {
      work();
    } finally {
      applyingRemote = false;
    }
  };

  // Another tab already told the server; this one only forgets or adopts.
  const applyRemote = (message: TabMessage) =>
    withoutEcho(() =>
      actor.send(
        message.type === 'logout'
          ? { type: 'RESET' }
          : { type: 'SYNC', record: parseRecord(message.record) },
      ),
    );

  const onMessage = (event: MessageEvent<unknown>) => {
    // Other tabs may run another version of the app: anything unexpected is ignored.
    const message = tabMessageSchema.safeParse(event.data);
    if (message.success) applyRemote(message.data);
  };

  const subscription = actor.subscribe(onSnapshot);
  channel?.addEventListener('message', onMessage);
  configureSession({
    // Storage, not this actor, is the source of truth: another tab may have rotated the pair.
    getTokens: () => (readRecord(storage) ?? actor.getSnapshot().context).data,
    onRefreshed: (data) => actor.send({ type: 'REFRESHED', data }),
    onSessionInvalid: () => actor.send({ type: 'SESSION_INVALID' }),
  });
  // The restored record is written back (normalised), but other tabs already have it.
  withoutEcho(() => {
    actor.start();
    onSnapshot(actor.getSnapshot());
  });

  return {
    actor,
    dispose: () => {
      configureSession(null);
      subscription.unsubscribe();
      channel?.removeEventListener('message', onMessage);
      channel?.close();
      actor.stop();
    },
  };
}

/** UI selectors: one narrow value each, for `useSelector(actor, selectX)`. */
export const selectIsLoggedIn = (snapshot: SessionSnapshot): boolean =>
  isLoggedIn(snapshot.context);
export const selectIsAnonymous = (snapshot: SessionSnapshot): boolean =>
  isAnonymous(snapshot.context);
export const selectUser = (snapshot: SessionSnapshot) => snapshot.context.data;
export const selectError = (snapshot: SessionSnapshot) => snapshot.context.error;
export const selectIsBusy = (snapshot: SessionSnapshot): boolean =>
  snapshot.matches('authenticating');
export const selectIsLoggingOut = (snapshot: SessionSnapshot): boolean =>
  snapshot.context.isLoggingOut;
export const selectLastVerificationId = (snapshot: SessionSnapshot): string | null =>
  snapshot.context.lastVerificationId;
/** The sign-in waiting for its second step, if any. */
export const selectSecondFactor = (snapshot: SessionSnapshot) => snapshot.context.secondFactor;

/**
 * What a live event changes: the cached reads it makes stale (read again while on screen), and
 * the lists that should look again. Lists are told through `onListChange` rather than by an
 * invalidation: each reads its pages again once a burst of changes is over and brings its rows
 * up to date in place (list machine, REMOTE_CHANGED); screens that care who changed what
 * subscribe with `onLiveEvent`.
 */
import { isListQuery } from './lists';
import { queryClient } from './query';
import type { LiveMessage, LiveStatus } from './live';
import type { StreamEvent } from '../../contract/schemas';

/** The event's name without service and version: `asset.locked.v1` is `locked`. */
export function eventName(routingKey: string): string {
  return routingKey.replace(/^asset\./, '').replace(/\.v\d+$/, '');
}

/** Events that remove the asset they name. */
const REMOVES_ASSET = new Set(['deleted', 'bulk-deleted']);
/** Events that change how many assets there are of a type (the dashboard). */
const CHANGES_COUNTS = new Set([
  'created',
  'deleted',
  'bulk-deleted',
  'restored',
  'type-or-gender-changed',
]);

/** Which list endpoints may show what `event` changed (the activity log shows every event). */
export function listsShowing(event: StreamEvent): (endpoint: string) => boolean {
  const shows = listsOfSubject(event);
  return (endpoint) => /activity/.test(endpoint) || shows(endpoint);
}

function listsOfSubject(event: StreamEvent): (endpoint: string) => boolean {
  const name = eventName(event.routingKey);
  if (name === 'cage-mesh-updated') return (endpoint) => /cage-meshes/.test(endpoint);
  // To the Trash, back from it, or purged: their list and the Trash.
  if (name.startsWith('cage-mesh.')) return (endpoint) => /cage-meshes|trash/.test(endpoint);
  if (name.startsWith('morphed-asset.')) return (endpoint) => /morph|trash/.test(endpoint);
  if (name === 'morph-queue-entry-created' || name.startsWith('morph')) {
    return (endpoint) => /morph/.test(endpoint);
  }
  // Sent, sent again, revoked, accepted: the invitations list, and the users list's invited rows.
  if (name.startsWith('user.invit')) return (endpoint) => /users|invitations/.test(endpoint);
  if (name.startsWith('user.')) return (endpoint) => /users/.test(endpoint);
  if (name.startsWith('application') || name === 'added-to-application') {
    return (endpoint) => /application|assets|trash/.test(endpoint);
  }
  // Tags show how many assets carry them, and the Trash what was deleted, restored or purged;
  // every other event is about an asset.
  return (endpoint) => /assets|tags|trash/.test(endpoint);
}

type Listener<T> = (value: T) => void;

// How the tab's live connection is doing, for the screens that poll while it is down.
let status: LiveStatus | null = null;
const statusListeners = new Set<() => void>();

/**
 * Records the connection's state (the shell's connection calls this). Back after it was lost,
 * everything on screen is read again, as after a reset: a change told just before (by a server
 * that was stopping) may have been read from a server already gone, and that read is not tried
 * again by itself.
 */
export function setLiveStatus(next: LiveStatus | null): void {
  const back = next === 'connected' && (status === 'reconnecting' || status === 'offline');
  status = next;
  if (back) applyLiveMessage({ type: 'reset' });
  for (const listener of statusListeners) listener();
}

/** The connection's state, or null without one (useSyncExternalStore's getSnapshot). */
export const liveStatus = (): LiveStatus | null => status;

/** Calls `listener` when the connection's state changes; answers the unsubscribe. */
export function onLiveStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}
const eventListeners = new Set<Listener<StreamEvent>>();
const listListeners = new Set<Listener<((endpoint: string) => boolean) | 'all'>>();

/** Calls `listener` with every live event; answers the unsubscribe. */
export function onLiveEvent(listener: Listener<StreamEvent>): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

/**
 * Calls `listener` when lists may have changed: with a test of the endpoints concerned, or
 * `'all'` after a reset. Answers the unsubscribe.
 */
export function onListChange(
  listener: Listener<((endpoint: string) => boolean) | 'all'>,
): () => void {
  listListeners.add(listener);
  return () => listListeners.delete(listener);
}

/** Brings the cache up to date with one message of the stream. */
export function applyLiveMessage(message: LiveMessage): void {
  if (message.type === 'reset') {
    // Events were missed: everything on screen is read again. The lists look for themselves
    // (told below, they change their rows in place), so their pages are only marked stale.
    void queryClient.invalidateQueries({ predicate: (query) => !isListQuery(query) });
    void queryClient.invalidateQueries({ predicate: isListQuery, refetchType: 'none' });
    for (const listener of listListeners) listener('all');
    return;
  }
  const { event } = message;
  const name = eventName(event.routingKey);
  if (event.assetId !== null) {
    const key = ['assets', event.assetId];
    if (REMOVES_ASSET.has(name)) {
      // The page still showing it says so (onLiveEvent) rather than failing to read it.
      void queryClient.invalidateQueries({ queryKey: key, refetchType: 'none' });
    } else {
      void queryClient.invalidateQueries({ queryKey: key });
    }
  }
  if (CHANGES_COUNTS.has(name)) void queryClient.invalidateQueries({ queryKey: ['asset-counts'] });
  // A bulk job's batch stands for its rows' own events (the stream leaves those out): any
  // asset on screen may be one of them.
  if (event.bulkJobId) {
    void queryClient.invalidateQueries({ queryKey: ['assets'] });
    void queryClient.invalidateQueries({ queryKey: ['asset-counts'] });
  }
  if (event.cageMeshId !== null) {
    // A page still showing a trashed cage mesh keeps it rather than failing to read it.
    const refetchType = name === 'cage-mesh.deleted' ? 'none' : 'active';
    void queryClient.invalidateQueries({
      queryKey: ['cage-meshes', event.cageMeshId],
      refetchType,
    });
  }
  if (name.startsWith('application') || name === 'added-to-application') {
    void queryClient.invalidateQueries({ queryKey: ['applications'] });
  }
  const shows = listsShowing(event);
  for (const listener of listListeners) listener(shows);
  for (const listener of eventListeners) listener(event);
}

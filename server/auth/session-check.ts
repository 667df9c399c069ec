/**
 * The state of the sessions access tokens name, for the check every authenticated request
 * makes (server/auth/middleware.ts), from a per-server cache so that the check costs a Map
 * lookup, not a query.
 *
 * The cache is only trusted while this server listens on `auth_sessions`: whatever ends a
 * session or changes its user's role, status or second factor notifies that channel in the same
 * transaction (triggers of migrations 010 and 050), on every server of the database, and a notification drops the
 * entries it names. Before listening starts, while a lost listening connection is away, and
 * until it is back (when anything may have been missed, so everything is dropped), lookups
 * read the database instead. A read that a notification overtook is not cached. Entries are
 * also re-read after SESSION_CACHE_TTL_MS, a safety net that no correct path relies on.
 *
 * A server that makes such a change itself does not wait for its own notification: the code
 * that makes it announces it (announceSessionChange) before the commit, and until the
 * notification arrives the sessions it names are read, never cached. So the very next request
 * after a logout answered by this server is refused here too.
 */
import { performance } from 'node:perf_hooks';
import type { Role } from '../../contract/schemas';
import { rootOf, type Db, type Unlisten } from '../db';
import { log } from '../log';

export const SESSIONS_CHANNEL = 'auth_sessions';
/** How long a cached state is used without a notification before it is read again. */
export const SESSION_CACHE_TTL_MS = 60_000;
/** At most this many sessions are cached per server; the oldest make way. */
export const SESSION_CACHE_MAX = 20_000;
/** After listening failed to start (database down), the next lookup tries again this much later. */
const LISTEN_RETRY_MS = 1000;
/** An announced change whose notification never comes (rolled back) stops mattering then. */
const PENDING_MS = 5000;

/** The session checks of this process on each database: what announceSessionChange tells. */
const announcees = new WeakMap<Db, Set<(key: string) => void>>();

/**
 * Tells this process's session checks on `db` (or the database of transaction `db`) that a
 * change to `key` ('s:<session id>' or 'u:<user id>') is about to commit.
 */
export function announceSessionChange(db: Db, key: string): void {
  for (const announce of announcees.get(rootOf(db)) ?? []) announce(key);
}

export interface SessionState {
  userId: string;
  /** The user's role now. */
  role: Role;
  expiresAt: Date;
  revoked: boolean;
  /** The user is disabled (`users.disabled_at`). */
  disabled: boolean;
  /** The user has a second factor turned on. */
  secondFactor: boolean;
}

export interface SessionCheck {
  /** The state of session `sessionId`; undefined when there is no such session. */
  lookup(sessionId: string): Promise<SessionState | undefined>;
  /** Stops listening (before the database closes). */
  close(): Promise<void>;
}

interface SessionStateRow {
  user_id: string;
  role: Role;
  expires_at: Date;
  revoked: boolean;
  disabled: boolean;
  second_factor: boolean;
}

/** The state of session `sessionId` in the database now; undefined when there is none. */
export async function readSession(db: Db, sessionId: string): Promise<SessionState | undefined> {
  const { rows } = await db.query<SessionStateRow>(
    `SELECT s.user_id, u.role, s.expires_at, s.revoked_at IS NOT NULL AS revoked,
            u.disabled_at IS NOT NULL AS disabled,
            (EXISTS (SELECT 1 FROM user_totp t
                     WHERE t.user_id = s.user_id AND t.enabled_at IS NOT NULL)
             OR EXISTS (SELECT 1 FROM passkeys p WHERE p.user_id = s.user_id)) AS second_factor
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1`,
    [sessionId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { user_id: userId, role, expires_at: expiresAt, revoked, disabled } = row;
  return { userId, role, expiresAt, revoked, disabled, secondFactor: row.second_factor };
}

/** A session check on `db`; it starts listening at the first lookup. */
export function createSessionCheck(db: Db): SessionCheck {
  const cache = new Map<string, { state: SessionState | undefined; at: number }>();
  /** `live`: listening, so the cache is trusted. */
  let mode: 'idle' | 'starting' | 'live' | 'lost' = 'idle';
  let starting: Promise<void> | undefined;
  let unlisten: Unlisten | undefined;
  let retryAt = 0;
  let closed = false;
  /** Counts invalidations: a read that one overtook is not cached. */
  let generation = 0;
  /** Announced changes whose notification has not arrived yet: how many, and until when. */
  const pending = new Map<string, { count: number; until: number }>();

  const isPending = (key: string): boolean => {
    if (pending.size === 0) return false;
    const entry = pending.get(key);
    if (!entry) return false;
    if (performance.now() < entry.until) return true;
    pending.delete(key);
    return false;
  };
  const touches = (sessionId: string, state: SessionState | undefined) =>
    isPending(`s:${sessionId}`) || (state !== undefined && isPending(`u:${state.userId}`));

  /** Drops what `payload` names: a session, a user's sessions, or (undefined) everything. */
  const invalidate = (payload: string | undefined) => {
    generation += 1;
    if (payload?.startsWith('s:')) {
      cache.delete(payload.slice(2));
    } else if (payload?.startsWith('u:')) {
      const userId = payload.slice(2);
      for (const [sessionId, entry] of cache) {
        if (entry.state?.userId === userId) cache.delete(sessionId);
      }
    } else {
      // A lost connection is back (or an unknown notice): whatever was missed is dropped.
      cache.clear();
      if (mode === 'lost') mode = 'live';
    }
  };
  const onNotify = (payload: string | undefined) => {
    invalidate(payload);
    const entry = payload === undefined ? undefined : pending.get(payload);
    if (entry && --entry.count <= 0) pending.delete(payload!);
  };
  const announce = (key: string) => {
    invalidate(key);
    const count = (pending.get(key)?.count ?? 0) + 1;
    pending.set(key, { count, until: performance.now() + PENDING_MS });
  };
  const onLost = () => {
    generation += 1;
    cache.clear();
    mode = 'lost';
  };

  const announced = announcees.get(db) ?? new Set();
  announcees.set(db, announced.add(announce));

  const start = () => {
    mode = 'starting';
    starting = db.listen(SESSIONS_CHANNEL, onNotify, onLost).then(
      async (stop) => {
        if (closed) {
          await stop();
          return;
        }
        unlisten = stop;
        generation += 1;
        mode = 'live';
      },
      (error: unknown) => {
        log.error({ err: error, channel: SESSIONS_CHANNEL }, `LISTEN ${SESSIONS_CHANNEL} failed`);
        mode = 'idle';
        retryAt = performance.now() + LISTEN_RETRY_MS;
      },
    );
  };

  return {
    async lookup(sessionId) {
      if (mode === 'idle' && !closed && performance.now() >= retryAt) start();
      if (mode !== 'live') return readSession(db, sessionId);
      const now = performance.now();
      const hit = cache.get(sessionId);
      if (hit && now - hit.at < SESSION_CACHE_TTL_MS && !touches(sessionId, hit.state)) {
        return hit.state;
      }
      const before = generation;
      const state = await readSession(db, sessionId);
      if (generation === before && mode === 'live' && !closed && !touches(sessionId, state)) {
        cache.delete(sessionId);
        cache.set(sessionId, { state, at: now });
        if (cache.size > SESSION_CACHE_MAX) cache.delete(cache.keys().next().value!);
      }
      return state;
    },
    async close() {
      closed = true;
      announced.delete(announce);
      cache.clear();
      await starting;
      await unlisten?.();
    },
  };
}

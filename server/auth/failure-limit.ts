/**
 * Sliding-window limit on failed password checks (login, re-authentication), kept in the
 * database so it holds across server instances.
 */
import type { Db } from '../db';
import { fail } from '../http/errors';

export interface FailureLimit {
  /** Failures allowed inside the window before further attempts get 429. */
  max: number;
  windowMs: number;
}

export const LOGIN_FAILURES: FailureLimit = { max: 10, windowMs: 15 * 60 * 1000 };
export const REAUTH_FAILURES: FailureLimit = { max: 5, windowMs: 15 * 60 * 1000 };

/** Rejects with 429 RATE_LIMITED when `key` has used up its failures in the window. */
export async function assertUnderFailureLimit(
  db: Db,
  key: string,
  limit: FailureLimit,
  now: Date,
): Promise<void> {
  const since = new Date(now.getTime() - limit.windowMs);
  const { rows } = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM auth_failures WHERE key = $1 AND created_at > $2',
    [key, since],
  );
  if ((rows[0]?.count ?? 0) >= limit.max) {
    fail(429, 'RATE_LIMITED', 'Too many failed attempts; try again later');
  }
}

/** Records one failed attempt for `key`. */
export async function recordFailure(db: Db, key: string, now: Date): Promise<void> {
  await db.query('INSERT INTO auth_failures (key, created_at) VALUES ($1, $2)', [key, now]);
}

/**
 * Housekeeping: rows that can no longer matter (dead codes, old failures, expired token
 * families) are deleted so the tables stay small.
 */
import type { Db } from './db';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Deletes codes, failures and Idempotency-Key answers older than a day, sessions (with their
 * tokens) expired a day ago, and the answered passkey ceremonies that can no longer be sent.
 */
export async function pruneExpired(db: Db, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  await db.query('DELETE FROM one_time_codes WHERE created_at < $1', [dayAgo]);
  await db.query('DELETE FROM rate_limit_events WHERE created_at < $1', [dayAgo]);
  await db.query('DELETE FROM sessions WHERE expires_at < $1', [dayAgo]);
  await db.query('DELETE FROM idempotency_keys WHERE created_at < $1', [dayAgo]);
  await db.query('DELETE FROM passkey_ceremonies_used WHERE expires_at < $1', [now]);
}

/**
 * Sliding-window limits on what a stranger could repeat: wrong passwords, wrong one-time codes,
 * mail sent, anonymous accounts made. Kept in the database so they hold across server
 * instances. An attempt is taken under every limit that applies at once, before the work it
 * guards, so parallel requests cannot all pass a count of zero; a successful password check
 * gives its attempt back.
 */
import type { Db } from '../db';
import { fail } from '../http/errors';

export interface Limit {
  /** Attempts allowed inside the window; the next one is refused with 429. */
  max: number;
  windowMs: number;
  /** The error code and message of the refusal. */
  code: string;
  message: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const tooManyPasswords = {
  code: 'RATE_LIMITED',
  message: 'Too many failed attempts; try again later or sign in with a code',
};

export const LIMITS = {
  /** Wrong passwords for one address (a code sign-in still works for its owner). */
  passwordPerAddress: { max: 10, windowMs: 15 * MINUTE_MS, ...tooManyPasswords },
  /** Wrong passwords from one client address, across accounts. */
  passwordPerClient: { max: 50, windowMs: 15 * MINUTE_MS, ...tooManyPasswords },
  /** Wrong passwords server-wide: a ceiling for guessing spread over many addresses. */
  passwordGlobal: { max: 1000, windowMs: 15 * MINUTE_MS, ...tooManyPasswords },
  /** Wrong passwords when a signed-in user confirms theirs. */
  reauthPerUser: { max: 5, windowMs: 15 * MINUTE_MS, ...tooManyPasswords },
  /** Wrong one-time codes for one address, across purposes and clients. */
  codeGuessesPerAddress: {
    max: 20,
    windowMs: DAY_MS,
    code: 'TOO_MANY_ATTEMPTS',
    message: 'Too many wrong codes for this address today; try again tomorrow',
  },
  /** Calls that send mail (codes, verification), from one client address. */
  mailPerClient: {
    max: 20,
    windowMs: HOUR_MS,
    code: 'RATE_LIMITED',
    message: 'Too many mails requested from this network; try again later',
  },
  /** Anonymous accounts made from one client address. */
  anonymousSignupPerClient: {
    max: 20,
    windowMs: HOUR_MS,
    code: 'RATE_LIMITED',
    message: 'Too many accounts created from this network; try again later',
  },
} satisfies Record<string, Limit>;

/** One limit applied to one key, e.g. the password limit of one address. */
export interface LimitCheck {
  key: string;
  limit: Limit;
}

/** An attempt taken under some limits; it counts until given back. */
export interface Attempt {
  /** Gives the attempt back (a password that was right does not count as a failure). */
  giveBack(): Promise<void>;
}

/**
 * Takes one attempt under every check, or none: answers 429 with the first used-up limit's
 * code. Each key is locked for the count and the insert, so concurrent takers queue.
 */
export async function takeAttempt(db: Db, checks: LimitCheck[], now: Date): Promise<Attempt> {
  // Locks are taken in one order so two takers of overlapping keys cannot deadlock.
  const sorted = [...checks].sort((a, b) => a.key.localeCompare(b.key));
  const ids = await db.transaction(async (tx) => {
    for (const { key, limit } of sorted) {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`limit:${key}`]);
      const { rows } = await tx.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM rate_limit_events WHERE key = $1 AND created_at > $2',
        [key, new Date(now.getTime() - limit.windowMs)],
      );
      if ((rows[0]?.count ?? 0) >= limit.max) fail(429, limit.code, limit.message);
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO rate_limit_events (key, created_at)
       SELECT key, $2 FROM unnest($1::text[]) AS key RETURNING id::text`,
      [sorted.map((check) => check.key), now],
    );
    return rows.map((row) => row.id);
  });
  return {
    giveBack: async () => {
      await db.query('DELETE FROM rate_limit_events WHERE id = ANY($1::bigint[])', [ids]);
    },
  };
}

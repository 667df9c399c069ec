/**
 * Sliding-window limits, some with a growing back-off, on what a stranger could repeat: wrong
 * passwords, wrong one-time codes, mail sent, account look-ups, anonymous accounts made. Kept in the database so they hold across server
 * instances. An attempt is taken under every limit that applies at once, before the work it
 * guards, so parallel requests cannot all pass a count of zero; a successful password check
 * gives its attempt back.
 *
 * A limit that many clients share (all clients guessing at one account) would let strangers
 * spend it and refuse the owner, so it holds only clients that have used up their own free
 * attempts (`holdsAfter`): the owner on a network that has not failed is never held by it.
 */
import { rootOf, type Db } from '../db';
import { fail } from '../http/errors';
import { rateLimitRefusals } from '../metrics';

export interface Limit {
  /** Attempts allowed inside the window; the next one is refused with 429. */
  max: number;
  windowMs: number;
  /**
   * Growing back-off instead of a lock: past `free` attempts inside the window, each further
   * one must wait `firstDelayMs` after the previous, doubling per attempt up to `maxDelayMs`.
   */
  backoff?: { free: number; firstDelayMs: number; maxDelayMs: number };
  /** The error code and message of the refusal. */
  code: string;
  message: string;
  /**
   * Holds a client only once it has `attempts` attempts under `own` (its own limit among the
   * same checks) in that limit's window; before, its attempts count here without being held.
   */
  holdsAfter?: { own: Limit; attempts: number };
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const tooManyPasswords = {
  code: 'RATE_LIMITED',
  message: 'Too many failed attempts; try again in a few minutes or sign in with a code',
};
const tooManyCodes = {
  code: 'TOO_MANY_ATTEMPTS',
  message: 'Too many wrong codes; wait a few minutes or request a new code',
};

/** A back-off that starts after `free` attempts a day, at one minute, doubling up to `max`. */
function backoffAfter(free: number, maxDelayMs: number) {
  return {
    max: Number.MAX_SAFE_INTEGER,
    windowMs: DAY_MS,
    backoff: { free, firstDelayMs: MINUTE_MS, maxDelayMs },
  };
}

const passwordPerAddressClient: Limit = { ...backoffAfter(5, HOUR_MS), ...tooManyPasswords };
const codeGuessesPerAddressClient: Limit = {
  max: Number.MAX_SAFE_INTEGER,
  windowMs: DAY_MS,
  ...tooManyCodes,
};
/** A client's free wrong codes at one address a day, before the address's limits hold it. */
const freeCodeGuesses = { own: codeGuessesPerAddressClient, attempts: 3 };
const passwordPerClient: Limit = { ...backoffAfter(20, HOUR_MS), ...tooManyPasswords };
const codeGuessesPerClient: Limit = { ...backoffAfter(10, HOUR_MS), ...tooManyCodes };

/** The numbers and their arithmetic are in docs/api.md "Sessions". */
export const LIMITS = {
  /** Wrong passwords for one address from one client address. */
  passwordPerAddressClient,
  /** Wrong passwords from one client address, across accounts. */
  passwordPerClient,
  /**
   * Wrong passwords for one address from all clients (a distributed guesser); it holds only
   * clients past their own free wrong passwords for the address.
   */
  passwordPerAddress: {
    ...backoffAfter(50, 5 * MINUTE_MS),
    ...tooManyPasswords,
    holdsAfter: { own: passwordPerAddressClient, attempts: 5 },
  },
  /**
   * Wrong passwords server-wide: a ceiling for guessing spread over many addresses. It holds
   * only clients past their own first few wrong passwords of the day, so strangers filling it
   * refuse no one else's right password.
   */
  passwordGlobal: {
    max: 1000,
    windowMs: 15 * MINUTE_MS,
    ...tooManyPasswords,
    holdsAfter: { own: passwordPerClient, attempts: 5 },
  },
  /** Wrong passwords when a signed-in user confirms theirs. */
  reauthPerUser: { max: 5, windowMs: 15 * MINUTE_MS, ...tooManyPasswords },
  /** Wrong one-time codes from one client address, across addresses and purposes. */
  codeGuessesPerClient,
  /**
   * Wrong codes for one address (or one account's authenticator) from one client: only counted,
   * so that the limits of the address (or account) hold a client past its free guesses
   * (`freeCodeGuesses`).
   */
  codeGuessesPerAddressClient,
  /**
   * Wrong codes for one address from clients that did not ask for one of its live codes; past
   * it, such a client that has used its free guesses is refused (the right code works from
   * any other network, and from a device that asks for a fresh one).
   */
  codeForeignGuessesPerAddress: {
    max: 10,
    windowMs: DAY_MS,
    code: 'TOO_MANY_ATTEMPTS',
    message: 'Too many wrong codes for this address; request a new code from this device',
    holdsAfter: freeCodeGuesses,
  },
  /** Wrong codes for one address from clients that asked for one of its codes. */
  codeOwnGuessesPerAddress: {
    ...backoffAfter(10, 30 * MINUTE_MS),
    ...tooManyCodes,
    holdsAfter: freeCodeGuesses,
  },
  /**
   * Wrong codes server-wide: a ceiling for guessing spread over many clients. It holds only
   * clients past their own first few wrong codes of the day, so strangers filling it refuse no
   * one else's right code.
   */
  codeGuessesGlobal: {
    max: 500,
    windowMs: HOUR_MS,
    ...tooManyCodes,
    holdsAfter: { own: codeGuessesPerClient, attempts: 3 },
  },
  /**
   * Wrong authenticator codes of one account from all clients. With 3 codes right of 10^6 at
   * any time, N networks that know the password get 3N + 10 guesses a day (3(3N + 10) / 10^6 of
   * finding one). It holds only clients past their free wrong codes at the account, so the owner
   * on a network of their own is never refused by what strangers spent; recovery codes (50
   * random bits each) are not counted.
   */
  totpGuessesPerAccount: {
    max: 10,
    windowMs: DAY_MS,
    code: 'TOO_MANY_ATTEMPTS',
    message: 'Too many wrong codes for this account: use a recovery code, or try again tomorrow',
    holdsAfter: freeCodeGuesses,
  },
  /** Calls that send mail (codes, verification), from one client address. */
  mailPerClient: {
    max: 20,
    windowMs: HOUR_MS,
    code: 'RATE_LIMITED',
    message: 'Too many mails requested from this network; try again later',
  },
  /** Answers that say whether an address has an account (look-ups, sign-up), per client. */
  accountLookupsPerClient: {
    max: 30,
    windowMs: HOUR_MS,
    code: 'RATE_LIMITED',
    message: 'Too many account look-ups from this network; try again later',
  },
  /** Anonymous accounts made from one client address. */
  anonymousSignupPerClient: {
    max: 20,
    windowMs: HOUR_MS,
    code: 'RATE_LIMITED',
    message: 'Too many accounts created from this network; try again later',
  },
} satisfies Record<string, Limit>;

/** Each limit's name in LIMITS: the label its refusals are counted under. */
const LIMIT_NAMES = new Map<Limit, string>(
  Object.entries(LIMITS).map(([name, limit]) => [limit, name]),
);

/** One limit applied to one key, e.g. the password limit of one address. */
export interface LimitCheck {
  key: string;
  limit: Limit;
}

/** An attempt taken under some limits; it counts until given back. */
export interface Attempt {
  /** Gives the attempt back (a password that was right does not count as a failure). */
  giveBack(): Promise<void>;
  /** Whether every limit with `holdsAfter` held this client (past its free attempts). */
  held: boolean;
}

/** Whether a back-off `limit` with `count` attempts, the newest at `newest`, refuses one now. */
function tooSoon(limit: Limit, count: number, newest: Date | null, now: Date): boolean {
  if (!limit.backoff || newest === null || count < limit.backoff.free) return false;
  const { free, firstDelayMs, maxDelayMs } = limit.backoff;
  const delay = Math.min(firstDelayMs * 2 ** Math.min(count - free, 30), maxDelayMs);
  return now.getTime() - newest.getTime() < delay;
}

/** When a back-off `limit` with `count` attempts, the newest at `newest`, lets one through. */
function backoffEnd(limit: Limit, count: number, newest: Date): number {
  const { free, firstDelayMs, maxDelayMs } = limit.backoff!;
  return newest.getTime() + Math.min(firstDelayMs * 2 ** Math.min(count - free, 30), maxDelayMs);
}

/** Whether `check` holds this client, given what every check's key counted. */
function holds(check: LimitCheck, checks: LimitCheck[], counts: Map<string, number>): boolean {
  const rule = check.limit.holdsAfter;
  if (!rule) return true;
  // Without its own limit among the checks, the client is held like any other.
  const own = checks.find((other) => other.limit === rule.own);
  return own === undefined || (counts.get(own.key) ?? 0) >= rule.attempts;
}

/**
 * How long a server remembers that a client's own limit refused it, so that its next attempts
 * are refused without a transaction: a client looping on refused attempts (wrong passwords,
 * code guesses, mail) would otherwise cost each of them a transaction and queue its database
 * work ahead of everyone else's. Never past the moment the database would let it through,
 * except when an attempt is given back on another server meanwhile: then this long at most.
 */
export const REFUSAL_MEMORY_MS = 10_000;
/** Refusals remembered per database, at most this many (a client's keys, a few each). */
const REFUSALS_KEPT = 10_000;

interface Refusal {
  check: LimitCheck;
  from: number;
  until: number;
}

const refusals = new WeakMap<Db, Map<string, Refusal>>();

function refusalsOf(db: Db): Map<string, Refusal> {
  const root = rootOf(db);
  let kept = refusals.get(root);
  if (!kept) refusals.set(root, (kept = new Map<string, Refusal>()));
  return kept;
}

/** The remembered refusal of one of `checks` at `now`, if any. */
function rememberedRefusal(db: Db, checks: LimitCheck[], now: number): LimitCheck | undefined {
  const kept = refusals.get(rootOf(db));
  if (!kept?.size) return undefined;
  for (const check of checks) {
    const refusal = kept.get(check.key);
    if (refusal && refusal.check.limit === check.limit && refusal.from <= now) {
      if (now < refusal.until) return check;
      kept.delete(check.key);
    }
  }
  return undefined;
}

function rememberRefusal(db: Db, refusal: Refusal): void {
  const kept = refusalsOf(db);
  if (kept.size >= REFUSALS_KEPT) {
    for (const [key, { until }] of kept) if (until <= refusal.from) kept.delete(key);
    // Still full: the oldest go (Map keeps insertion order).
    for (const key of kept.keys()) {
      if (kept.size < REFUSALS_KEPT) break;
      kept.delete(key);
    }
  }
  kept.delete(refusal.check.key);
  kept.set(refusal.check.key, refusal);
}

function refuse(limit: Limit): never {
  rateLimitRefusals.inc({ limit: LIMIT_NAMES.get(limit) ?? limit.code });
  fail(429, limit.code, limit.message);
}

/**
 * Answers 429 if one of `checks` refused this client within REFUSAL_MEMORY_MS, without asking
 * the database: for a caller with work to do before it can take the attempt (reading what the
 * full list of checks depends on), so that a refusal already decided costs none of it.
 */
export function refuseIfRemembered(db: Db, checks: LimitCheck[], now: Date): void {
  const remembered = rememberedRefusal(db, checks, now.getTime());
  if (remembered) refuse(remembered.limit);
}

/**
 * Takes one attempt under every check, or none: answers 429 with the first used-up limit's
 * code. Each key is locked for the count and the insert, so concurrent takers queue. A client
 * its own limit refused within REFUSAL_MEMORY_MS is refused again at once.
 */
export async function takeAttempt(db: Db, checks: LimitCheck[], now: Date): Promise<Attempt> {
  // Locks are taken in one order so two takers of overlapping keys cannot deadlock: a client's
  // own keys first, then those every client shares (the limits with holdsAfter, each key always
  // under the same limit), so a client its own limits refuse never touches the shared ones.
  const shared = (check: LimitCheck) => (check.limit.holdsAfter ? 1 : 0);
  const sorted = [...checks].sort((a, b) => shared(a) - shared(b) || a.key.localeCompare(b.key));
  const remembered = rememberedRefusal(db, sorted, now.getTime());
  if (remembered) refuse(remembered.limit);
  const { ids, held } = await db.transaction(async (tx) => {
    const counts = new Map<string, number>();
    const newest = new Map<string, Date | null>();
    const oldest = new Map<string, Date | null>();
    const decided = new Set<LimitCheck>();
    // Each check is decided as soon as its count (and its own limit's, with holdsAfter) is read:
    // a refused client stops there, so a flood of refused attempts neither waits for nor holds
    // the keys every other attempt takes (the server-wide one above all).
    const refuseIfFull = () => {
      for (const check of sorted) {
        const { key, limit } = check;
        const own = limit.holdsAfter && sorted.find((o) => o.limit === limit.holdsAfter!.own);
        if (decided.has(check) || !counts.has(key) || (own && !counts.has(own.key))) continue;
        decided.add(check);
        const count = counts.get(key)!;
        const overMax = count >= limit.max;
        const early = tooSoon(limit, count, newest.get(key) ?? null, now);
        if ((overMax || early) && holds(check, sorted, counts)) {
          // Only a client's own limits are remembered: a shared one holds each client by what
          // that client has spent. Remembered no longer than the database would refuse: until
          // the window's oldest attempt leaves it the count cannot fall, nor the back-off's delay.
          if (!limit.holdsAfter) {
            const at = now.getTime();
            const windowEnd = (oldest.get(key)?.getTime() ?? at) + limit.windowMs;
            const end = overMax
              ? windowEnd
              : Math.min(backoffEnd(limit, count, newest.get(key)!), windowEnd);
            rememberRefusal(db, { check, from: at, until: Math.min(end, at + REFUSAL_MEMORY_MS) });
          }
          refuse(limit);
        }
      }
    };
    for (const { key, limit } of sorted) {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`limit:${key}`]);
      const { rows } = await tx.query<{
        count: number;
        newest: Date | null;
        oldest: Date | null;
      }>(
        `SELECT count(*)::int AS count, max(created_at) AS newest, min(created_at) AS oldest
         FROM rate_limit_events WHERE key = $1 AND created_at > $2`,
        [key, new Date(now.getTime() - limit.windowMs)],
      );
      counts.set(key, rows[0]?.count ?? 0);
      newest.set(key, rows[0]?.newest ?? null);
      oldest.set(key, rows[0]?.oldest ?? null);
      refuseIfFull();
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO rate_limit_events (key, created_at)
       SELECT key, $2 FROM unnest($1::text[]) AS key RETURNING id::text`,
      [sorted.map((check) => check.key), now],
    );
    return {
      ids: rows.map((row) => row.id),
      held: sorted.every((check) => holds(check, sorted, counts)),
    };
  });
  return {
    giveBack: async () => {
      await db.query('DELETE FROM rate_limit_events WHERE id = ANY($1::bigint[])', [ids]);
      const kept = refusals.get(rootOf(db));
      for (const { key } of sorted) kept?.delete(key);
    },
    held,
  };
}

/**
 * Six-digit one-time codes for passwordless login, e-mail verification, password reset,
 * changes of e-mail address and the proof an account without a password gives before a change
 * that decides who can sign in.
 * A code is single use and expires after CODE_TTL_MS. A new code does not cancel the ones
 * already sent, so nobody can break an owner's sign-in by asking for codes: the newest
 * MAX_LIVE_CODES of an address and purpose are accepted. Past the issuing limit of an address,
 * a request mails the newest code again instead of being refused: the code itself is the
 * owner's proof, so a stranger filling the limit must not keep the owner from getting one.
 *
 * Wrong guesses are limited so that a stranger can neither brute-force a code nor lock its
 * owner out (docs/api.md "Sessions" has the numbers): each code takes GUESSES_PER_CODE
 * wrong guesses from the client address that asked for it and as many from all other
 * clients, then refuses that side; guesses are limited per client (back-off), per address
 * (other clients: a daily cap; the clients that asked: a back-off) and server-wide. What a
 * code and an address allow is shared by every client, so it holds only a client past its
 * own free wrong guesses at the address (rate-limit.ts `holdsAfter`): the owner, typing the
 * right code on a network that has not been guessing, is never refused by what strangers spent.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { rootOf, type Db } from '../db';
import { fail } from '../http/errors';
import { newId } from '../ids';
import { LIMITS, refuseIfRemembered, takeAttempt, type LimitCheck } from './rate-limit';

/**
 * `email`: a code mailed to the new address of an e-mail change (server/routes/account.ts).
 * `proof`: a code mailed to a signed-in account's address to confirm a change (fresh-proof.ts).
 */
export type CodePurpose = 'login' | 'verify' | 'reset' | 'email' | 'proof';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_LIVE_CODES = 3;
export const RATE_WINDOW_MS = 15 * 60 * 1000;
/** New codes per address and purpose in RATE_WINDOW_MS; past it the newest one is re-sent. */
export const MAX_CODES_PER_WINDOW = 5;
/** A code is mailed again at most this often. */
export const RESEND_INTERVAL_MS = 60 * 1000;
/** Wrong guesses a code takes from the client that asked for it, and from all others. */
export const GUESSES_PER_CODE = 5;

interface CodeRow {
  id: string;
  user_id: string | null;
  code_hash: string;
  expires_at: Date;
  used_at: Date | null;
  client: string;
  own_failures: number;
  foreign_failures: number;
}

export type CodeFailure = 'invalid' | 'expired' | 'used';
export type ConsumeResult =
  { ok: true; userId: string | null } | { ok: false; reason: CodeFailure };

// Six digits are easy to brute-force offline, so the stored hash is keyed (config.keys.codeHashing).
function hashCode(secret: string, id: string, code: string): string {
  return createHmac('sha256', secret).update(`${id}:${code}`).digest('hex');
}

/**
 * A code's digits, derived from its random id under the key, so that it can be mailed again
 * without being stored. (The NUL keeps this message apart from any `hashCode` message.)
 */
function codeFor(secret: string, id: string): string {
  const mac = createHmac('sha256', secret).update(`code\0${id}`).digest();
  return (mac.readUIntBE(0, 6) % 1_000_000).toString().padStart(6, '0');
}

export interface IssueCode {
  email: string;
  /** Null for an address without an account: the code is recorded but never mailed. */
  userId: string | null;
  purpose: CodePurpose;
  /** The client address that asked for it: its guesses spend the code's own budget. */
  client: string;
  now: Date;
  secret: string;
}

/** A code to mail: `mail` is false when the same code was mailed moments ago. */
export interface IssuedCode {
  id: string;
  code: string;
  mail: boolean;
}

/**
 * Creates a code, or past the per-address limit gives the newest one again while it has half
 * its time left (else a new one: past the limit, one new code per half lifetime at most).
 */
export async function issueCode(db: Db, input: IssueCode): Promise<IssuedCode> {
  const email = input.email.toLowerCase();
  const issued = await db.transaction(async (tx) => {
    // Serializes issuing per address and purpose so concurrent requests cannot beat the limit.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`otc:${input.purpose}:${email}`]);
    const since = new Date(input.now.getTime() - RATE_WINDOW_MS);
    const { rows } = await tx.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM one_time_codes
       WHERE email = $1 AND purpose = $2 AND created_at > $3`,
      [email, input.purpose, since],
    );
    if ((rows[0]?.count ?? 0) >= MAX_CODES_PER_WINDOW) {
      const again = await issueAgain(tx, input, email);
      if (again) return { ...again, created: false };
    }
    const id = newId();
    const code = codeFor(input.secret, id);
    await tx.query(
      `INSERT INTO one_time_codes
         (id, email, user_id, purpose, code_hash, expires_at, created_at, client)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        email,
        input.userId,
        input.purpose,
        hashCode(input.secret, id, code),
        new Date(input.now.getTime() + CODE_TTL_MS),
        input.now,
        input.client,
      ],
    );
    return { id, code, mail: true, created: true };
  });
  // A new code takes guesses again: from every client, on this server at once.
  if (issued.created) forgetSpent(db, groupOf({ email }, input.purpose));
  return { id: issued.id, code: issued.code, mail: issued.mail };
}

/**
 * The newest code of the address with half its time left, to mail again (see `issueCode`);
 * undefined when there is none. One recorded for the address while it had no account becomes
 * this account's (nobody has seen it: it was never mailed). Another account's code (a change
 * of e-mail address asked by two accounts) is not given: 429 as before the limit.
 */
async function issueAgain(
  tx: Db,
  input: IssueCode,
  email: string,
): Promise<IssuedCode | undefined> {
  const { rows } = await tx.query<{
    id: string;
    user_id: string | null;
    code_hash: string;
    sent_at: Date;
  }>(
    `SELECT id, user_id, code_hash, coalesce(sent_at, created_at) AS sent_at
     FROM one_time_codes
     WHERE email = $1 AND purpose = $2 AND used_at IS NULL AND expires_at >= $3
     ORDER BY created_at DESC LIMIT 1`,
    [email, input.purpose, new Date(input.now.getTime() + CODE_TTL_MS / 2)],
  );
  const row = rows[0];
  if (!row) return undefined;
  const code = codeFor(input.secret, row.id);
  const anotherAccount = row.user_id !== null && row.user_id !== input.userId;
  // A code not derived from its id under this key (made by an older server) cannot be re-sent.
  if (anotherAccount || hashCode(input.secret, row.id, code) !== row.code_hash) {
    fail(429, 'RATE_LIMITED', 'Too many codes requested for this address; try again later');
  }
  // A code of no account was never mailed.
  const mail =
    row.user_id === null || input.now.getTime() - row.sent_at.getTime() >= RESEND_INTERVAL_MS;
  await tx.query(
    `UPDATE one_time_codes SET user_id = coalesce(user_id, $2), sent_at = $3 WHERE id = $1`,
    [row.id, input.userId, mail ? input.now : row.sent_at],
  );
  return { id: row.id, code, mail };
}

export interface ConsumeCode {
  /** The code is looked up by its id (verification links) or as the newest for an address. */
  lookup: { id: string } | { email: string };
  purpose: CodePurpose;
  code: string;
  /** The client address of the guess. */
  client: string;
  now: Date;
  secret: string;
  /**
   * Runs in the transaction that marks a right code used, before it does; throwing leaves the
   * code unused (e.g. a new password refused for its role).
   */
  beforeUse?: (tx: Db, userId: string | null) => Promise<void>;
}

const SELECT_CODES = `SELECT id, user_id, code_hash, expires_at, used_at, client, own_failures,
  foreign_failures FROM one_time_codes`;

/** The codes a guess is compared with: the verification id's, or the newest of the address. */
async function candidates(db: Db, input: ConsumeCode, email: string, lock: boolean) {
  const forUpdate = lock ? ' FOR UPDATE' : '';
  const { rows } =
    'id' in input.lookup
      ? await db.query<CodeRow>(`${SELECT_CODES} WHERE id = $1 AND purpose = $2${forUpdate}`, [
          input.lookup.id,
          input.purpose,
        ])
      : await db.query<CodeRow>(
          `${SELECT_CODES} WHERE email = $1 AND purpose = $2 AND used_at IS NULL
           ORDER BY created_at DESC LIMIT ${MAX_LIVE_CODES}${forUpdate}`,
          [email, input.purpose],
        );
  return rows;
}

/** Whether `row` still takes wrong guesses from `client`'s side. */
function hasBudget(row: CodeRow, client: string): boolean {
  return row.client === client
    ? row.own_failures < GUESSES_PER_CODE
    : row.foreign_failures < GUESSES_PER_CODE;
}

/**
 * Checks a code and marks it used on success. A guess first takes an attempt under the
 * client's back-off, the server-wide cap and the address's limit for its side (whether this
 * client asked for one of the codes); a right code gives it back. A wrong guess spends one of
 * each compared code's budget for its side. A client past its free wrong guesses at the
 * address is held by the address's limit, and a code whose budget for its side is spent is not
 * compared for it; with no code to compare the guess is just wrong. Call it outside a
 * transaction, so a wrong guess stays counted.
 */
export async function consumeCode(db: Db, input: ConsumeCode): Promise<ConsumeResult> {
  const checks: LimitCheck[] = [
    { key: `code-client:${input.client}`, limit: LIMITS.codeGuessesPerClient },
    { key: 'code:*', limit: LIMITS.codeGuessesGlobal },
  ];
  // Refusals already decided cost no read: the client's back-off, then codes it cannot guess.
  refuseIfRemembered(db, checks, input.now);
  const group = groupOf(input.lookup, input.purpose);
  if (isSpent(db, group, input.client, input.now)) return { ok: false, reason: 'invalid' };
  const changes = spentOf(db).changes;
  const email = await emailOf(db, input);
  const rows = email === undefined ? [] : await candidates(db, input, email, false);
  const own = rows.some((row) => row.client === input.client);
  if (email !== undefined) {
    checks.push({
      key: `code:${email}:${input.client}`,
      limit: LIMITS.codeGuessesPerAddressClient,
    });
  }
  if (rows.length > 0) {
    checks.push(
      own
        ? { key: `code-own:${email}`, limit: LIMITS.codeOwnGuessesPerAddress }
        : { key: `code-foreign:${email}`, limit: LIMITS.codeForeignGuessesPerAddress },
    );
  }
  const attempt = await takeAttempt(db, checks, input.now);
  if (email === undefined || rows.length === 0) return { ok: false, reason: 'invalid' };
  try {
    let spent = false;
    const result = await db.transaction(async (tx): Promise<ConsumeResult> => {
      // Read again under lock: concurrent guesses cannot spend more than a code's budget.
      const all = await candidates(tx, input, email, true);
      const locked = attempt.held ? all.filter((row) => hasBudget(row, input.client)) : all;
      if (locked.length === 0) {
        spent = true;
        return { ok: false, reason: 'invalid' };
      }
      const actual = (row: CodeRow) =>
        Buffer.from(hashCode(input.secret, row.id, input.code), 'hex');
      // Every candidate is compared, so the time taken does not say which one matched.
      const matches = locked.map((row) =>
        timingSafeEqual(Buffer.from(row.code_hash, 'hex'), actual(row)),
      );
      const row = locked[matches.indexOf(true)];
      if (!row) {
        await tx.query(
          `UPDATE one_time_codes SET
             own_failures = own_failures + (client = $2)::int,
             foreign_failures = foreign_failures + (client <> $2)::int
           WHERE id = ANY($1::text[])`,
          [locked.map((candidate) => candidate.id), input.client],
        );
        return { ok: false, reason: 'invalid' };
      }
      if (row.used_at) return { ok: false, reason: 'used' };
      if (row.expires_at.getTime() <= input.now.getTime()) return { ok: false, reason: 'expired' };
      await input.beforeUse?.(tx, row.user_id);
      await tx.query('UPDATE one_time_codes SET used_at = $2 WHERE id = $1', [row.id, input.now]);
      return { ok: true, userId: row.user_id };
    });
    if (spent) rememberSpent(db, group, input.client, input.now, changes);
    // A used code lets an older one among the candidates.
    if (result.ok) {
      forgetSpent(db, group);
      await attempt.giveBack();
    }
    return result;
  } catch (error) {
    // A right code refused by `beforeUse` was no wrong guess.
    await attempt.giveBack();
    throw error;
  }
}

/**
 * How long a server remembers that no code of an address takes wrong guesses from a client
 * (each one's budget for the client's side is spent, and the client is past its free guesses),
 * so that the client's next guesses are answered without reading the codes or taking an
 * attempt: they cannot be right. Forgotten when this server
 * issues or uses a code of the address; one issued on another server is compared at most this
 * much later.
 * @internal Exported for tests.
 */
export const SPENT_MEMORY_MS = 10_000;
/** Addresses (or verification ids) remembered per database, and clients per address. */
const SPENT_GROUPS_KEPT = 10_000;
const SPENT_CLIENTS_KEPT = 100;

interface SpentCodes {
  /** By address and purpose (or verification id): the clients, and until when. */
  groups: Map<string, Map<string, number>>;
  /** Codes issued or used on this server so far: a guess that saw fewer remembers nothing. */
  changes: number;
}

const spentCodes = new WeakMap<Db, SpentCodes>();

function spentOf(db: Db): SpentCodes {
  const root = rootOf(db);
  let spent = spentCodes.get(root);
  if (!spent) spentCodes.set(root, (spent = { groups: new Map(), changes: 0 }));
  return spent;
}

function groupOf(lookup: ConsumeCode['lookup'], purpose: CodePurpose): string {
  return 'id' in lookup ? `${purpose}#${lookup.id}` : `${purpose}:${lookup.email.toLowerCase()}`;
}

function isSpent(db: Db, group: string, client: string, now: Date): boolean {
  const clients = spentCodes.get(rootOf(db))?.groups.get(group);
  const until = clients?.get(client);
  if (until === undefined) return false;
  if (now.getTime() < until) return true;
  clients!.delete(client);
  return false;
}

/**
 * Remembers that `client` has no code of `group` to guess, unless a code was issued or used
 * since the guess began (`changes` then). Bounded by dropping the oldest (Map keeps insertion
 * order).
 */
function rememberSpent(db: Db, group: string, client: string, now: Date, changes: number): void {
  const spent = spentOf(db);
  if (spent.changes !== changes) return;
  const { groups } = spent;
  let clients = groups.get(group);
  if (!clients) {
    for (const oldest of groups.keys()) {
      if (groups.size < SPENT_GROUPS_KEPT) break;
      groups.delete(oldest);
    }
    groups.set(group, (clients = new Map<string, number>()));
  }
  for (const oldest of clients.keys()) {
    if (clients.size < SPENT_CLIENTS_KEPT) break;
    clients.delete(oldest);
  }
  clients.delete(client);
  clients.set(client, now.getTime() + SPENT_MEMORY_MS);
}

function forgetSpent(db: Db, group: string): void {
  const spent = spentOf(db);
  spent.changes += 1;
  spent.groups.delete(group);
}

/** The address a check is for: given, or the one its verification id was sent to. */
async function emailOf(db: Db, input: ConsumeCode): Promise<string | undefined> {
  if ('email' in input.lookup) return input.lookup.email.toLowerCase();
  const { rows } = await db.query<{ email: string }>(
    'SELECT email FROM one_time_codes WHERE id = $1 AND purpose = $2',
    [input.lookup.id, input.purpose],
  );
  return rows[0]?.email;
}

const FAILURE_MESSAGES: Record<CodeFailure, string> = {
  invalid: 'Invalid code',
  expired: 'Code expired; request a new one',
  used: 'Code already used; request a new one',
};

/** The address code `id` was mailed to (a code consumed in this transaction still has one). */
export async function addressOfCode(db: Db, id: string): Promise<string> {
  const { rows } = await db.query<{ email: string }>(
    'SELECT email FROM one_time_codes WHERE id = $1',
    [id],
  );
  return rows[0]!.email;
}

/** Answers a failed code check with 400 INVALID_CODE. */
export function failCode(reason: CodeFailure): never {
  fail(400, 'INVALID_CODE', FAILURE_MESSAGES[reason]);
}

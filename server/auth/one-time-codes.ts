/**
 * Six-digit one-time codes for passwordless login, e-mail verification and password reset.
 * A code is single use and expires after CODE_TTL_MS. A new code does not cancel the ones
 * already sent, so nobody can break an owner's sign-in by asking for codes: the newest
 * MAX_LIVE_CODES of an address and purpose are accepted. Issuing is limited per address, and
 * wrong guesses per address per day (LIMITS.codeGuessesPerAddress), across purposes.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db';
import { fail } from '../http/errors';
import { newId } from '../ids';
import { LIMITS, takeAttempt } from './rate-limit';

export type CodePurpose = 'login' | 'verify' | 'reset';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_LIVE_CODES = 3;
export const RATE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_CODES_PER_WINDOW = 5;

interface CodeRow {
  id: string;
  user_id: string | null;
  code_hash: string;
  expires_at: Date;
  used_at: Date | null;
}

export type CodeFailure = 'invalid' | 'expired' | 'used';
export type ConsumeResult =
  { ok: true; userId: string | null } | { ok: false; reason: CodeFailure };

// Six digits are easy to brute-force offline, so the stored hash is keyed (config.keys.codeHashing).
function hashCode(secret: string, id: string, code: string): string {
  return createHmac('sha256', secret).update(`${id}:${code}`).digest('hex');
}

export interface IssueCode {
  email: string;
  /** Null for an address without an account: the code is recorded but never mailed. */
  userId: string | null;
  purpose: CodePurpose;
  now: Date;
  secret: string;
}

/** Creates a code (429 RATE_LIMITED past the per-address limit) and returns it with its id. */
export function issueCode(db: Db, input: IssueCode): Promise<{ id: string; code: string }> {
  const email = input.email.toLowerCase();
  return db.transaction(async (tx) => {
    // Serializes issuing per address and purpose so concurrent requests cannot beat the limit.
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`otc:${input.purpose}:${email}`]);
    const since = new Date(input.now.getTime() - RATE_WINDOW_MS);
    const { rows } = await tx.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM one_time_codes
       WHERE email = $1 AND purpose = $2 AND created_at > $3`,
      [email, input.purpose, since],
    );
    if ((rows[0]?.count ?? 0) >= MAX_CODES_PER_WINDOW) {
      fail(429, 'RATE_LIMITED', 'Too many codes requested for this address; try again later');
    }
    const id = newId();
    const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
    await tx.query(
      `INSERT INTO one_time_codes (id, email, user_id, purpose, code_hash, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        id,
        email,
        input.userId,
        input.purpose,
        hashCode(input.secret, id, code),
        new Date(input.now.getTime() + CODE_TTL_MS),
        input.now,
      ],
    );
    return { id, code };
  });
}

export interface ConsumeCode {
  /** The code is looked up by its id (verification links) or as the newest for an address. */
  lookup: { id: string } | { email: string };
  purpose: CodePurpose;
  code: string;
  now: Date;
  secret: string;
}

/**
 * Checks a code and marks it used on success. Each check takes an attempt under the address's
 * daily limit of wrong guesses first (429 TOO_MANY_ATTEMPTS once it is used up); a right code
 * gives it back. Call it outside a transaction, so a wrong guess stays counted.
 */
export async function consumeCode(db: Db, input: ConsumeCode): Promise<ConsumeResult> {
  const email = await emailOf(db, input);
  if (email === undefined) return { ok: false, reason: 'invalid' };
  const attempt = await takeAttempt(
    db,
    [{ key: `code:${email}`, limit: LIMITS.codeGuessesPerAddress }],
    input.now,
  );
  const result = await db.transaction(async (tx): Promise<ConsumeResult> => {
    const select = `SELECT id, user_id, code_hash, expires_at, used_at FROM one_time_codes`;
    const { rows } =
      'id' in input.lookup
        ? await tx.query<CodeRow>(`${select} WHERE id = $1 AND purpose = $2 FOR UPDATE`, [
            input.lookup.id,
            input.purpose,
          ])
        : await tx.query<CodeRow>(
            `${select} WHERE email = $1 AND purpose = $2 AND used_at IS NULL
             ORDER BY created_at DESC LIMIT ${MAX_LIVE_CODES} FOR UPDATE`,
            [email, input.purpose],
          );
    const actual = (row: CodeRow) => Buffer.from(hashCode(input.secret, row.id, input.code), 'hex');
    // Every candidate is compared, so the time taken does not say which one matched.
    const matches = rows.map((row) =>
      timingSafeEqual(Buffer.from(row.code_hash, 'hex'), actual(row)),
    );
    const row = rows[matches.indexOf(true)];
    if (!row) return { ok: false, reason: 'invalid' };
    if (row.used_at) return { ok: false, reason: 'used' };
    if (row.expires_at.getTime() <= input.now.getTime()) return { ok: false, reason: 'expired' };
    await tx.query('UPDATE one_time_codes SET used_at = $2 WHERE id = $1', [row.id, input.now]);
    return { ok: true, userId: row.user_id };
  });
  if (result.ok) await attempt.giveBack();
  return result;
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

/** Answers a failed code check with 400 INVALID_CODE. */
export function failCode(reason: CodeFailure): never {
  fail(400, 'INVALID_CODE', FAILURE_MESSAGES[reason]);
}

/**
 * Six-digit one-time codes for passwordless login, e-mail verification and password reset.
 * A code is single use, expires after CODE_TTL_MS, dies after MAX_ATTEMPTS wrong guesses and
 * is superseded by a newer code of the same purpose. Issuing is rate-limited per address.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db';
import { fail } from '../http/errors';
import { newId } from '../ids';

export type CodePurpose = 'login' | 'verify' | 'reset';

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_ATTEMPTS = 5;
export const RATE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_CODES_PER_WINDOW = 5;

interface CodeRow {
  id: string;
  user_id: string | null;
  code_hash: string;
  expires_at: Date;
  used_at: Date | null;
  attempts: number;
}

export type CodeFailure = 'invalid' | 'expired' | 'used' | 'exhausted';
export type ConsumeResult =
  { ok: true; userId: string | null } | { ok: false; reason: CodeFailure };

// Six digits are easy to brute-force offline, so the stored hash is keyed with the server secret.
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
    // Only the newest code of a purpose is valid.
    await tx.query(
      `UPDATE one_time_codes SET used_at = $3
       WHERE email = $1 AND purpose = $2 AND used_at IS NULL`,
      [email, input.purpose, input.now],
    );
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

/** Checks a code and marks it used on success; a wrong guess is counted against the code. */
export function consumeCode(db: Db, input: ConsumeCode): Promise<ConsumeResult> {
  return db.transaction(async (tx) => {
    const select = `SELECT id, user_id, code_hash, expires_at, used_at, attempts FROM one_time_codes`;
    const { rows } =
      'id' in input.lookup
        ? await tx.query<CodeRow>(`${select} WHERE id = $1 AND purpose = $2 FOR UPDATE`, [
            input.lookup.id,
            input.purpose,
          ])
        : await tx.query<CodeRow>(
            // Issuing supersedes older codes, so at most one live code exists per address.
            `${select} WHERE email = $1 AND purpose = $2 AND used_at IS NULL
             ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
            [input.lookup.email.toLowerCase(), input.purpose],
          );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'invalid' };
    if (row.used_at) return { ok: false, reason: 'used' };
    if (row.attempts >= MAX_ATTEMPTS) return { ok: false, reason: 'exhausted' };
    if (row.expires_at.getTime() <= input.now.getTime()) return { ok: false, reason: 'expired' };
    const expected = Buffer.from(row.code_hash, 'hex');
    const actual = Buffer.from(hashCode(input.secret, row.id, input.code), 'hex');
    if (!timingSafeEqual(expected, actual)) {
      await tx.query('UPDATE one_time_codes SET attempts = attempts + 1 WHERE id = $1', [row.id]);
      return { ok: false, reason: 'invalid' };
    }
    await tx.query('UPDATE one_time_codes SET used_at = $2 WHERE id = $1', [row.id, input.now]);
    return { ok: true, userId: row.user_id };
  });
}

const FAILURE_MESSAGES: Record<CodeFailure, string> = {
  invalid: 'Invalid code',
  expired: 'Code expired; request a new one',
  used: 'Code already used; request a new one',
  exhausted: 'Too many wrong attempts; request a new code',
};

/** Answers a failed code check with 400 INVALID_CODE (429 when the attempts are used up). */
export function failCode(reason: CodeFailure): never {
  if (reason === 'exhausted') fail(429, 'TOO_MANY_ATTEMPTS', FAILURE_MESSAGES.exhausted);
  fail(400, 'INVALID_CODE', FAILURE_MESSAGES[reason]);
}

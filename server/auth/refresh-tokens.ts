/**
 * Opaque rotating refresh tokens. Each login starts a family with one absolute expiry; every
 * refresh marks the presented token rotated and issues its successor in the same family. A
 * rotated token presented again means it was copied, so the whole family is revoked.
 *
 * One exception keeps a lost answer from ending a session: a page that reloads while its
 * refresh is in flight never stores the successor (guests refresh before every request, spec
 * §7), and presents the rotated token again. Within REFRESH_RETRY_MS of the rotation, while
 * the successor is still unused, that retry is answered with the same successor (named by an
 * HMAC of the presented token, so nothing secret is stored). Whoever holds a copy can do no
 * more than the owner: both hold one token, and the second to use it revokes the family.
 *
 * Rotating and revoking take the same per-user lock, so a logout or reset that runs while a
 * refresh is in flight waits for it and then revokes the successor it inserted too.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../db';
import { newId } from '../ids';

/** How long after a rotation the rotated token may retry for its unused successor. */
export const REFRESH_RETRY_MS = 10_000;

interface TokenRow {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
  replaced_by: string | null;
}

export type RefreshFailure = 'expired' | 'revoked' | 'not_found';
export type RotateResult =
  { ok: true; userId: string; refreshToken: string } | { ok: false; reason: RefreshFailure };

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The successor of `token`: the same for a retry, unguessable without the key. */
function successorOf(token: string, key: string): string {
  return createHmac('sha256', key).update(token).digest('base64url');
}

async function insertToken(
  db: Db,
  row: { userId: string; familyId: string; expiresAt: Date; now: Date; token?: string },
): Promise<{ id: string; token: string }> {
  const id = newId();
  const token = row.token ?? randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, row.userId, row.familyId, hashToken(token), row.expiresAt, row.now],
  );
  return { id, token };
}

/** Starts a new token family for a fresh login and returns its first token. */
export async function startRefreshFamily(
  db: Db,
  userId: string,
  now: Date,
  ttlSeconds: number,
): Promise<string> {
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  const { token } = await insertToken(db, { userId, familyId: newId(), expiresAt, now });
  return token;
}

/** Holds the user's session lock until the transaction ends. */
async function lockSessionsOf(tx: Db, userId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sessions:${userId}`]);
}

/** Exchanges a refresh token for its successor, atomically; detects reuse. */
export function rotateRefreshToken(
  db: Db,
  token: string,
  now: Date,
  successorKey: string,
): Promise<RotateResult> {
  return db.transaction(async (tx) => {
    const owner = await tx.query<{ user_id: string }>(
      'SELECT user_id FROM refresh_tokens WHERE token_hash = $1',
      [hashToken(token)],
    );
    if (!owner.rows[0]) return { ok: false, reason: 'not_found' };
    await lockSessionsOf(tx, owner.rows[0].user_id);
    // Read again under the lock: a concurrent refresh with the same token has rotated it by
    // now, so this one is treated as reuse.
    const { rows } = await tx.query<TokenRow>(
      `SELECT id, user_id, family_id, expires_at, rotated_at, revoked_at, replaced_by
       FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
      [hashToken(token)],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'not_found' };
    if (row.revoked_at) return { ok: false, reason: 'revoked' };
    if (row.rotated_at) {
      const successor = successorOf(token, successorKey);
      if (await isRetry(tx, row, successor, now)) {
        return { ok: true, userId: row.user_id, refreshToken: successor };
      }
      await revokeFamily(tx, row.family_id, now);
      return { ok: false, reason: 'revoked' };
    }
    if (row.expires_at.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    const next = await insertToken(tx, {
      userId: row.user_id,
      familyId: row.family_id,
      expiresAt: row.expires_at,
      now,
      token: successorOf(token, successorKey),
    });
    await tx.query('UPDATE refresh_tokens SET rotated_at = $2, replaced_by = $3 WHERE id = $1', [
      row.id,
      now,
      next.id,
    ]);
    return { ok: true, userId: row.user_id, refreshToken: next.token };
  });
}

/**
 * Whether presenting the rotated `row` again is a retry for a lost answer: soon after its
 * rotation, and its successor (`successor`) is still unused and unrevoked.
 */
async function isRetry(tx: Db, row: TokenRow, successor: string, now: Date): Promise<boolean> {
  if (!row.rotated_at || now.getTime() - row.rotated_at.getTime() > REFRESH_RETRY_MS) {
    return false;
  }
  const { rows } = await tx.query<{ id: string }>(
    `SELECT id FROM refresh_tokens
     WHERE id = $1 AND token_hash = $2 AND rotated_at IS NULL AND revoked_at IS NULL`,
    [row.replaced_by, hashToken(successor)],
  );
  return rows.length === 1;
}

async function revokeFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await db.query(
    'UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL',
    [familyId, now],
  );
}

/** Revokes the family of `token` (logout); false when the token was never issued. */
export function revokeFamilyOf(db: Db, token: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ family_id: string; user_id: string }>(
      'SELECT family_id, user_id FROM refresh_tokens WHERE token_hash = $1',
      [hashToken(token)],
    );
    const row = rows[0];
    if (!row) return false;
    await lockSessionsOf(tx, row.user_id);
    await revokeFamily(tx, row.family_id, now);
    return true;
  });
}

/** Revokes every session of a user (password reset, account upgrade, address proven). */
export function revokeAllForUser(db: Db, userId: string, now: Date): Promise<void> {
  return db.transaction(async (tx) => {
    await lockSessionsOf(tx, userId);
    await tx.query(
      'UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL',
      [userId, now],
    );
  });
}

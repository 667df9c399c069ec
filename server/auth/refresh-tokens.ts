/**
 * Opaque rotating refresh tokens. Each login starts a family with one absolute expiry: a
 * session (migration 010), whose id every access token of the family names (`sid`). Every
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
 * refresh is in flight waits for it and then revokes the successor it inserted too. Revoking
 * marks the session revoked as well, which notifies every server (migration 010), so the
 * family's access tokens stop working at once too.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Db, SqlParam } from '../db';
import { newId } from '../ids';
import { announceSessionChange } from './session-check';

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
  | { ok: true; userId: string; sessionId: string; refreshToken: string }
  | { ok: false; reason: RefreshFailure };

/** Where a sign-in came from, kept with its session for the owner's list. */
export interface SessionOrigin {
  clientAddress: string | null;
  userAgent: string | null;
}

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

/** Starts a new token family (a session) for a fresh login; returns its id and first token. */
export function startRefreshFamily(
  db: Db,
  session: { userId: string; now: Date; ttlSeconds: number; origin?: SessionOrigin },
): Promise<{ sessionId: string; refreshToken: string }> {
  const { userId, now, origin } = session;
  const expiresAt = new Date(now.getTime() + session.ttlSeconds * 1000);
  const sessionId = newId();
  return db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO sessions
         (id, user_id, started_at, last_used_at, expires_at, client_address, user_agent)
       VALUES ($1, $2, $3, $3, $4, $5, $6)`,
      [sessionId, userId, now, expiresAt, origin?.clientAddress ?? null, origin?.userAgent ?? null],
    );
    const { token } = await insertToken(tx, { userId, familyId: sessionId, expiresAt, now });
    return { sessionId, refreshToken: token };
  });
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
        return {
          ok: true,
          userId: row.user_id,
          sessionId: row.family_id,
          refreshToken: successor,
        };
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
    await tx.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1', [row.family_id, now]);
    return { ok: true, userId: row.user_id, sessionId: row.family_id, refreshToken: next.token };
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

/** Revokes the families `where` picks (a condition on `user_id`, `id` of sessions, from $2). */
async function revokeSessions(
  db: Db,
  now: Date,
  where: string,
  params: readonly SqlParam[],
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE sessions SET revoked_at = $1
     WHERE revoked_at IS NULL AND expires_at > $1 AND ${where} RETURNING id`,
    [now, ...params],
  );
  await db.query(
    `UPDATE refresh_tokens SET revoked_at = $1
     WHERE revoked_at IS NULL AND family_id IN (SELECT id FROM sessions WHERE ${where})`,
    [now, ...params],
  );
  for (const { id } of rows) announceSessionChange(db, `s:${id}`);
  return rows.length;
}

async function revokeFamily(db: Db, familyId: string, now: Date): Promise<void> {
  await revokeSessions(db, now, 'id = $2', [familyId]);
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
export async function revokeAllForUser(db: Db, userId: string, now: Date): Promise<void> {
  await revokeSessionsOf(db, userId, now);
}

/**
 * Revokes sessions of `userId` (the sessions API): the one named `only`, or all but `except`,
 * or all; returns how many were live.
 */
export function revokeSessionsOf(
  db: Db,
  userId: string,
  now: Date,
  pick: { only?: string; except?: string } = {},
): Promise<number> {
  return db.transaction(async (tx) => {
    await lockSessionsOf(tx, userId);
    if (pick.only !== undefined) {
      return revokeSessions(tx, now, 'user_id = $2 AND id = $3', [userId, pick.only]);
    }
    if (pick.except !== undefined) {
      return revokeSessions(tx, now, 'user_id = $2 AND id <> $3', [userId, pick.except]);
    }
    return revokeSessions(tx, now, 'user_id = $2', [userId]);
  });
}

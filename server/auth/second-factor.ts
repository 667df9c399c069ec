/**
 * The second factor of a sign-in (docs/api.md "Two-step sign-in"): a TOTP authenticator
 * (RFC 6238: SHA-1, 6 digits, 30 s steps, one step of clock skew either way) with 10 single-use
 * recovery codes. A sign-in of an account with an enabled authenticator answers a challenge
 * instead of a session (startSession in session.ts is the one place that decides); the session
 * comes from the second call with a code.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { SecondFactorChallenge } from '../../contract/account-schemas';
import type { Db } from '../db';
import type { Deps } from '../deps';
import { fail } from '../http/errors';
import { newId } from '../ids';
import type { UserRow } from '../users';
import type { AccessClaims } from './access-token';
import { lockLiveCaller } from './live-caller';
import { LIMITS, takeAttempt, type LimitCheck } from './rate-limit';
import { answerSecondStepWithPasskey, hasPasskey, secondStepOptions } from './passkeys';
import { announceSessionChange } from './session-check';

const ISSUER = 'Avatar Studio';
const STEP_S = 30;
const DIGITS = 6;
/** Steps of clock skew accepted either way (a phone's clock a little off). */
const SKEW_STEPS = 1;
const CHALLENGE_TTL_MS = 5 * 60_000;
/** Wrong codes one challenge takes; then the sign-in starts again (with the password). */
export const CHALLENGE_MAX_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 10;

function totpOf(secret: Secret, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, secret, digits: DIGITS, period: STEP_S });
}

// Secrets at rest: AES-256-GCM, `iv.tag.ciphertext` in base64url, the user id as associated
// data (a row copied onto another account does not decrypt).
function encryptSecret(key: string, userId: string, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), iv);
  cipher.setAAD(Buffer.from(userId));
  const body = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

function decryptSecret(key: string, userId: string, stored: string): Secret {
  const [iv, tag, body] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('Malformed TOTP secret');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key, 'base64url'), iv);
  decipher.setAAD(Buffer.from(userId));
  decipher.setAuthTag(tag);
  const base32 = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  return Secret.fromBase32(base32);
}

interface TotpRow {
  totp_secret: string;
  enabled_at: Date | null;
  last_step: string | null;
}

async function totpRowOf(db: Db, userId: string): Promise<TotpRow | undefined> {
  const { rows } = await db.query<TotpRow>(
    'SELECT totp_secret, enabled_at, last_step::text FROM user_totp WHERE user_id = $1',
    [userId],
  );
  return rows[0];
}

/** Whether `userId` has an authenticator app turned on. */
export async function hasAuthenticator(db: Db, userId: string): Promise<boolean> {
  return (await totpRowOf(db, userId))?.enabled_at != null;
}

/** Whether `userId` signs in with a second factor: an authenticator app, or a passkey. */
export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  return (await hasAuthenticator(db, userId)) || hasPasskey(db, userId);
}

/** The state the account page shows. */
export async function secondFactorStatus(deps: Deps, user: UserRow) {
  const row = await totpRowOf(deps.db, user.id);
  const { rows } = await deps.db.query<{ left: number }>(
    'SELECT count(*)::int AS left FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [user.id],
  );
  const enabled = row?.enabled_at != null;
  return {
    enabled,
    enabledAt: row?.enabled_at?.toISOString() ?? null,
    recoveryCodesLeft: enabled ? (rows[0]?.left ?? 0) : 0,
    required: deps.config.requireAdminSecondFactor && user.role === 'admin',
  };
}

/**
 * Starts (or starts again) an enrolment of the signed-in `caller`: a new secret, kept encrypted
 * and not yet enabled. Answers the secret for manual entry and the otpauth:// address the QR
 * code shows.
 */
export async function startEnrolment(deps: Deps, user: UserRow, caller: AccessClaims) {
  if (await hasAuthenticator(deps.db, user.id)) {
    fail(409, 'SECOND_FACTOR_ENABLED', 'Two-step sign-in is on already: turn it off first');
  }
  const secret = new Secret({ size: 20 });
  const stored = encryptSecret(deps.config.keys.secondFactorSecrets, user.id, secret.base32);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await lockLiveCaller(tx, caller, now);
    await tx.query(
      `INSERT INTO user_totp (user_id, totp_secret, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE
         SET totp_secret = EXCLUDED.totp_secret, created_at = EXCLUDED.created_at, last_step = NULL
         WHERE user_totp.enabled_at IS NULL`,
      [user.id, stored, now],
    );
  });
  return { secret: secret.base32, uri: totpOf(secret, user.email ?? user.id).toString() };
}

/**
 * The limits a guess at `userId`'s authenticator is taken under. At sign-in, from `client`: the
 * client's back-off and the server-wide ceiling, as for e-mailed codes, and the account's limit,
 * which holds only a client past its own free wrong codes at the account, so strangers who know
 * the password cannot spend the owner's (rate-limit.ts `holdsAfter`). Without a client, the
 * account's limit alone, which then holds every guess.
 */
function totpChecks(userId: string, client: string | undefined): LimitCheck[] {
  const account = { key: `second-factor:${userId}`, limit: LIMITS.totpGuessesPerAccount };
  if (client === undefined) return [account];
  return [
    account,
    { key: `second-factor:${userId}:${client}`, limit: LIMITS.codeGuessesPerAddressClient },
    { key: `code-client:${client}`, limit: LIMITS.codeGuessesPerClient },
    { key: 'code:*', limit: LIMITS.codeGuessesGlobal },
  ];
}

/**
 * Checks an authenticator code of `userId` and spends its time step: a code of a step at or
 * before the last accepted one is refused, and of two concurrent requests with one code only
 * one passes (the step moves in one conditional UPDATE). `pending` checks the secret of an
 * enrolment not yet confirmed. Wrong codes count against the limits of `totpChecks`; a right
 * one gives its attempt back.
 */
async function spendTotpCode(
  deps: Deps,
  userId: string,
  code: string,
  pending = false,
  client?: string,
): Promise<boolean> {
  const now = deps.now();
  const attempt = await takeAttempt(deps.db, totpChecks(userId, client), now);
  const row = await totpRowOf(deps.db, userId);
  if (!row || (row.enabled_at === null) !== pending) return false;
  const secret = decryptSecret(deps.config.keys.secondFactorSecrets, userId, row.totp_secret);
  const totp = totpOf(secret);
  const timestamp = now.getTime();
  const delta = totp.validate({ token: code, timestamp, window: SKEW_STEPS });
  if (delta === null) return false;
  const step = totp.counter({ timestamp }) + delta;
  const { rows } = await deps.db.query(
    `UPDATE user_totp SET last_step = $2
     WHERE user_id = $1 AND (last_step IS NULL OR last_step < $2) RETURNING user_id`,
    [userId, step],
  );
  if (rows.length === 0) return false;
  await attempt.giveBack();
  return true;
}

function hashRecoveryCode(deps: Deps, code: string): string {
  const normalized = code.toLowerCase().replace(/[^a-z0-9]/g, '');
  return createHmac('sha256', deps.config.keys.recoveryCodeHashing)
    .update(normalized)
    .digest('base64url');
}

/** 10 characters of a-z and 2-7 (50 random bits), shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const chars = [...randomBytes(10)].map((byte) => alphabet[byte & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

async function spendRecoveryCode(deps: Deps, userId: string, code: string): Promise<boolean> {
  const { rows } = await deps.db.query(
    `UPDATE recovery_codes SET used_at = $3
     WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id`,
    [userId, hashRecoveryCode(deps, code), deps.now()],
  );
  return rows.length > 0;
}

const isTotpCode = (code: string) => /^\d{6}$/.test(code);

/**
 * Checks an authenticator code or a recovery code of an enabled factor, spending it; `client`
 * is the address of a sign-in's second step (`totpChecks`).
 */
export function spendSecondFactor(
  deps: Deps,
  userId: string,
  code: string,
  client?: string,
): Promise<boolean> {
  return isTotpCode(code)
    ? spendTotpCode(deps, userId, code, false, client)
    : spendRecoveryCode(deps, userId, code);
}

/**
 * Confirms an enrolment of the signed-in `caller` with a first code: the factor is on from now,
 * and the answer holds its 10 recovery codes, the only time they are shown (only their HMACs are
 * kept). A session that ended meanwhile (a password reset) turns nothing on.
 */
export async function confirmEnrolment(
  deps: Deps,
  user: UserRow,
  code: string,
  caller: AccessClaims,
) {
  if (await hasAuthenticator(deps.db, user.id)) {
    fail(409, 'SECOND_FACTOR_ENABLED', 'Two-step sign-in is on already');
  }
  if (!(await totpRowOf(deps.db, user.id))) {
    fail(409, 'NO_ENROLMENT', 'Start setting up two-step sign-in first');
  }
  if (!isTotpCode(code) || !(await spendTotpCode(deps, user.id, code, true))) {
    fail(400, 'INVALID_CODE', 'code: This is not the code your authenticator shows now');
  }
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    await lockLiveCaller(tx, caller, deps.now());
    const { rows } = await tx.query(
      'UPDATE user_totp SET enabled_at = $2 WHERE user_id = $1 AND enabled_at IS NULL RETURNING user_id',
      [user.id, deps.now()],
    );
    if (rows.length === 0) fail(409, 'SECOND_FACTOR_ENABLED', 'Two-step sign-in is on already');
    // The sessions' cached states say whether the account has a factor (migration 050).
    announceSessionChange(tx, `u:${user.id}`);
    await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [user.id]);
    await tx.query(
      `INSERT INTO recovery_codes (user_id, code_hash)
       SELECT $1, code_hash FROM unnest($2::text[]) AS code_hash`,
      [user.id, codes.map((code) => hashRecoveryCode(deps, code))],
    );
  });
  return { recoveryCodes: codes };
}

/**
 * A new set of 10 recovery codes for the enabled factor of the signed-in `caller`, shown this
 * once; the old ones stop working. A session that ended meanwhile renews nothing; the factor's
 * row is locked next: a removal at the same time waits (and then removes the new codes too), and
 * of two renewals the later one's codes are the ones kept.
 */
export async function renewRecoveryCodes(deps: Deps, caller: AccessClaims) {
  const { userId } = caller;
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await deps.db.transaction(async (tx) => {
    await lockLiveCaller(tx, caller, deps.now());
    const { rows } = await tx.query(
      'SELECT user_id FROM user_totp WHERE user_id = $1 AND enabled_at IS NOT NULL FOR UPDATE',
      [userId],
    );
    if (rows.length === 0) noSecondFactor();
    await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    await tx.query(
      `INSERT INTO recovery_codes (user_id, code_hash)
       SELECT $1, code_hash FROM unnest($2::text[]) AS code_hash`,
      [userId, codes.map((code) => hashRecoveryCode(deps, code))],
    );
  });
  return { recoveryCodes: codes };
}

/** Answers 409 NO_SECOND_FACTOR: what needs an enabled factor, for an account without one. */
export function noSecondFactor(): never {
  fail(409, 'NO_SECOND_FACTOR', 'Two-step sign-in is off for this account');
}

/**
 * Removes the authenticator of `userId` and its recovery codes, and with `passkeys` (an
 * administrator's reset) the passkeys too; false when there was none of them.
 */
export async function removeSecondFactor(
  db: Db,
  userId: string,
  { passkeys = false } = {},
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ enabled_at: Date | null }>(
      'DELETE FROM user_totp WHERE user_id = $1 RETURNING enabled_at',
      [userId],
    );
    const { rows: keys } = passkeys
      ? await tx.query('DELETE FROM passkeys WHERE user_id = $1 RETURNING id', [userId])
      : { rows: [] };
    const removed = rows[0]?.enabled_at != null || keys.length > 0;
    // Tokens whose rules rested on the factor end at their next request (migration 050).
    if (removed) announceSessionChange(tx, `u:${userId}`);
    await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM second_factor_challenges WHERE user_id = $1', [userId]);
    return removed;
  });
}

/**
 * Turns one's own factor off: with the account's password, or (for one that signs in by codes,
 * or at will) a current authenticator or recovery code.
 */
export async function checkSecondFactorCode(
  deps: Deps,
  user: UserRow,
  code: string,
): Promise<void> {
  if (!(await spendSecondFactor(deps, user.id, code))) {
    fail(403, 'WRONG_CODE', 'code: This is not a current code of your authenticator');
  }
}

const CHALLENGE_TYPE = 'second-factor';
const keyBytes = (deps: Deps) => new TextEncoder().encode(deps.config.keys.secondFactorChallenge);

/** Opens a pending sign-in of `user`: a signed, single-use challenge, valid 5 minutes. */
export async function openChallenge(deps: Deps, user: UserRow): Promise<SecondFactorChallenge> {
  const now = deps.now();
  const id = newId();
  const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
  // The user's finished challenges go as a new one comes: their count stays small.
  await deps.db.query(
    'DELETE FROM second_factor_challenges WHERE user_id = $1 AND expires_at <= $2',
    [user.id, now],
  );
  await deps.db.query(
    `INSERT INTO second_factor_challenges (id, user_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4)`,
    [id, user.id, now, expiresAt],
  );
  const challenge = await new SignJWT({ typ: CHALLENGE_TYPE })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setJti(id)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keyBytes(deps));
  const passkey = await secondStepOptions(deps, user.id, id);
  const authenticator = await hasAuthenticator(deps.db, user.id);
  return {
    secondFactor: authenticator ? 'totp' : 'passkey',
    challenge,
    expiresAt: expiresAt.toISOString(),
    ...(passkey ? { passkey } : {}),
  };
}

function challengeExpired(): never {
  fail(
    401,
    'CHALLENGE_EXPIRED',
    'This sign-in has expired or had too many wrong codes: sign in again',
  );
}

/**
 * The second step, from `client`: checks `answer` (an authenticator's or a recovery code, or a
 * passkey's response) against the challenge's account and answers its user id once it is right.
 * Each call takes one of the challenge's 5 tries before the answer is looked at (atomically, so
 * a parallel burst gets 5 in all); the first right answer spends it.
 */
export async function answerChallenge(
  deps: Deps,
  challenge: string,
  answer: { code: string } | { passkey: Record<string, unknown> },
  client: string,
): Promise<string> {
  const now = deps.now();
  let id: string;
  try {
    const { payload } = await jwtVerify(challenge, keyBytes(deps), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['sub', 'jti', 'exp'],
    });
    if (payload.typ !== CHALLENGE_TYPE || !payload.jti) challengeExpired();
    id = payload.jti;
  } catch {
    challengeExpired();
  }
  const { rows } = await deps.db.query<{ user_id: string }>(
    `UPDATE second_factor_challenges SET attempts = attempts + 1
     WHERE id = $1 AND used_at IS NULL AND expires_at > $2 AND attempts < $3
     RETURNING user_id`,
    [id, now, CHALLENGE_MAX_ATTEMPTS],
  );
  const userId = rows[0]?.user_id;
  if (userId === undefined) challengeExpired();
  if ('passkey' in answer) {
    await answerSecondStepWithPasskey(deps, userId, id, answer.passkey);
  } else if (!(await spendSecondFactor(deps, userId, answer.code, client))) {
    fail(401, 'INVALID_SECOND_FACTOR', 'code: Wrong or used code');
  }
  const spent = await deps.db.query(
    `UPDATE second_factor_challenges SET used_at = $2
     WHERE id = $1 AND used_at IS NULL RETURNING id`,
    [id, now],
  );
  if (spent.rows.length === 0) challengeExpired();
  return userId;
}

/**
 * User records: reads, writes and the wire shape (`userSchema`) the client stores as its session.
 */
import type { Role, User } from '../contract/schemas';
import type { Db } from './db';
import { newId } from './ids';

export interface UserRow {
  id: string;
  email: string | null;
  password_hash: string | null;
  /** When the current password was set. */
  password_set_at: Date | null;
  role: Role;
  verified_at: Date | null;
  password_updated: boolean;
  /** Set while an administrator has disabled the account: no sign-in, no session works. */
  disabled_at: Date | null;
  assets: string[];
  wallets: string[];
  created_at: Date;
}

const COLUMNS =
  'id, email, password_hash, password_set_at, role, verified_at, password_updated, disabled_at, assets, wallets, created_at';

/** The user as the API shows it. */
export function toWireUser(row: UserRow): User {
  return {
    _id: row.id,
    email: row.email,
    verifiedAt: row.verified_at?.toISOString() ?? null,
    role: row.role,
    assets: row.assets,
    wallets: row.wallets,
    settings: {
      isPasswordUpdated: row.password_updated,
      isEmailVerified: row.verified_at !== null,
    },
  };
}

/**
 * Row locks of users are FOR NO KEY UPDATE: they serialize changes of the row, but not the
 * foreign-key reads of rows that name the user. A refresh inserts its token (such a read) while
 * it holds the user's session lock, which a change that locked the user may wait for next:
 * FOR UPDATE would deadlock the two.
 */
const ROW_LOCK = ' FOR NO KEY UPDATE';

/** Finds a user by id; `forUpdate` locks the row (ROW_LOCK) until the transaction ends. */
export async function findUserById(
  db: Db,
  id: string,
  forUpdate = false,
): Promise<UserRow | undefined> {
  const lock = forUpdate ? ROW_LOCK : '';
  const { rows } = await db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1${lock}`, [
    id,
  ]);
  return rows[0];
}

/**
 * Finds a user by e-mail, ignoring case; `forUpdate` locks the row (ROW_LOCK) until the
 * transaction ends (an address moved away meanwhile is no longer found).
 */
export async function findUserByEmail(
  db: Db,
  email: string,
  forUpdate = false,
): Promise<UserRow | undefined> {
  const lock = forUpdate ? ROW_LOCK : '';
  const { rows } = await db.query<UserRow>(
    `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)${lock}`,
    [email],
  );
  return rows[0];
}

export interface NewUser {
  email: string | null;
  passwordHash: string | null;
  role: Role;
  verifiedAt?: Date | null;
  now: Date;
}

/** Inserts a user; a taken e-mail raises the database's unique violation. */
export async function createUser(db: Db, user: NewUser): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users (id, email, password_hash, password_set_at, role, verified_at, created_at)
     VALUES ($1, $2, $3, CASE WHEN $3::text IS NULL THEN NULL ELSE $6::timestamptz END, $4, $5, $6)
     RETURNING ${COLUMNS}`,
    [
      newId(),
      user.email?.toLowerCase() ?? null,
      user.passwordHash,
      user.role,
      user.verifiedAt ?? null,
      user.now,
    ],
  );
  return rows[0]!;
}

/** Turns an anonymous user into a registered one, keeping its id, assets and wallets. */
export async function upgradeAnonymousUser(
  db: Db,
  id: string,
  email: string,
  passwordHash: string,
  now: Date,
): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `UPDATE users SET email = $2, password_hash = $3, password_set_at = $4, role = 'user'
     WHERE id = $1 AND role = 'anonymous' RETURNING ${COLUMNS}`,
    [id, email.toLowerCase(), passwordHash, now],
  );
  return rows[0];
}

/** Marks the user's e-mail verified (first verification time wins). */
export async function markVerified(db: Db, id: string, now: Date): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `UPDATE users SET verified_at = COALESCE(verified_at, $2) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, now],
  );
  return rows[0]!;
}

/** Moves the user to address `email`, verified at `now`; false when the user is gone. */
export async function setEmail(db: Db, id: string, email: string, now: Date): Promise<boolean> {
  const { rows } = await db.query(
    'UPDATE users SET email = $2, verified_at = $3 WHERE id = $1 RETURNING id',
    [id, email, now],
  );
  return rows.length > 0;
}

/** Deletes the user's row: what refers to it cascades or loses the reference (migrations). */
export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM users WHERE id = $1', [id]);
}

/** Replaces the password hash and records that the password was changed. */
export async function setPassword(
  db: Db,
  id: string,
  passwordHash: string,
  now: Date,
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `UPDATE users SET password_hash = $2, password_set_at = $3, password_updated = true
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, passwordHash, now],
  );
  return rows[0]!;
}

/**
 * An accepted invitation's changes to the account its address already has (the link proves
 * the mailbox, as a reset code does): the invitee's password replaces any other, the address
 * counts as verified, and the role becomes `role`. Keeps id, assets and wallets.
 */
export async function takeInvitation(
  db: Db,
  id: string,
  change: { passwordHash: string; role: Role; now: Date },
): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `UPDATE users SET password_hash = $2, password_set_at = $3, password_updated = true,
       verified_at = COALESCE(verified_at, $3), role = $4
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, change.passwordHash, change.now, change.role],
  );
  return rows[0]!;
}

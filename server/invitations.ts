/**
 * Invitations (migration 017): an administrator invites an address with a role; the mailed
 * link holds a random token (only its SHA-256 is stored) that sets the invitee's password once,
 * within INVITATION_TTL_MS, and only while its sender may still invite. Routes:
 * server/routes/invitations.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { invitedRoleSchema, type Invitation, type InvitedRole } from '../contract/account-schemas';
import { currentAuthority } from './auth/current-authority';
import type { Db } from './db';
import type { Deps } from './deps';
import { newId } from './ids';
import {
  anyOfFilter,
  parseListQuery,
  runList,
  searchFilter,
  type ListQuery,
  type ListResult,
  type ListSpec,
} from './list';
import { queueMail } from './mail-outbox';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

interface InvitationRow {
  id: string;
  email: string;
  role: InvitedRole;
  invited_by: string | null;
  created_at: Date;
  sent_at: Date;
  expires_at: Date;
}

const COLUMNS = 'id, email, role, invited_by, created_at, sent_at, expires_at';
/** Neither accepted nor revoked (expired ones are pending too: a resend renews them). */
const PENDING = 'accepted_at IS NULL AND revoked_at IS NULL';

/** A token is random enough that a plain hash keeps it from whoever reads the table. */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toInvitation(row: InvitationRow, now: Date): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invited_by,
    createdAt: row.created_at.toISOString(),
    sentAt: row.sent_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    status: row.expires_at.getTime() > now.getTime() ? 'pending' : 'expired',
  };
}

/**
 * The pending invitations (newest first), optionally only those for `emails` (any case): what
 * the users screen shows as "invited" (docs/roles.md, docs/api.md "Invitations"). One
 * whose sender may no longer invite says so: its link is dead until another admin resends it.
 *
 * @internal The tests read it; GET /private/v1/invitations pages them (listInvitations).
 */
export async function listPendingInvitations(
  deps: Deps,
  db: Db,
  now: Date,
  emails?: readonly string[],
): Promise<Invitation[]> {
  const { rows } =
    emails === undefined
      ? await db.query<InvitationRow>(
          `SELECT ${COLUMNS} FROM invitations WHERE ${PENDING} ORDER BY created_at DESC, id`,
        )
      : await db.query<InvitationRow>(
          `SELECT ${COLUMNS} FROM invitations WHERE ${PENDING}
           AND lower(email) = ANY($1::text[]) ORDER BY created_at DESC, id`,
          [emails.map((email) => email.toLowerCase())],
        );
  return withStatus(deps, db, rows, now);
}

/** The invitations of `rows` with their status at `now`, their senders' authority included. */
async function withStatus(
  deps: Deps,
  db: Db,
  rows: readonly InvitationRow[],
  now: Date,
): Promise<Invitation[]> {
  // One look-up per sender, not per invitation: the senders are a few administrators.
  const senders = [...new Set(rows.map((row) => row.invited_by))];
  const allowed = new Map(
    await Promise.all(senders.map(async (id) => [id, await mayInvite(deps, db, id)] as const)),
  );
  return rows.map((row) => {
    const invitation = toInvitation(row, now);
    return allowed.get(row.invited_by)
      ? invitation
      : { ...invitation, status: 'senderCannotInvite' };
  });
}

/**
 * The pending invitations as a list (GET /private/v1/invitations): paged, searched by address,
 * filtered by role, latest sent first. Migration 041 indexes each order over the pending rows.
 */
const invitationListSpec: ListSpec<InvitationRow> = {
  from: 'invitations i',
  columns: COLUMNS.split(', ')
    .map((column) => `i.${column}`)
    .join(', '),
  orders: {
    email: 'i.email',
    // Within a role, latest sent first or last: one index serves the sort and the role filter.
    role: ['i.role', 'i.sent_at'],
    sentAt: 'i.sent_at',
    expiresAt: 'i.expires_at',
  },
  defaultOrder: '-sentAt',
  idColumn: 'i.id',
  filters: {
    search: searchFilter('i.email'),
    role: anyOfFilter('i.role', invitedRoleSchema.options),
  },
  toRow: (row: InvitationRow) => row,
};

/** The pending invitations' list query of a request (page, limit, order, search, role). */
export const parseInvitationListQuery = (query: Record<string, string[]>): ListQuery =>
  parseListQuery(invitationListSpec, query);

/** One page of the pending invitations, with their status at `now`. */
export async function listInvitations(
  deps: Deps,
  db: Db,
  query: ListQuery,
  now: Date,
): Promise<ListResult<Invitation>> {
  const page = await runList(db, invitationListSpec, query, () => [
    'i.accepted_at IS NULL',
    'i.revoked_at IS NULL',
  ]);
  return { ...page, data: await withStatus(deps, db, page.data, now) };
}

/**
 * Holds the lock of invitations to `email` (any case) until the transaction ends: inviting and
 * accepting an address take it, so two of them never both find it free.
 */
export async function lockInvitationAddress(tx: Db, email: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`invite:${email.toLowerCase()}`]);
}

/** Inserts a pending invitation; a pending one for the address raises the unique violation. */
export async function createInvitation(
  db: Db,
  input: { email: string; role: InvitedRole; invitedBy: string; now: Date },
): Promise<{ invitation: Invitation; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const { rows } = await db.query<InvitationRow>(
    `INSERT INTO invitations (id, email, role, token_hash, invited_by, created_at, sent_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6, $7) RETURNING ${COLUMNS}`,
    [
      newId(),
      input.email.toLowerCase(),
      input.role,
      hashInvitationToken(token),
      input.invitedBy,
      input.now,
      new Date(input.now.getTime() + INVITATION_TTL_MS),
    ],
  );
  return { invitation: toInvitation(rows[0]!, input.now), token };
}

/**
 * Gives a pending invitation a new token and a new week (the old link stops working); the
 * administrator who sends it again (`invitedBy`) is its sender from now on.
 */
export async function renewInvitation(
  db: Db,
  id: string,
  invitedBy: string,
  now: Date,
): Promise<{ invitation: Invitation; token: string } | undefined> {
  const token = randomBytes(32).toString('base64url');
  const { rows } = await db.query<InvitationRow>(
    `UPDATE invitations SET token_hash = $2, sent_at = $3, expires_at = $4, invited_by = $5
     WHERE id = $1 AND ${PENDING} RETURNING ${COLUMNS}`,
    [id, hashInvitationToken(token), now, new Date(now.getTime() + INVITATION_TTL_MS), invitedBy],
  );
  const row = rows[0];
  return row && { invitation: toInvitation(row, now), token };
}

/** Revokes a pending invitation; answers its address, undefined when there is none with `id`. */
export async function revokeInvitation(db: Db, id: string, now: Date): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string }>(
    `UPDATE invitations SET revoked_at = $2 WHERE id = $1 AND ${PENDING} RETURNING email`,
    [id, now],
  );
  return rows[0]?.email;
}

/**
 * Whether the user `id` may invite now, as POST /private/v1/invitations asks of its caller: an
 * account that is not disabled and whose token would allow `manage User` (the token's rules:
 * an admin who must have a second factor and has none has a guest's). An invitation grants its
 * role with its sender's authority, so it is honoured only while they have it.
 */
async function mayInvite(deps: Deps, db: Db, id: string | null): Promise<boolean> {
  const authority = await currentAuthority(deps, db, id);
  return 'ability' in authority && authority.ability.can('manage', 'User');
}

/**
 * The pending, unexpired invitation whose link holds `token`, while its sender may still
 * invite; `forUpdate` locks it until the transaction ends (so two accepts of one link cannot
 * both create an account). A caller that must see no concurrent demotion of the sender holds
 * the administrators' lock (user-admin.ts lockAdmins) first.
 */
export async function findUsableInvitation(
  deps: Deps,
  db: Db,
  token: string,
  now: Date,
  forUpdate = false,
): Promise<Invitation | undefined> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations
     WHERE token_hash = $1 AND ${PENDING} AND expires_at > $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [hashInvitationToken(token), now],
  );
  const row = rows[0];
  return row && (await mayInvite(deps, db, row.invited_by)) ? toInvitation(row, now) : undefined;
}

/** Marks an invitation accepted by the account it created or was accepted into. */
export async function markInvitationAccepted(
  db: Db,
  id: string,
  userId: string,
  now: Date,
): Promise<void> {
  await db.query('UPDATE invitations SET accepted_at = $2, accepted_user_id = $3 WHERE id = $1', [
    id,
    now,
    userId,
  ]);
}

const ROLE_NAMES: Record<InvitedRole, string> = {
  admin: 'an administrator',
  developer: 'a developer',
  user: 'a user',
};

/** Queues the invitation mail with its link (to the app's /invitation page). */
export async function mailInvitation(
  deps: Pick<Deps, 'db' | 'now' | 'config'>,
  invitation: Invitation,
  token: string,
): Promise<void> {
  const link = `${deps.config.publicUrl}/invitation?token=${token}`;
  const role = ROLE_NAMES[invitation.role];
  await queueMail(deps, {
    to: invitation.email,
    kind: 'invitation',
    link,
    subject: 'You are invited to Avatar Studio',
    text:
      `You are invited to Avatar Studio as ${role}. Choose a password to sign in:\n${link}\n` +
      `The link works once, until ${invitation.expiresAt} (UTC).\n` +
      'If you did not expect this invitation, ignore this mail.',
  });
}

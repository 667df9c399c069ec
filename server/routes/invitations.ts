/**
 * Invitations (docs/api.md "Invitations"). /private/v1/invitations: an administrator
 * (`manage User`) invites an address with a role, lists the pending invitations, resends and
 * revokes them. /v1/invitations: the invitee's link is looked up and accepted (a password is
 * set, the address counts as verified and the answer signs them in with the invited role), while
 * its sender may still invite. An address that signed up meanwhile keeps its account, which
 * takes the invitation: whoever holds the link holds the mailbox, so a stranger who signed the
 * address up first loses the password and sessions they had on it.
 */
import { Hono, type Context } from 'hono';
import {
  invitationAcceptBodySchema,
  invitationBodySchema,
  invitationLookupBodySchema,
  type InvitedRole,
} from '../../contract/account-schemas';
import type { Role } from '../../contract/schemas';
import { takeMailAttempt } from '../auth/code-mail';
import type { AuthEnv } from '../auth/middleware';
import { hashPassword } from '../auth/password';
import { requireAcceptablePassword } from '../auth/password-policy';
import { LIMITS, takeAttempt } from '../auth/rate-limit';
import { refuseDisabled, startSession } from '../auth/session';
import { PG_UNIQUE_VIOLATION, isDbError, type Db } from '../db';
import type { Deps } from '../deps';
import { clientAddress } from '../http/client-address';
import { declaredRoutes } from '../http/declared';
import { recordInvitationEvent, recordUserEvent } from '../events';
import { fail } from '../http/errors';
import { keepAnswer } from '../http/idempotency';
import {
  createInvitation,
  findUsableInvitation,
  listInvitations,
  mailInvitation,
  parseInvitationListQuery,
  markInvitationAccepted,
  renewInvitation,
  revokeInvitation,
  lockInvitationAddress,
} from '../invitations';
import { revokeAllForUser } from '../auth/refresh-tokens';
import { lockAdmins } from '../user-admin';
import { createUser, findUserByEmail, takeInvitation, type UserRow } from '../users';

function accountExists(): never {
  fail(409, 'ACCOUNT_EXISTS', 'An account with this e-mail address already exists');
}

function noInvitation(id: string): never {
  fail(404, 'NOT_FOUND', `No pending invitation with id ${id}`);
}

/**
 * Routes mounted at /private/v1/invitations (behind the PrivateApi check), each from its
 * declaration (contract/routes.ts): `manage User`.
 */
export function adminInvitationRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const mount = '/private/v1/invitations';
  const on = declaredRoutes(app, deps, mount);

  on('get', mount, undefined, async (c) =>
    c.json(await listInvitations(deps, db, parseInvitationListQuery(c.req.queries()), deps.now())),
  );

  /** What the signed-in admin did to an invitation, recorded in the change's transaction. */
  const recordAdminEvent = (
    tx: Db,
    c: Context<AuthEnv>,
    invitation: Omit<Parameters<typeof recordInvitationEvent>[1], 'actorId'>,
  ) => recordInvitationEvent(tx, { ...invitation, actorId: c.get('auth').userId });

  on('post', mount, invitationBodySchema, async (c, { email, role }) => {
    const now = deps.now();
    await takeMailAttempt(deps, clientAddress(c, deps.config));
    const { invitation } = await db
      .transaction(async (tx) => {
        // Serializes with sign-ups and accepts of this address (they insert the user).
        await lockInvitationAddress(tx, email);
        if (await findUserByEmail(tx, email)) accountExists();
        const created = await createInvitation(tx, {
          email,
          role,
          invitedBy: c.get('auth').userId,
          now,
        });
        const { id, role: invitedRole } = created.invitation;
        await recordAdminEvent(tx, c, {
          invitationId: id,
          event: 'invited',
          data: { email: created.invitation.email, role: invitedRole },
          at: now,
        });
        // Queued with the invitation and its kept answer: a retry that gets that answer finds
        // the mail queued too.
        await mailInvitation({ ...deps, db: tx }, created.invitation, created.token);
        await keepAnswer(tx, c, c.json({ data: created.invitation }, 201));
        return created;
      })
      .catch((error: unknown) => {
        if (isDbError(error, PG_UNIQUE_VIOLATION)) {
          fail(409, 'ALREADY_INVITED', 'This address has a pending invitation: resend it instead');
        }
        throw error;
      });
    return c.json({ data: invitation }, 201);
  });

  // A new link and a new week; the old link stops working.
  on('post', `${mount}/{id}/resend`, undefined, async (c) => {
    const id = c.req.param('id')!;
    await takeMailAttempt(deps, clientAddress(c, deps.config));
    const now = deps.now();
    const renewed = await db.transaction(async (tx) => {
      const done = await renewInvitation(tx, id, c.get('auth').userId, now);
      if (!done) noInvitation(id);
      const { email } = done.invitation;
      await recordAdminEvent(tx, c, {
        invitationId: id,
        event: 'invitationResent',
        data: { email },
        at: now,
      });
      // Queued with the renewal and its kept answer: a retry after a lost acknowledgement gets
      // that answer, and neither renews again (the mailed link stays the live one) nor mails.
      await mailInvitation({ ...deps, db: tx }, done.invitation, done.token);
      await keepAnswer(tx, c, c.json({ data: done.invitation }));
      return done;
    });
    return c.json({ data: renewed.invitation });
  });

  on('delete', `${mount}/{id}`, undefined, async (c) => {
    const id = c.req.param('id')!;
    const now = deps.now();
    await db.transaction(async (tx) => {
      const email = (await revokeInvitation(tx, id, now)) ?? noInvitation(id);
      await recordAdminEvent(tx, c, {
        invitationId: id,
        event: 'invitationRevoked',
        data: { email },
        at: now,
      });
    });
    return c.json({ data: { revoked: true } });
  });

  return app;
}

const INVALID_LINK = 'This invitation link is not valid: it was used, revoked or has expired';

/** Roles by power: an invitation accepted into an account never lowers its role. */
const RANK: Record<Role, number> = { anonymous: 0, user: 1, developer: 2, admin: 3 };

/**
 * A token guess takes an attempt from the client's budget of wrong codes (the same back-off as
 * one-time codes); a right token gives it back. Tokens are 256 random bits, so the limit only
 * keeps strangers from hammering the route.
 */
async function takeTokenAttempt(deps: Deps, c: Context) {
  const client = clientAddress(c, deps.config);
  return takeAttempt(
    deps.db,
    [{ key: `code-client:${client}`, limit: LIMITS.codeGuessesPerClient }],
    deps.now(),
  );
}

/**
 * Routes mounted at /v1/invitations, each from its declaration: the invitee's side, without a
 * session.
 */
export function invitationRoutes(deps: Deps) {
  const { db } = deps;
  const app = new Hono<AuthEnv>();
  const on = declaredRoutes(app, deps, '/v1/invitations');

  // What the accept page shows (the address and role) before a password is chosen.
  on('post', '/v1/invitations/lookup', invitationLookupBodySchema, async (c, { token }) => {
    const attempt = await takeTokenAttempt(deps, c);
    const invitation = await findUsableInvitation(deps, db, token, deps.now());
    if (!invitation) fail(404, 'INVALID_INVITATION', INVALID_LINK);
    await attempt.giveBack();
    const { email, role, expiresAt } = invitation;
    return c.json({ data: { email, role, expiresAt } });
  });

  on('post', '/v1/invitations/accept', invitationAcceptBodySchema, async (c, body) => {
    const { token, password } = body;
    const now = deps.now();
    const attempt = await takeTokenAttempt(deps, c);
    const found = await findUsableInvitation(deps, db, token, now);
    if (!found) fail(404, 'INVALID_INVITATION', INVALID_LINK);
    await attempt.giveBack();
    requireAcceptablePassword(password, found.email);
    const passwordHash = await hashPassword(password, clientAddress(c, deps.config));
    /**
     * The account the address has (a sign-up, passwordless or with a password, or a guest's):
     * it takes the invitation, and whatever a stranger who signed the address up may have
     * started on it ends (every session; their password is replaced). An administrator's
     * choices stay: a disabled account stays disabled, a higher role given since is kept.
     */
    const acceptInto = async (tx: Db, account: UserRow, invited: InvitedRole) => {
      refuseDisabled(account);
      const role = RANK[account.role] > RANK[invited] ? account.role : invited;
      await revokeAllForUser(tx, account.id, now);
      return takeInvitation(tx, account.id, { passwordHash, role, now });
    };
    const accepted = () =>
      db.transaction(async (tx) => {
        // The sender's authority is read under the lock that demoting, disabling or deleting
        // an admin takes: one that commits first is seen, a later one waits for this.
        await lockAdmins(tx);
        await lockInvitationAddress(tx, found.email);
        // Read again under lock: a concurrent accept of the same link, a revoke or a resend.
        const invitation = await findUsableInvitation(deps, tx, token, now, true);
        if (!invitation) fail(404, 'INVALID_INVITATION', INVALID_LINK);
        const existing = await findUserByEmail(tx, invitation.email, true);
        // The link reached the mailbox: the address is verified by accepting it.
        const user = existing
          ? await acceptInto(tx, existing, invitation.role)
          : await createUser(tx, {
              email: invitation.email,
              passwordHash,
              role: invitation.role,
              verifiedAt: now,
              now,
            });
        await markInvitationAccepted(tx, invitation.id, user.id, now);
        // The invitee's own event.
        await recordUserEvent(tx, {
          userId: user.id,
          event: 'invitationAccepted',
          actorId: user.id,
          data: { invitationId: invitation.id, email: invitation.email, role: invitation.role },
          at: now,
        });
        return user;
      });
    // A sign-up of the address that commits while the account is being created: accepted into
    // that account on the second try.
    const user = await accepted().catch((error: unknown) => {
      if (isDbError(error, PG_UNIQUE_VIOLATION)) return accepted();
      throw error;
    });
    return c.json({ data: await startSession(deps, db, user, c) });
  });

  return app;
}

/**
 * Invitations (server/routes/invitations.ts): an admin invites an address with a role, the
 * mailed link sets a password once within 7 days and signs the invitee in with that role.
 */
import { describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import {
  invitationLookupResultSchema,
  invitationSchema,
  secondFactorChallengeSchema,
  totpEnrolmentSchema,
  type Invitation,
} from '../contract/account-schemas';
import { activityRowSchema, authResultSchema, listResponseSchema } from '../contract/schemas';
import { hashPassword } from './auth/password';
import type { Deps } from './deps';
import { hashInvitationToken, listPendingInvitations } from './invitations';
import {
  dataOf,
  expectError,
  uniqueEmail,
  useRoleTokens,
  useTestApp,
  whileRefreshing,
} from './test-app';
import { createUser } from './users';

const t = useTestApp();
const tokens = useRoleTokens(t);
const PASSWORD = 'a long invited password';
const DAY_MS = 24 * 60 * 60 * 1000;
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;

const invite = (body: unknown, token = tokens.admin) =>
  t.post('/private/v1/invitations', body, token);

async function invited(role = 'developer', email = uniqueEmail('invitee'), by = tokens.admin) {
  const response = await invite({ email, role }, by);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const invitation = invitationSchema.parse((response.body as { data: unknown }).data);
  return { invitation, token: await linkToken(email) };
}

/** The token of the newest invitation link mailed to `email`. */
async function linkToken(email: string): Promise<string> {
  const mail = await t.lastMail(email, 'invitation');
  const link = new URL(mail.link ?? '');
  expect(`${link.origin}${link.pathname}`).toBe(`${t.config.publicUrl}/invitation`);
  return link.searchParams.get('token') ?? '';
}

const accept = (token: string, password = PASSWORD) =>
  t.post('/v1/invitations/accept', { token, password });
const invitationList = listResponseSchema(invitationSchema);
/** A page of the invitations list, as GET /private/v1/invitations?<query> answers it. */
async function listPage(query: string) {
  const response = await t.get(`/private/v1/invitations?${query}`, tokens.admin);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return invitationList.parse(response.body);
}
/** Every pending invitation (they fit one page of the largest size here). */
const pendingList = async () => {
  const { data, pagination } = await listPage('limit=100');
  expect(pagination.hasNextPage).toBe(false);
  return data;
};

describe('inviting', () => {
  it('mails a link that signs the invitee in with the role, verified, once', async () => {
    const { invitation, token } = await invited('developer');
    expect(invitation).toMatchObject({ role: 'developer', status: 'pending' });
    expect(new Date(invitation.expiresAt).getTime() - t.clock.current.getTime()).toBe(7 * DAY_MS);
    const lookup = invitationLookupResultSchema.parse(
      dataOf(await t.post('/v1/invitations/lookup', { token })),
    );
    expect(lookup).toMatchObject({ email: invitation.email, role: 'developer' });

    const session = authResultSchema.parse(dataOf(await accept(token)));
    expect(session).toMatchObject({ email: invitation.email, role: 'developer' });
    expect(session.verifiedAt).not.toBeNull();
    // The password works, the role's screens open, and the link is spent.
    const login = await t.login(invitation.email, PASSWORD);
    expect(login.role).toBe('developer');
    expect((await t.get('/private/v1/cage-meshes', login.token)).status).not.toBe(403);
    expectError(await accept(token), 404, 'INVALID_INVITATION');
    expect((await pendingList()).map((row) => row.id)).not.toContain(invitation.id);
  });

  it('stores only a hash of the token', async () => {
    const { invitation, token } = await invited('user');
    const { rows } = await t.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM invitations WHERE id = $1',
      [invitation.id],
    );
    expect(rows[0]?.token_hash).toBe(hashInvitationToken(token));
    expect(rows[0]?.token_hash).not.toContain(token);
  });

  it('refuses an address that has an account, and a second pending invitation', async () => {
    const existing = await t.signUp();
    const refused = expectError(
      await invite({ email: existing.email?.toUpperCase(), role: 'user' }),
      409,
      'ACCOUNT_EXISTS',
    );
    expect(refused.message).toBe('An account with this e-mail address already exists');
    const { invitation } = await invited('user');
    expectError(await invite({ email: invitation.email, role: 'admin' }), 409, 'ALREADY_INVITED');
  });

  it('applies the password rule', async () => {
    const { token } = await invited('admin');
    const refused = expectError(await accept(token, 'eleven char'), 400, 'VALIDATION_ERROR');
    expect(refused.message).toBe('password: must be at least 12 characters');
    // The refused attempt did not spend the link.
    expect(authResultSchema.parse(dataOf(await accept(token))).role).toBe('admin');
  });

  it('lets one of two parallel accepts of a link through', async () => {
    const { token } = await invited('user');
    const answers = await Promise.all([accept(token), accept(token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
  });

  it('is for admins only; guests, users and developers get 403 and learn nothing', async () => {
    for (const token of [tokens.developer, tokens.user, tokens.anonymous]) {
      expectError(await invite({ email: uniqueEmail(), role: 'user' }, token), 403);
      expectError(await t.get('/private/v1/invitations', token), 403);
    }
    expectError(await invite({ email: uniqueEmail(), role: 'user' }, ''), 401);
    expectError(await invite({ email: uniqueEmail(), role: 'anonymous' }), 400);
    expectError(await invite({ email: 'not an address', role: 'user' }), 400);
  });
});

describe('an invitation outlives no authority of its sender', () => {
  const PASSWORD_123 = 'password-123';
  const demote = (id: string) =>
    t.patch(`/private/v1/users/${id}`, { role: 'developer' }, tokens.admin);

  it('is honoured only while its sender is an active admin: not once demoted or disabled', async () => {
    const sender = await t.loginAs('admin');
    const email = uniqueEmail('invitee');
    const { token } = await invited('admin', email, sender.token);
    dataOf(await demote(sender._id));
    expectError(await t.post('/v1/invitations/lookup', { token }), 404, 'INVALID_INVITATION');
    expectError(await accept(token), 404, 'INVALID_INVITATION');
    const { rows } = await t.db.query('SELECT 1 FROM users WHERE lower(email) = $1', [email]);
    expect(rows).toEqual([]);

    // Made an admin again, their invitation works again; disabled, it does not.
    dataOf(await t.patch(`/private/v1/users/${sender._id}`, { role: 'admin' }, tokens.admin));
    dataOf(await t.post(`/private/v1/users/${sender._id}/disable`, {}, tokens.admin));
    expectError(await accept(token), 404, 'INVALID_INVITATION');
    dataOf(await t.post(`/private/v1/users/${sender._id}/enable`, {}, tokens.admin));
    expect(authResultSchema.parse(dataOf(await accept(token))).role).toBe('admin');
  });

  it('is not honoured once its sender deleted their account', async () => {
    const sender = await t.loginAs('admin');
    const { token } = await invited('admin', uniqueEmail('invitee'), sender.token);
    const deleted = await t.request('DELETE', '/v1/users/me', {
      body: { password: PASSWORD_123 },
      token: sender.token,
    });
    expect(deleted.status).toBe(200);
    expectError(await accept(token), 404, 'INVALID_INVITATION');
  });

  it('is listed as dead while its sender may not invite: demoted, disabled or deleted', async () => {
    const statusOf = async (id: string) =>
      (await pendingList()).find((row: Invitation) => row.id === id)?.status;
    const sender = await t.loginAs('admin');
    const { invitation } = await invited('developer', uniqueEmail('invitee'), sender.token);
    expect(await statusOf(invitation.id)).toBe('pending');
    dataOf(await demote(sender._id));
    expect(await statusOf(invitation.id)).toBe('senderCannotInvite');
    dataOf(await t.patch(`/private/v1/users/${sender._id}`, { role: 'admin' }, tokens.admin));
    expect(await statusOf(invitation.id)).toBe('pending');
    dataOf(await t.post(`/private/v1/users/${sender._id}/disable`, {}, tokens.admin));
    expect(await statusOf(invitation.id)).toBe('senderCannotInvite');
    dataOf(await t.post(`/private/v1/users/${sender._id}/enable`, {}, tokens.admin));

    const leaving = await t.loginAs('admin');
    const left = await invited('user', uniqueEmail('invitee'), leaving.token);
    const deleted = await t.request('DELETE', '/v1/users/me', {
      body: { password: 'password-123' },
      token: leaving.token,
    });
    expect(deleted.status).toBe(200);
    expect(await statusOf(left.invitation.id)).toBe('senderCannotInvite');
    // Another admin's resend makes it theirs: pending again.
    dataOf(await t.post(`/private/v1/invitations/${left.invitation.id}/resend`, {}, tokens.admin));
    expect(await statusOf(left.invitation.id)).toBe('pending');
  });

  it('another admin resending it makes it theirs, with a link that works', async () => {
    const sender = await t.loginAs('admin');
    const { invitation, token } = await invited('developer', uniqueEmail('invitee'), sender.token);
    dataOf(await demote(sender._id));
    const resent = invitationSchema.parse(
      dataOf(await t.post(`/private/v1/invitations/${invitation.id}/resend`, {}, tokens.admin)),
    );
    const adminId = (dataOf(await t.get('/v1/users/me', tokens.admin)) as { _id: string })._id;
    expect(resent.invitedBy).toBe(adminId);
    const fresh = await linkToken(invitation.email);
    expect(fresh).not.toBe(token);
    expect(authResultSchema.parse(dataOf(await accept(fresh))).role).toBe('developer');
  });
});

describe('an address that signed up before accepting', () => {
  it('a stranger’s password sign-up: the invitee gets the account and the role, the stranger nothing', async () => {
    const { invitation, token } = await invited('admin');
    const strangersPassword = 'the strangers password';
    const stranger = await t.signUp(invitation.email, strangersPassword);

    const session = authResultSchema.parse(dataOf(await accept(token)));
    expect(session).toMatchObject({ _id: stranger._id, email: invitation.email, role: 'admin' });
    expect(session.verifiedAt).not.toBeNull();
    // The invitee holds the back office; the stranger's sessions and password are gone.
    expect((await t.get('/private/v1/invitations', session.token)).status).toBe(200);
    expectError(await t.get('/v1/users/me', stranger.token), 401);
    expectError(await t.post('/v1/auth/refresh', { refreshToken: stranger.refreshToken }), 401);
    expectError(
      await t.post('/v1/auth/login', { email: invitation.email, password: strangersPassword }),
      401,
    );
    expect((await t.login(invitation.email, PASSWORD)).role).toBe('admin');
    expectError(await accept(token), 404, 'INVALID_INVITATION');
  });

  it('a passwordless sign-up: accepting sets the password and gives the role', async () => {
    const { invitation, token } = await invited('developer');
    dataOf(await t.post('/v1/auth/signup/passwordless', { email: invitation.email }));
    const session = authResultSchema.parse(dataOf(await accept(token)));
    expect(session).toMatchObject({ email: invitation.email, role: 'developer' });
    expect((await t.login(invitation.email, PASSWORD)).role).toBe('developer');
  });

  it('a guest who signed up with the address keeps their id and assets', async () => {
    const { invitation, token } = await invited('developer');
    const guest = await t.signUpAnonymous();
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM assets ORDER BY id LIMIT 2');
    const assetIds = rows.map((row) => row.id);
    dataOf(await t.post(`/private/v1/user-assets/${guest._id}`, { assetIds }, tokens.admin));
    dataOf(
      await t.post(
        '/v1/auth/signup',
        { email: invitation.email, password: 'password-123' },
        guest.token,
      ),
    );
    const session = authResultSchema.parse(dataOf(await accept(token)));
    expect(session).toMatchObject({ _id: guest._id, role: 'developer' });
    expect([...session.assets].sort()).toEqual([...assetIds].sort());
  });

  it('keeps a higher role given since', async () => {
    const { invitation, token } = await invited('user');
    const account = await t.signUp(invitation.email);
    dataOf(await t.patch(`/private/v1/users/${account._id}`, { role: 'admin' }, tokens.admin));
    expect(authResultSchema.parse(dataOf(await accept(token))).role).toBe('admin');
  });

  it('the owner’s two-step sign-in still asks for its code', async () => {
    const { invitation, token } = await invited('developer');
    const now = t.clock.current;
    const passwordHash = await hashPassword('password-123');
    await createUser(t.db, {
      email: invitation.email,
      passwordHash,
      role: 'user',
      verifiedAt: now,
      now,
    });
    const owner = await t.login(invitation.email, 'password-123');
    const { secret } = totpEnrolmentSchema.parse(
      dataOf(
        await t.post('/v1/users/me/second-factor/totp', { password: 'password-123' }, owner.token),
      ),
    );
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({
      timestamp: now.getTime(),
    });
    dataOf(await t.post('/v1/users/me/second-factor/totp/confirm', { code }, owner.token));
    const answer = dataOf(await accept(token));
    expect(answer).not.toHaveProperty('token');
    secondFactorChallengeSchema.parse(answer);
    const { rows } = await t.db.query<{ role: string }>('SELECT role FROM users WHERE id = $1', [
      owner._id,
    ]);
    expect(rows[0]?.role).toBe('developer');
  });

  it('a disabled account stays disabled, and the link unused', async () => {
    const { invitation, token } = await invited('developer');
    const account = await t.signUp(invitation.email);
    dataOf(await t.post(`/private/v1/users/${account._id}/disable`, {}, tokens.admin));
    expectError(await accept(token), 403, 'ACCOUNT_DISABLED');
    const { rows } = await t.db.query<{ role: string; password_hash: string }>(
      'SELECT role, password_hash FROM users WHERE id = $1',
      [account._id],
    );
    expect(rows[0]?.role).toBe('user');
    dataOf(await t.post(`/private/v1/users/${account._id}/enable`, {}, tokens.admin));
    expect(authResultSchema.parse(dataOf(await accept(token))).role).toBe('developer');
  });
});

describe('an accept while the account refreshes', () => {
  it.runIf(onPostgres)('is accepted into the account, without a deadlock', async () => {
    const { invitation, token } = await invited('developer');
    const account = await t.signUp(invitation.email);
    const answer = await whileRefreshing(t, account._id, () => accept(token));
    expect(authResultSchema.parse(dataOf(answer))).toMatchObject({
      _id: account._id,
      role: 'developer',
    });
  });
});

describe('revoke', () => {
  it('a revoked invitation’s link fails, and it leaves the list', async () => {
    const { invitation, token } = await invited('developer');
    const revoke = () =>
      t.request('DELETE', `/private/v1/invitations/${invitation.id}`, { token: tokens.admin });
    expect(dataOf(await revoke())).toEqual({ revoked: true });
    expectError(await revoke(), 404, 'NOT_FOUND');
    expectError(await t.post('/v1/invitations/lookup', { token }), 404, 'INVALID_INVITATION');
    expectError(await accept(token), 404, 'INVALID_INVITATION');
    expect((await pendingList()).map((row: Invitation) => row.id)).not.toContain(invitation.id);
    // The address may be invited again.
    await invited('user', invitation.email);
  });

  it('reads the invited addresses for the users screen', async () => {
    const { invitation } = await invited('user');
    const other = uniqueEmail();
    const rows = await listPendingInvitations({ config: t.config } as Deps, t.db, t.clock.current, [
      invitation.email.toUpperCase(),
      other,
    ]);
    expect(rows.map((row) => row.email)).toEqual([invitation.email]);
  });
});

describe('the activity log', () => {
  const activity = async (query: string, token = tokens.admin) => {
    const response = await t.get(`/v1/activity?limit=100&${query}`, token);
    return listResponseSchema(activityRowSchema).parse(response.body).data;
  };

  it('records sent, sent again and revoked on the invitation, accepted on the new user', async () => {
    const { invitation } = await invited('developer');
    const adminId = (dataOf(await t.get('/v1/users/me', tokens.admin)) as { _id: string })._id;
    let rows = await activity(`recordId=${invitation.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      routingKey: 'user.invited.v1',
      actorId: adminId,
      data: { email: invitation.email, role: 'developer' },
      subject: { kind: 'invitation', id: invitation.id, name: invitation.email, state: 'live' },
    });
    dataOf(await t.post(`/private/v1/invitations/${invitation.id}/resend`, {}, tokens.admin));
    dataOf(
      await t.request('DELETE', `/private/v1/invitations/${invitation.id}`, {
        token: tokens.admin,
      }),
    );
    rows = await activity(`recordId=${invitation.id}`);
    expect(rows.map((row) => row.routingKey)).toEqual([
      'user.invitation-revoked.v1',
      'user.invitation-resent.v1',
      'user.invited.v1',
    ]);
    // No longer pending: every row says so, and still names the address.
    for (const row of rows) {
      expect(row.subject).toMatchObject({ name: invitation.email, state: 'gone' });
    }
    // A refused revoke (already revoked) records nothing.
    expectError(
      await t.request('DELETE', `/private/v1/invitations/${invitation.id}`, {
        token: tokens.admin,
      }),
      404,
    );
    expect(await activity(`recordId=${invitation.id}`)).toHaveLength(3);

    const again = await invited('user');
    const session = authResultSchema.parse(dataOf(await accept(again.token)));
    const [accepted] = await activity(`recordId=${session._id}`);
    expect(accepted).toMatchObject({
      routingKey: 'user.invitation-accepted.v1',
      actorId: session._id,
      data: { invitationId: again.invitation.id, email: again.invitation.email, role: 'user' },
      subject: { kind: 'user', id: session._id, state: 'live' },
    });
  });

  it('forgets the addresses of an account deleted by its owner: the events stay, nameless', async () => {
    const { invitation, token } = await invited('user');
    const session = authResultSchema.parse(dataOf(await accept(token)));
    const { rows: before } = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM asset_events WHERE invitation_id = $1 OR user_id = $2',
      [invitation.id, session._id],
    );
    const deleted = await t.request('DELETE', '/v1/users/me', {
      body: { password: PASSWORD },
      token: session.token,
    });
    expect(deleted.status).toBe(200);
    const rows = [
      ...(await activity(`recordId=${invitation.id}`)),
      ...(await activity(`recordId=${session._id}`)),
    ];
    expect(rows.map((row) => row.routingKey).sort()).toEqual([
      'user.deleted.v1',
      'user.invitation-accepted.v1',
      'user.invited.v1',
    ]);
    expect(rows).toHaveLength(before[0]!.count + 1);
    expect(JSON.stringify(rows)).not.toContain(invitation.email);
    for (const row of rows) expect(row.subject).toMatchObject({ name: null, state: 'gone' });
    const { rows: kept } = await t.db.query(
      'SELECT 1 FROM invitations WHERE lower(email) = lower($1)',
      [invitation.email],
    );
    expect(kept).toEqual([]);
  });

  it('is for admins only: a developer reads the log without the invitations', async () => {
    const { invitation } = await invited('user');
    expect(await activity(`recordId=${invitation.id}`, tokens.developer)).toEqual([]);
    expect(await activity('kind=invitation', tokens.developer)).toEqual([]);
    expect((await activity('kind=invitation')).length).toBeGreaterThan(0);
  });
});

describe('the list', () => {
  const MARK = 'paged.example';
  const ROLES = ['user', 'developer', 'admin'] as const;
  /** 25 pending invitations to @paged.example, one sent a minute before the other, and 3 not. */
  async function fill() {
    const { invitation } = await invited('user', `sender-check@${MARK}`);
    const sender = invitation.invitedBy;
    const at = (minutes: number) => new Date(t.clock.current.getTime() - minutes * 60_000);
    for (let n = 1; n <= 28; n++) {
      const sent = n === 25 ? at(8 * 24 * 60) : at(n);
      await t.db.query(
        `INSERT INTO invitations (id, email, role, token_hash, invited_by, created_at, sent_at,
           expires_at, accepted_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9)`,
        [
          `paged-${n}`,
          `guest${String(n).padStart(2, '0')}@${MARK}`,
          ROLES[n % 3]!,
          `hash-${n}`,
          sender,
          sent,
          new Date(sent.getTime() + 7 * DAY_MS),
          n === 26 ? sent : null,
          n >= 27 ? sent : null,
        ],
      );
    }
    await t.db.query('DELETE FROM invitations WHERE id = $1', [invitation.id]);
  }
  const emails = (rows: readonly Invitation[]) => rows.map((row) => row.email.split('@')[0]);
  const guests = (numbers: number[]) => numbers.map((n) => `guest${String(n).padStart(2, '0')}`);
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('pages the pending ones, latest sent first, with their total', async () => {
    await fill();
    const first = await listPage(`search=${MARK}&limit=10`);
    expect(first.pagination).toMatchObject({
      page: 1,
      limit: 10,
      totalDocs: 25,
      totalPages: 3,
      hasNextPage: true,
    });
    expect(emails(first.data)).toEqual(guests(range(1, 10)));
    const last = await listPage(`search=${MARK}&limit=10&page=3`);
    expect(emails(last.data)).toEqual(guests(range(21, 25)));
    expect(last.pagination.hasNextPage).toBe(false);
    // Guest 25 was sent 8 days ago: its link has expired.
    expect(last.data.at(-1)).toMatchObject({ status: 'expired' });
    expect(last.data[0]).toMatchObject({ status: 'pending' });
  });

  it('sorts by address, role and expiry, either way', async () => {
    const all = range(1, 25);
    const byEmail = await listPage(`search=${MARK}&limit=100&order=email`);
    expect(emails(byEmail.data)).toEqual(guests(all));
    const byEmailDown = await listPage(`search=${MARK}&limit=5&order=-email`);
    expect(emails(byEmailDown.data)).toEqual(guests([25, 24, 23, 22, 21]));
    const byExpiry = await listPage(`search=${MARK}&limit=3&order=expiresAt`);
    expect(emails(byExpiry.data)).toEqual(guests([25, 24, 23]));
    // By role (admin, developer, user), each latest sent last.
    const byRole = await listPage(`search=${MARK}&limit=100&order=role`);
    const inRole = (rest: number) => all.filter((n) => n % 3 === rest).reverse();
    expect(emails(byRole.data)).toEqual(guests([...inRole(2), ...inRole(1), ...inRole(0)]));
  });

  it('filters by role and searches the address', async () => {
    const admins = await listPage(`search=${MARK}&role=admin&limit=100`);
    expect(emails(admins.data)).toEqual(guests(range(1, 25).filter((n) => n % 3 === 2)));
    expect(admins.pagination.totalDocs).toBe(8);
    const two = await listPage(`search=${MARK}&role=admin&role=user&limit=100`);
    expect(two.pagination.totalDocs).toBe(16);
    const one = await listPage(`search=guest1&limit=100`);
    expect(emails(one.data)).toEqual(guests(range(10, 19)));
    // Wildcards are matched as themselves.
    expect((await listPage(`search=guest_1`)).data).toEqual([]);
  });

  it('refuses what it cannot sort or filter by, and too large a page', async () => {
    expectError(await t.get('/private/v1/invitations?order=tokenHash', tokens.admin), 400);
    expectError(await t.get('/private/v1/invitations?role=owner', tokens.admin), 400);
    expectError(await t.get('/private/v1/invitations?invitedBy=x', tokens.admin), 400);
    expectError(await t.get('/private/v1/invitations?limit=1000', tokens.admin), 400);
  });
});

describe('a stranger with guesses', () => {
  it('malformed tokens are a 400, unknown ones a 404, and guesses back off', async () => {
    expectError(await t.post('/v1/invitations/accept', { token: 'x', password: PASSWORD }), 400);
    const guess = t.from();
    const wrong = 'A'.repeat(43);
    for (let i = 0; i < 10; i += 1) {
      expectError(await guess.post('/v1/invitations/lookup', { token: wrong }), 404);
    }
    expectError(await guess.post('/v1/invitations/lookup', { token: wrong }), 429);
  });
});

describe('expiry and resend (last: the clock moves a week)', () => {
  it('expires after 7 days; a resend mails a new link and the old one stops working', async () => {
    const { invitation, token } = await invited('user');
    t.advance(7 * DAY_MS);
    // The admin's session is as old: a fresh one (the test runs last, as time has moved on).
    tokens.admin = (await t.loginAs('admin')).token;
    expectError(await accept(token), 404, 'INVALID_INVITATION');
    const listed = (await pendingList()).find((row) => row.id === invitation.id);
    expect(listed?.status).toBe('expired');

    const resent = invitationSchema.parse(
      dataOf(await t.post(`/private/v1/invitations/${invitation.id}/resend`, {}, tokens.admin)),
    );
    expect(resent.status).toBe('pending');
    const fresh = await linkToken(invitation.email);
    expect(fresh).not.toBe(token);
    expectError(await accept(token), 404, 'INVALID_INVITATION');
    expect(dataOf(await accept(fresh))).toMatchObject({ email: invitation.email });
  });
});

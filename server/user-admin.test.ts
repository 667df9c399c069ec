import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  listResponseSchema,
  sessionInfoSchema,
  userBulkResultSchema,
  userRowSchema,
  type UserRow,
} from '../contract/schemas';
import { hashPassword } from './auth/password';
import { lockUsersForChange } from './user-admin';
import {
  ADMIN,
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
const PASSWORD = 'password-123';
const userPage = listResponseSchema(userRowSchema);
/** On PGlite transactions run one at a time: only PostgreSQL races them for real. */
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const RACE_ROUNDS = onPostgres ? 20 : 3;

const userOf = (response: Awaited<ReturnType<typeof t.get>>) =>
  userRowSchema.parse(dataOf(response));
const refresh = (refreshToken: string) => t.post('/v1/auth/refresh', { refreshToken });

async function list(query: string, token = tokens.admin): Promise<UserRow[]> {
  return userPage.parse((await t.get(`/private/v1/users?${query}`, token)).body).data;
}

describe('disabling and enabling a user', () => {
  it('ends every session at once, refuses sign-in with a clear message, and enable undoes it', async () => {
    const email = uniqueEmail();
    const first = await t.signUp(email, PASSWORD);
    const second = await t.login(email, PASSWORD);
    dataOf(await t.get('/v1/users/me', first.token));

    const disabled = userOf(
      await t.post(`/private/v1/users/${first._id}/disable`, {}, tokens.admin),
    );
    expect(disabled).toMatchObject({
      id: first._id,
      status: 'disabled',
      disabledAt: t.clock.current.toISOString(),
    });
    for (const session of [first, second]) {
      expectError(await t.get('/v1/users/me', session.token), 401, 'UNAUTHORIZED');
      expectError(await refresh(session.refreshToken), 401);
    }
    const refused = expectError(
      await t.post('/v1/auth/login', { email, password: PASSWORD }),
      403,
      'ACCOUNT_DISABLED',
    );
    expect(refused.message).toMatch(/disabled/);
    // Disabling again changes nothing (the time it was disabled stays).
    t.advance(1000);
    expect(
      userOf(await t.post(`/private/v1/users/${first._id}/disable`, {}, tokens.admin)).disabledAt,
    ).toBe(disabled.disabledAt);
    expect((await list(`search=${encodeURIComponent(email)}&status=disabled`)).length).toBe(1);
    expect(await list(`search=${encodeURIComponent(email)}&status=active`)).toEqual([]);

    const enabled = userOf(await t.post(`/private/v1/users/${first._id}/enable`, {}, tokens.admin));
    expect(enabled).toMatchObject({ status: 'active', disabledAt: null });
    // The ended sessions stay ended; signing in works again.
    expectError(await refresh(second.refreshToken), 401);
    dataOf(await t.get('/v1/users/me', (await t.login(email, PASSWORD)).token));
  });

  it("ends the disabled user's open event stream within seconds; reconnecting is refused", async () => {
    const user = await t.loginAs('user');
    const started = performance.now();
    const stream = t.get('/v1/events', user.token);
    await new Promise((resolve) => setTimeout(resolve, 300));
    dataOf(await t.post(`/private/v1/users/${user._id}/disable`, {}, tokens.admin));
    expect((await stream).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(3000);
    expectError(await t.get('/v1/events', user.token), 401, 'UNAUTHORIZED');
  });

  it('is for admins only, never oneself, and names unknown users', async () => {
    const user = await t.signUp();
    for (const kind of ['disable', 'enable']) {
      const path = `/private/v1/users/${user._id}/${kind}`;
      expectError(await t.post(path, {}, tokens.developer), 403, 'FORBIDDEN');
      expectError(await t.post(path, {}, tokens.user), 403, 'FORBIDDEN');
      expectError(await t.post(path, {}), 401, 'UNAUTHORIZED');
      expectError(await t.post(`/private/v1/users/nobody/${kind}`, {}, tokens.admin), 404);
    }
    const admin = await t.loginAs('admin');
    const self = expectError(
      await t.post(`/private/v1/users/${admin._id}/disable`, {}, admin.token),
      400,
      'VALIDATION_ERROR',
    );
    expect(self.message).toBe('You cannot disable your own account');
    dataOf(await t.get('/v1/users/me', admin.token));
  });
});

describe('the last admin', () => {
  it('two admins demoting or disabling each other at once leave one admin', async () => {
    for (const [action, body] of [
      ['', { role: 'developer' }],
      ['/disable', {}],
    ] as const) {
      const a = await t.loginAs('admin');
      const b = await t.loginAs('admin');
      const send = (actor: typeof a, target: typeof a) =>
        action === ''
          ? t.patch(`/private/v1/users/${target._id}`, body, actor.token)
          : t.post(`/private/v1/users/${target._id}${action}`, body, actor.token);
      const answers = await Promise.all([send(a, b), send(b, a)]);
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses[0]).toBe(200);
      // The loser is refused: its token's role or session changed (401) or, when its request
      // was already past that check, the locked re-check (403).
      expect([401, 403]).toContain(statuses[1]);
      const { rows } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users
         WHERE id = ANY($1::text[]) AND role = 'admin' AND disabled_at IS NULL`,
        [[a._id, b._id]],
      );
      expect(rows[0]!.n).toBe(1);
    }
  });

  it('an admin deleting their account while demoting or disabling the other admin leaves one', async () => {
    // Only the pair of each round is an active admin, so either change alone is allowed and
    // the two together would leave none.
    const { rows: others } = await t.db.query<{ id: string }>(
      `UPDATE users SET disabled_at = $1 WHERE role = 'admin' AND disabled_at IS NULL
       RETURNING id`,
      [t.clock.current],
    );
    const passwordHash = await hashPassword(PASSWORD);
    const admin = async () => {
      const email = uniqueEmail('admin');
      const now = t.clock.current;
      await createUser(t.db, { email, passwordHash, role: 'admin', verifiedAt: now, now });
      return t.login(email, PASSWORD);
    };
    const outcomes = new Set<string>();
    try {
      for (let round = 0; round < RACE_ROUNDS; round += 1) {
        const [a, b] = [await admin(), await admin()];
        // An account signed in by codes confirms its deletion with a mailed code (no hashing
        // before the transaction), so the two requests reach the database together.
        await t.db.query('UPDATE users SET password_hash = NULL WHERE id = $1', [a._id]);
        dataOf(await t.post('/v1/users/me/proof-code', {}, a.token));
        const { code } = await t.lastMail(a.email!, 'proof');
        const answers = await Promise.all([
          t.request('DELETE', '/v1/users/me', { body: { code }, token: a.token }),
          round % 2 === 0
            ? t.patch(`/private/v1/users/${b._id}`, { role: 'developer' }, a.token)
            : t.post(`/private/v1/users/${b._id}/disable`, {}, a.token),
        ]);
        outcomes.add(answers.map((answer) => answer.status).join(' '));
        const { rows } = await t.db.query<{ id: string }>(
          `SELECT id FROM users
           WHERE id = ANY($1::text[]) AND role = 'admin' AND disabled_at IS NULL`,
          [[a._id, b._id]],
        );
        expect(rows, JSON.stringify(answers.map((answer) => answer.body))).toHaveLength(1);
        await t.db.query('UPDATE users SET disabled_at = $1 WHERE id = $2', [
          t.clock.current,
          rows[0]!.id,
        ]);
      }
    } finally {
      await t.db.query('UPDATE users SET disabled_at = NULL WHERE id = ANY($1::text[])', [
        others.map((row) => row.id),
      ]);
    }
    // One of the two went first each round: the delete (409 LAST_ADMIN for the other) or the change.
    expect([...outcomes].filter((outcome) => !/^(200 (401|403)|409 200)$/.test(outcome))).toEqual(
      [],
    );
  });

  it('an administrator demoted before the change commits changes nothing', async () => {
    const actor = await t.loginAs('admin');
    const target = await t.loginAs('admin');
    await t.db.query(`UPDATE users SET role = 'developer' WHERE id = $1`, [actor._id]);
    await expect(
      t.db.transaction((tx) => lockUsersForChange(tx, actor._id, [target._id])),
    ).rejects.toMatchObject({ status: 403 });
    await t.db.query(`UPDATE users SET role = 'admin', disabled_at = now() WHERE id = $1`, [
      actor._id,
    ]);
    await expect(
      t.db.transaction((tx) => lockUsersForChange(tx, actor._id, [target._id])),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe('a user who refreshes while being disabled', () => {
  it.runIf(onPostgres)('is disabled, without a deadlock', async () => {
    const user = await t.signUp();
    const answer = await whileRefreshing(t, user._id, () =>
      t.post(`/private/v1/users/${user._id}/disable`, {}, tokens.admin),
    );
    expect(userOf(answer).status).toBe('disabled');
  });
});

describe('an administrator’s own sessions', () => {
  it('are listed and ended under /private/v1/users/{own id}/sessions as under /v1/users/me', async () => {
    const admin = await t.loginAs('admin');
    const other = await t.login(admin.email!, PASSWORD);
    const path = `/private/v1/users/${admin._id}/sessions`;
    const sessions = z.array(sessionInfoSchema).parse(dataOf(await t.get(path, admin.token)));
    expect(sessions.map((session) => session.current).sort()).toEqual([false, true]);
    const otherId = sessions.find((session) => !session.current)!.id;
    expect(dataOf(await t.request('DELETE', `${path}/${otherId}`, { token: admin.token }))).toEqual(
      { ended: 1 },
    );
    expectError(await t.get('/v1/users/me', other.token), 401, 'UNAUTHORIZED');
    dataOf(await t.get('/v1/users/me', admin.token));
    // All of them, this one too: signing out everywhere.
    expect(dataOf(await t.request('DELETE', path, { token: admin.token }))).toEqual({ ended: 1 });
    expectError(await t.get('/v1/users/me', admin.token), 401, 'UNAUTHORIZED');
  });
});

describe('bulk changes', () => {
  it('disable, enable and give a role to several users; the answer names those changed', async () => {
    const [a, b, c] = [await t.signUp(), await t.signUp(), await t.signUp()];
    const bulk = (kind: string, body: object) =>
      t.post(`/private/v1/users/bulk-${kind}`, body, tokens.admin);
    dataOf(await t.post(`/private/v1/users/${a._id}/disable`, {}, tokens.admin));
    const disabled = userBulkResultSchema.parse(
      dataOf(await bulk('disable', { ids: [a._id, b._id, c._id, b._id] })),
    );
    expect(disabled.changed.sort()).toEqual([b._id, c._id].sort());
    expect(disabled.users.map((user) => user.status)).toEqual(['disabled', 'disabled', 'disabled']);
    expectError(await t.get('/v1/users/me', c.token), 401);

    const enabled = userBulkResultSchema.parse(
      dataOf(await bulk('enable', { ids: [a._id, b._id] })),
    );
    expect(enabled.changed.sort()).toEqual([a._id, b._id].sort());

    const promoted = userBulkResultSchema.parse(
      dataOf(await bulk('role', { ids: [a._id, c._id], role: 'developer' })),
    );
    expect(promoted.users.map((user) => user.role)).toEqual(['developer', 'developer']);
  });

  it('changes nothing when one id is unknown, names oneself or an anonymous account', async () => {
    const user = await t.signUp();
    const guest = await t.signUpAnonymous();
    const admin = await t.loginAs('admin');
    const bulk = (kind: string, body: object) =>
      t.post(`/private/v1/users/bulk-${kind}`, body, admin.token);
    expectError(await bulk('disable', { ids: [user._id, 'nobody'] }), 404, 'NOT_FOUND');
    expectError(await bulk('disable', { ids: [user._id, admin._id] }), 400, 'VALIDATION_ERROR');
    expectError(
      await bulk('role', { ids: [user._id, guest._id], role: 'developer' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await bulk('role', { ids: [user._id], role: 'anonymous' }), 400);
    const [after] = await list(`search=${encodeURIComponent(user.email!)}`);
    expect(after).toMatchObject({ role: 'user', status: 'active' });
    dataOf(await t.get('/v1/users/me', user.token));

    for (const body of [
      {},
      { ids: [] },
      { ids: 'x' },
      { ids: Array.from({ length: 101 }, (_, i) => `u${i}`) },
      { ids: [user._id], role: 'developer' },
    ]) {
      expectError(await bulk('disable', body), 400, 'VALIDATION_ERROR');
    }
    expectError(await bulk('role', { ids: [user._id] }), 400, 'VALIDATION_ERROR');
    expectError(await bulk('role', { ids: [user._id], role: 'emperor' }), 400);
    expectError(
      await t.post('/private/v1/users/bulk-disable', { ids: [user._id] }, tokens.developer),
      403,
    );
  });
});

describe('sending a password reset code', () => {
  it('mails the user a reset code that sets a new password', async () => {
    const email = uniqueEmail();
    const user = await t.signUp(email, PASSWORD);
    const path = `/private/v1/users/${user._id}/reset-password`;
    expectError(await t.post(path, {}, tokens.developer), 403, 'FORBIDDEN');
    expect(dataOf(await t.post(path, {}, tokens.admin))).toEqual({ sent: true });
    const { code } = await t.lastMail(email, 'reset');
    const password = 'brand-new-password-7';
    dataOf(await t.patch('/v1/users/password-by-code', { email, code, password }));
    await t.login(email, password);

    const guest = await t.signUpAnonymous();
    expectError(
      await t.post(`/private/v1/users/${guest._id}/reset-password`, {}, tokens.admin),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await t.post('/private/v1/users/nobody/reset-password', {}, tokens.admin), 404);
  });
});

describe('resending a verification code', () => {
  it('mails the unverified user a code, recorded as the admin’s; refused once verified', async () => {
    const email = uniqueEmail();
    const user = await t.signUp(email, PASSWORD);
    const path = `/private/v1/users/${user._id}/resend-verification`;
    expectError(await t.post(path, {}, tokens.developer), 403, 'FORBIDDEN');
    expect(dataOf(await t.post(path, {}, tokens.admin))).toEqual({ sent: true });
    const { code, verificationId } = await t.lastMail(email, 'verify');
    dataOf(await t.post('/v1/users/verify', { verificationId, code }));
    const { rows } = await t.db.query<{ routing_key: string; actor_id: string }>(
      'SELECT routing_key, actor_id FROM asset_events WHERE user_id = $1',
      [user._id],
    );
    const admin = dataOf(await t.get('/v1/users/me', tokens.admin)) as { _id: string };
    expect(rows).toEqual([{ routing_key: 'user.verification-sent.v1', actor_id: admin._id }]);
    expectError(await t.post(path, {}, tokens.admin), 409, 'CONFLICT');
    const guest = await t.signUpAnonymous();
    const guestPath = `/private/v1/users/${guest._id}/resend-verification`;
    expectError(await t.post(guestPath, {}, tokens.admin), 400, 'VALIDATION_ERROR');
  });
});

describe('the users list', () => {
  it('filters by verified and status, and sorts by last sign-in', async () => {
    const prefix = `sorted.${Date.now()}`;
    const early = await t.signUp(uniqueEmail(`${prefix}.early`), PASSWORD);
    t.advance(60_000);
    const late = await t.signUp(uniqueEmail(`${prefix}.late`), PASSWORD);
    t.advance(60_000);
    await t.login(early.email!, PASSWORD);
    const mine = await list(`search=${prefix}&order=-lastSignInAt`);
    expect(mine.map((user) => user.id)).toEqual([early._id, late._id]);
    expect(mine[0]!.lastSignInAt).toBe(t.clock.current.toISOString());
    expect((await list(`search=${prefix}&order=lastSignInAt`)).map((user) => user.id)).toEqual([
      late._id,
      early._id,
    ]);

    expect(await list(`search=${prefix}&verified=true`)).toEqual([]);
    expect((await list(`search=${prefix}&verified=false`)).length).toBe(2);
    const admins = await list(`search=${encodeURIComponent(ADMIN.email)}&verified=true`);
    expect(admins.map((user) => user.email)).toEqual([ADMIN.email]);
    // Developers read the list too.
    expect((await list(`search=${prefix}&status=active`, tokens.developer)).length).toBe(2);

    // By creation (the later sign-up is newer) and by role (admin < developer < user, as text).
    expect((await list(`search=${prefix}&order=-createdAt`)).map((user) => user.id)).toEqual([
      late._id,
      early._id,
    ]);
    dataOf(await t.patch(`/private/v1/users/${late._id}`, { role: 'developer' }, tokens.admin));
    const byRole = await list(`search=${prefix}&order=role`);
    expect(byRole.map((user) => [user.id, user.role])).toEqual([
      [late._id, 'developer'],
      [early._id, 'user'],
    ]);
    expect((await list(`search=${prefix}&order=-role`)).map((user) => user.id)).toEqual([
      early._id,
      late._id,
    ]);

    for (const query of ['verified=maybe', 'status=gone', 'order=password', 'role=emperor']) {
      expectError(await t.get(`/private/v1/users?${query}`, tokens.admin), 400, 'VALIDATION_ERROR');
    }
  });

  it('lists pending invitations as invited only when asked, to admins, sorted and paged with the users', async () => {
    const prefix = `people.${Date.now()}`;
    const user = await t.signUp(uniqueEmail(`${prefix}.b`), PASSWORD);
    const inviteOne = async (name: string, role: string) => {
      const body = { email: uniqueEmail(name), role };
      const response = await t.post('/private/v1/invitations', body, tokens.admin);
      expect(response.status).toBe(201);
      return (response.body as { data: { id: string; email: string } }).data;
    };
    const first = await inviteOne(`${prefix}.a`, 'developer');
    const second = await inviteOne(`${prefix}.c`, 'user');
    // Without a status filter (the pickers' query), accounts only.
    expect((await list(`search=${prefix}`)).map((row) => row.id)).toEqual([user._id]);
    const invited = await list(`search=${prefix}&status=invited`);
    expect(invited).toEqual([
      expect.objectContaining({
        id: first.id,
        email: first.email,
        role: 'developer',
        status: 'invited',
        verifiedAt: null,
        lastSignInAt: null,
      }),
      expect.objectContaining({ id: second.id, status: 'invited', role: 'user' }),
    ]);
    expect(invited[0]!.createdAt).toBe(t.clock.current.toISOString());
    // With the accounts, in one order, one page at a time.
    const both = `search=${prefix}&status=invited&status=active&order=-email&limit=2`;
    expect((await list(both)).map((row) => row.id)).toEqual([second.id, user._id]);
    expect((await list(`${both}&page=2`)).map((row) => row.id)).toEqual([first.id]);
    expect((await list(`search=${prefix}&status=invited&role=user`)).map((row) => row.id)).toEqual([
      second.id,
    ]);
    // Developers read accounts, not invitations.
    expect(await list(`search=${prefix}&status=invited`, tokens.developer)).toEqual([]);
    // A revoked invitation leaves the list.
    dataOf(
      await t.request('DELETE', `/private/v1/invitations/${second.id}`, { token: tokens.admin }),
    );
    expect((await list(`search=${prefix}&status=invited`)).map((row) => row.id)).toEqual([
      first.id,
    ]);
  });
});

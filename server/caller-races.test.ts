/**
 * Routes that change the signed-in account's address, password, second factor or existence
 * check their caller twice: requireAuth before the route, and again under the user's row lock
 * in the change's transaction (lockLiveCaller). Whatever ends the caller's session between the
 * two (an invitation accepted into the account, a password reset, a disable, a logout) makes
 * the change a 401, as if it had come a moment later. Each test makes that change on a second
 * app on the same database at the moment the route under test has read its caller and not yet
 * changed anything, so the gap is hit every time, on PGlite and on PostgreSQL.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { z } from 'zod/mini';
import { totpEnrolmentSchema } from '../contract/account-schemas';
import { authResultSchema, userSchema } from '../contract/schemas';
import { Secret, TOTP } from 'otpauth';
import type { Db, SqlParam } from './db';
import {
  dataOf,
  expectError,
  uniqueClient,
  uniqueEmail,
  useRoleTokens,
  useTestApp,
  type JsonResponse,
} from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);
const PASSWORD = 'password-123';

/** Where the other change lands: after the session check, or after the route reads its caller. */
type Moment = 'auth' | 'caller';
let meanwhile: { moment: Moment; userId: string; run: () => Promise<unknown> } | undefined;
let ran = false;

async function runMeanwhile(moment: Moment, userId: string | undefined) {
  const hook = meanwhile;
  if (hook?.moment !== moment || hook.userId !== userId) return;
  meanwhile = undefined;
  await hook.run();
  ran = true;
}

/** `db`, running the armed change right after a read of the caller's row outside a transaction. */
function racing(db: Db): Db {
  return {
    async query<T>(sql: string, params?: readonly SqlParam[]) {
      const result = await db.query<T>(sql, params);
      if (/ FROM users WHERE id = \$1$/.test(sql))
        await runMeanwhile('caller', params?.[0] as string);
      return result;
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction(fn),
    listen: (channel, onNotify, onLost) => db.listen(channel, onNotify, onLost),
    close: () => db.close(),
  };
}

let other: ReturnType<typeof t.createApp> | undefined;
beforeAll(() => {
  other = t.createApp({
    db: racing(t.db),
    config: t.config,
    mail: t.mailbox,
    now: () => new Date(t.clock.current),
    storage: t.storage,
    events: t.events,
    sessions: {
      async lookup(sessionId) {
        const state = await t.sessions.lookup(sessionId);
        await runMeanwhile('auth', state?.userId);
        return state;
      },
      close: () => Promise.resolve(),
    },
  });
});

/**
 * Sends a request to the second app with `change` armed for the caller `userId` at `moment`;
 * answers the request's response once the change is known to have run in its gap.
 */
async function whileChanged(
  request: { method: string; path: string; body: unknown; token: string },
  change: { moment: Moment; userId: string; run: () => Promise<unknown> },
): Promise<JsonResponse> {
  ran = false;
  meanwhile = change;
  const response = await other!.request(request.path, {
    method: request.method,
    headers: {
      authorization: `Bearer ${request.token}`,
      'content-type': 'application/json',
      'x-forwarded-for': uniqueClient(),
    },
    body: JSON.stringify(request.body),
  });
  meanwhile = undefined;
  expect(ran, 'the other change ran in the gap').toBe(true);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as unknown, headers: response.headers };
}

const me = async (token: string) => userSchema.parse(dataOf(await t.get('/v1/users/me', token)));
const verificationIdOf = (body: unknown) =>
  z.object({ data: z.object({ verificationId: z.string() }) }).parse(body).data.verificationId;

/** A password reset by the owner, through the mailed code (every session of the account ends). */
async function resetPassword(email: string, password: string) {
  dataOf(await t.post('/v1/users/reset-password', { email }));
  const { code } = await t.lastMail(email, 'reset');
  dataOf(await t.patch('/v1/users/password-by-code', { email, code, password }));
}

/** A verified account signed in with PASSWORD. */
async function verifiedUser() {
  const user = await t.signUp();
  const { verificationId, code } = await t.lastMail(user.email!, 'verify');
  dataOf(await t.post('/v1/users/verify', { verificationId, code }, user.token));
  return t.login(user.email!, PASSWORD);
}

function totpCode(secret: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: t.clock.current.getTime() });
}

describe('an e-mail change confirmed while the account changes hands', () => {
  it('does not move the address of an account an invitation was accepted into meanwhile', async () => {
    const address = uniqueEmail('invitee');
    const invited = await t.post(
      '/private/v1/invitations',
      { email: address, role: 'developer' },
      tokens.admin,
    );
    expect(invited.status).toBe(201);
    const link = new URL((await t.lastMail(address, 'invitation')).link ?? '');
    const invitationToken = link.searchParams.get('token') ?? '';
    // A stranger signed the invitee's address up first and moves it to a mailbox of theirs.
    const stranger = await t.signUp(address);
    const theirs = uniqueEmail('stranger');
    const asked = await t.post(
      '/v1/users/me/email',
      { email: theirs, password: PASSWORD },
      stranger.token,
    );
    const verificationId = verificationIdOf(asked.body);
    const { code } = await t.lastMail(theirs, 'email');
    const invitee = 'the invitee’s own password';
    let accepted: JsonResponse | undefined;
    const confirm = await whileChanged(
      {
        method: 'POST',
        path: '/v1/users/me/email/confirm',
        body: { verificationId, code },
        token: stranger.token,
      },
      {
        moment: 'caller',
        userId: stranger._id,
        run: async () => {
          accepted = await t.post('/v1/invitations/accept', {
            token: invitationToken,
            password: invitee,
          });
        },
      },
    );
    expectError(confirm, 401, 'UNAUTHORIZED');
    const session = authResultSchema.parse(dataOf(accepted!));
    expect(session._id).toBe(stranger._id);
    expect((await me(session.token)).email).toBe(address);
    // The stranger's mailbox cannot take the account back: its address is not theirs.
    expect((await t.login(address, invitee))._id).toBe(stranger._id);
    expectError(await t.post('/v1/auth/login', { email: theirs, password: invitee }), 401);
  });
});

describe('a change made by a session that ends meanwhile', () => {
  it('a password change after the owner reset the password keeps the owner’s', async () => {
    const owner = await t.signUp();
    const reset = 'the owner’s reset password';
    const change = await whileChanged(
      {
        method: 'PUT',
        path: '/v1/users/me/password',
        body: { currentPassword: PASSWORD, password: 'the thief’s new password' },
        token: owner.token,
      },
      { moment: 'caller', userId: owner._id, run: () => resetPassword(owner.email!, reset) },
    );
    expectError(change, 401, 'UNAUTHORIZED');
    expect((await t.login(owner.email!, reset))._id).toBe(owner._id);
  });

  it('an account deleted by a session an administrator ended by disabling it stays', async () => {
    const user = await t.signUp();
    const deletion = await whileChanged(
      { method: 'DELETE', path: '/v1/users/me', body: { password: PASSWORD }, token: user.token },
      {
        moment: 'caller',
        userId: user._id,
        run: async () =>
          dataOf(await t.post(`/private/v1/users/${user._id}/disable`, {}, tokens.admin)),
      },
    );
    expectError(deletion, 401, 'UNAUTHORIZED');
    const { rows } = await t.db.query('SELECT id FROM users WHERE id = $1', [user._id]);
    expect(rows).toHaveLength(1);
  });

  it('an authenticator set up after the owner reset the password is not turned on', async () => {
    const owner = await verifiedUser();
    const { secret } = totpEnrolmentSchema.parse(
      dataOf(await t.post('/v1/users/me/second-factor/totp', { password: PASSWORD }, owner.token)),
    );
    const reset = 'the owner’s reset password';
    const confirm = await whileChanged(
      {
        method: 'POST',
        path: '/v1/users/me/second-factor/totp/confirm',
        body: { code: totpCode(secret) },
        token: owner.token,
      },
      { moment: 'caller', userId: owner._id, run: () => resetPassword(owner.email!, reset) },
    );
    expectError(confirm, 401, 'UNAUTHORIZED');
    // The owner signs in with the password alone: no one else's authenticator stands in the way.
    expect((await t.login(owner.email!, reset))._id).toBe(owner._id);
  });

  it('an enrolment started after the owner reset the password keeps no secret', async () => {
    const owner = await verifiedUser();
    const start = await whileChanged(
      {
        method: 'POST',
        path: '/v1/users/me/second-factor/totp',
        body: { password: PASSWORD },
        token: owner.token,
      },
      {
        moment: 'caller',
        userId: owner._id,
        run: () => resetPassword(owner.email!, 'the owner’s reset password'),
      },
    );
    expectError(start, 401, 'UNAUTHORIZED');
    const { rows } = await t.db.query('SELECT 1 FROM user_totp WHERE user_id = $1', [owner._id]);
    expect(rows).toHaveLength(0);
  });

  it('an authenticator turned off by a session logged out meanwhile stays on', async () => {
    const owner = await verifiedUser();
    const { secret } = totpEnrolmentSchema.parse(
      dataOf(await t.post('/v1/users/me/second-factor/totp', { password: PASSWORD }, owner.token)),
    );
    dataOf(
      await t.post(
        '/v1/users/me/second-factor/totp/confirm',
        { code: totpCode(secret) },
        owner.token,
      ),
    );
    const off = await whileChanged(
      {
        method: 'DELETE',
        path: '/v1/users/me/second-factor',
        body: { password: PASSWORD },
        token: owner.token,
      },
      {
        moment: 'caller',
        userId: owner._id,
        run: async () =>
          dataOf(await t.post('/v1/auth/logout', { refreshToken: owner.refreshToken })),
      },
    );
    expectError(off, 401, 'UNAUTHORIZED');
    const { rows } = await t.db.query(
      'SELECT 1 FROM user_totp WHERE user_id = $1 AND enabled_at IS NOT NULL',
      [owner._id],
    );
    expect(rows).toHaveLength(1);
  });

  it('a guest whose session was logged out meanwhile is not upgraded', async () => {
    const guest = await t.signUpAnonymous();
    const email = uniqueEmail('guest');
    const signup = await whileChanged(
      {
        method: 'POST',
        path: '/v1/auth/signup',
        body: { email, password: PASSWORD },
        token: guest.token,
      },
      {
        moment: 'auth',
        userId: guest._id,
        run: async () =>
          dataOf(await t.post('/v1/auth/logout', { refreshToken: guest.refreshToken })),
      },
    );
    expectError(signup, 401, 'UNAUTHORIZED');
    const { rows } = await t.db.query<{ role: string }>('SELECT role FROM users WHERE id = $1', [
      guest._id,
    ]);
    expect(rows[0]?.role).toBe('anonymous');
  });
});

describe('deleting an account whose address changed meanwhile', () => {
  it('forgets the new address too', async () => {
    const user = await t.signUp();
    // The new address had an invitation, revoked: the log names it.
    const next = uniqueEmail('next');
    const invited = await t.post(
      '/private/v1/invitations',
      { email: next, role: 'user' },
      tokens.admin,
    );
    expect(invited.status).toBe(201);
    const { id } = z.object({ data: z.object({ id: z.string() }) }).parse(invited.body).data;
    dataOf(await t.request('DELETE', `/private/v1/invitations/${id}`, { token: tokens.admin }));
    // Another session of the user moves the account to it while the deletion is under way.
    const second = await t.login(user.email!, PASSWORD);
    const deletion = await whileChanged(
      { method: 'DELETE', path: '/v1/users/me', body: { password: PASSWORD }, token: user.token },
      {
        moment: 'caller',
        userId: user._id,
        run: async () => {
          const asked = await t.post(
            '/v1/users/me/email',
            { email: next, password: PASSWORD },
            second.token,
          );
          const verificationId = verificationIdOf(asked.body);
          const { code } = await t.lastMail(next, 'email');
          const changed = await t.post(
            '/v1/users/me/email/confirm',
            { verificationId, code },
            second.token,
          );
          expect(userSchema.parse(dataOf(changed)).email).toBe(next);
        },
      },
    );
    expect(dataOf(deletion)).toEqual({ deleted: true });
    const { rows: invitations } = await t.db.query('SELECT id FROM invitations WHERE email = $1', [
      next,
    ]);
    expect(invitations).toHaveLength(0);
    const { rows: events } = await t.db.query(
      'SELECT id FROM asset_events WHERE data::text LIKE $1',
      [`%${next}%`],
    );
    expect(events).toHaveLength(0);
  });
});

/**
 * The account page's API (server/routes/account.ts): change of e-mail by code, change of
 * password, account deletion; and the guest's upgrade through the spec's sign-up call.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  activityRowSchema,
  authResultSchema,
  listResponseSchema,
  sessionInfoSchema,
  userSchema,
} from '../contract/schemas';
import { dataOf, expectError, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();
const PASSWORD = 'password-123';
const NEW_PASSWORD = 'another long password';

const me = (token: string) => t.get('/v1/users/me', token);
const put = (path: string, body: unknown, token: string) => t.request('PUT', path, { body, token });
const del = (path: string, body: unknown, token: string) =>
  t.request('DELETE', path, { body, token });
/** The activity log's rows about user `userId`, as an administrator reads them. */
async function activityOf(userId: string) {
  const { token } = await t.loginAs('admin');
  const response = await t.get(`/v1/activity?recordId=${userId}`, token);
  return listResponseSchema(activityRowSchema).parse(response.body).data;
}
const verificationIdOf = (body: unknown) =>
  z.object({ data: z.object({ verificationId: z.string() }) }).parse(body).data.verificationId;

describe('changing the e-mail address', () => {
  it('counts only once the code mailed to the new address comes back', async () => {
    const user = await t.signUp();
    const next = uniqueEmail('moved');
    const asked = await t.post(
      '/v1/users/me/email',
      { email: next, password: PASSWORD },
      user.token,
    );
    const verificationId = verificationIdOf(asked.body);
    // Not yet: the old address still signs in, the new one does not.
    expect(userSchema.parse(dataOf(await me(user.token))).email).toBe(user.email);
    const mail = await t.lastMail(next, 'email');
    expect(mail.verificationId).toBe(verificationId);
    const wrongCode = mail.code === '000000' ? '000001' : '000000';
    expectError(
      await t.post('/v1/users/me/email/confirm', { verificationId, code: wrongCode }, user.token),
      400,
      'INVALID_CODE',
    );
    const changed = userSchema.parse(
      dataOf(
        await t.post('/v1/users/me/email/confirm', { verificationId, code: mail.code }, user.token),
      ),
    );
    expect(changed.email).toBe(next);
    expect(changed.verifiedAt).not.toBeNull();
    expect((await t.login(next, PASSWORD)).email).toBe(next);
    expectError(await t.post('/v1/auth/login', { email: user.email, password: PASSWORD }), 401);
    // The old address is told.
    expect((await t.lastMail(user.email ?? '', 'notice')).text).toContain(next);
    // Administrators see it in the activity log, made by the user.
    const [event] = await activityOf(user._id);
    expect(event).toMatchObject({
      routingKey: 'user.email-changed.v1',
      actorId: user._id,
      actorEmail: next,
      data: { changes: { email: { from: user.email, to: next } } },
      subject: { kind: 'user', id: user._id, name: next, state: 'live' },
    });
    // The code is spent.
    expectError(
      await t.post('/v1/users/me/email/confirm', { verificationId, code: mail.code }, user.token),
      400,
      'INVALID_CODE',
    );
  });

  it('needs the current password, and refuses a taken address', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    expectError(await t.post('/v1/users/me/email', { email: uniqueEmail() }, user.token), 400);
    expectError(
      await t.post(
        '/v1/users/me/email',
        { email: uniqueEmail(), password: 'wrong-one' },
        user.token,
      ),
      403,
      'WRONG_PASSWORD',
    );
    expectError(
      await t.post('/v1/users/me/email', { email: other.email, password: PASSWORD }, user.token),
      409,
      'CONFLICT',
    );
  });

  it('a code of another account’s change does not change this one', async () => {
    const alice = await t.signUp();
    const mallory = await t.signUp();
    const target = uniqueEmail('target');
    const asked = await t.post(
      '/v1/users/me/email',
      { email: target, password: PASSWORD },
      alice.token,
    );
    const verificationId = verificationIdOf(asked.body);
    const { code } = await t.lastMail(target, 'email');
    expectError(
      await t.post('/v1/users/me/email/confirm', { verificationId, code }, mallory.token),
      400,
      'INVALID_CODE',
    );
    expect(userSchema.parse(dataOf(await me(mallory.token))).email).toBe(mallory.email);
    // Alice's code still works.
    const changed = await t.post(
      '/v1/users/me/email/confirm',
      { verificationId, code },
      alice.token,
    );
    expect(userSchema.parse(dataOf(changed)).email).toBe(target);
  });
});

describe('changing the password', () => {
  it('needs the current one, keeps this session and ends the others', async () => {
    const user = await t.signUp();
    const elsewhere = await t.login(user.email ?? '', PASSWORD);
    expectError(
      await put(
        '/v1/users/me/password',
        { currentPassword: 'nope-nope', password: NEW_PASSWORD },
        user.token,
      ),
      403,
      'WRONG_PASSWORD',
    );
    expectError(
      await put(
        '/v1/users/me/password',
        { currentPassword: PASSWORD, password: 'password' },
        user.token,
      ),
      400,
      'VALIDATION_ERROR',
    );
    dataOf(
      await put(
        '/v1/users/me/password',
        { currentPassword: PASSWORD, password: NEW_PASSWORD },
        user.token,
      ),
    );
    expect((await me(user.token)).status).toBe(200);
    expectError(await me(elsewhere.token), 401, 'UNAUTHORIZED');
    expectError(await t.post('/v1/auth/refresh', { refreshToken: elsewhere.refreshToken }), 401);
    expect((await t.login(user.email ?? '', NEW_PASSWORD)).email).toBe(user.email);
    expectError(await t.post('/v1/auth/login', { email: user.email, password: PASSWORD }), 401);
  });

  it('is refused to a guest, who has no address', async () => {
    const guest = await t.signUpAnonymous();
    expectError(await put('/v1/users/me/password', { password: NEW_PASSWORD }, guest.token), 400);
  });
});

describe('deleting the account', () => {
  it('needs the password, ends every session and removes the user', async () => {
    const user = await t.signUp();
    const elsewhere = await t.login(user.email ?? '', PASSWORD);
    expectError(await del('/v1/users/me', { password: 'wrong-one' }, user.token), 403);
    expectError(await del('/v1/users/me', {}, user.token), 400);
    expect(dataOf(await del('/v1/users/me', { password: PASSWORD }, user.token))).toEqual({
      deleted: true,
    });
    expectError(await me(elsewhere.token), 401);
    expectError(await me(user.token), 401);
    expectError(await t.post('/v1/auth/login', { email: user.email, password: PASSWORD }), 401);
    const { rows } = await t.db.query('SELECT 1 FROM users WHERE id = $1', [user._id]);
    expect(rows).toHaveLength(0);
    // The activity log keeps that the account was deleted, not whose it was.
    const [event] = await activityOf(user._id);
    expect(event).toMatchObject({
      routingKey: 'user.deleted.v1',
      actorId: user._id,
      actorEmail: null,
      data: {},
      subject: { kind: 'user', id: user._id, name: null, state: 'gone' },
    });
    // The address is free again.
    expect((await t.signUp(user.email ?? '')).email).toBe(user.email);
  });

  it('refuses the last administrator', async () => {
    // The seeded admin is disabled so the new one is the only active administrator.
    await t.db.query("UPDATE users SET disabled_at = $1 WHERE role = 'admin'", [t.clock.current]);
    const admin = await t.loginAs('admin');
    expectError(await del('/v1/users/me', { password: PASSWORD }, admin.token), 409, 'LAST_ADMIN');
    await t.db.query('UPDATE users SET disabled_at = NULL WHERE id <> $1', [admin._id]);
    expect((await del('/v1/users/me', { password: PASSWORD }, admin.token)).status).toBe(200);
  });
});

describe('a guest becomes a registered user (POST /v1/auth/signup with the guest’s token)', () => {
  it('keeps the id, ends the guest sessions and lists the new one', async () => {
    const guest = await t.signUpAnonymous();
    const email = uniqueEmail('guest');
    const registered = authResultSchema.parse(
      dataOf(await t.post('/v1/auth/signup', { email, password: PASSWORD }, guest.token)),
    );
    expect(registered).toMatchObject({ _id: guest._id, email, role: 'user' });
    expectError(await me(guest.token), 401);
    const sessions = z
      .array(sessionInfoSchema)
      .parse(dataOf(await t.get('/v1/users/me/sessions', registered.token)));
    expect(sessions.map((session) => session.current)).toEqual([true]);
  });
});

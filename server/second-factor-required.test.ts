/**
 * REQUIRE_ADMIN_2FA: an admin without a second factor signs in, through any flow, to a session
 * that may only enrol one (a guest's rules); once it is on, the next token is an admin's.
 */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  recoveryCodesSchema,
  secondFactorChallengeSchema,
  secondFactorStatusSchema,
  totpEnrolmentSchema,
} from '../contract/account-schemas';
import { authResultSchema, refreshResultSchema } from '../contract/schemas';
import { loadConfig } from './config';
import { dataOf, expectError, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp({ REQUIRE_ADMIN_2FA: 'true' });
const PASSWORD = 'a long admin password';

const codeOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({
    timestamp: t.clock.current.getTime(),
  });
const usersList = (token: string) => t.get('/private/v1/users', token);

describe('REQUIRE_ADMIN_2FA', () => {
  it('is on by default in production only, and takes true or false', () => {
    const base = { JWT_SECRET: 's'.repeat(40) };
    expect(loadConfig(base).requireAdminSecondFactor).toBe(false);
    const production = {
      ...base,
      NODE_ENV: 'production',
      ADMIN_PASSWORD: 'a good long admin password',
      SMTP_URL: 'smtp://mail:25',
      PUBLIC_URL: 'https://avatars.example',
    };
    expect(loadConfig(production).requireAdminSecondFactor).toBe(true);
    expect(loadConfig({ ...production, REQUIRE_ADMIN_2FA: 'false' }).requireAdminSecondFactor).toBe(
      false,
    );
    expect(() => loadConfig({ ...base, REQUIRE_ADMIN_2FA: 'yes' })).toThrow(/REQUIRE_ADMIN_2FA/);
  });

  it('gives an invited admin a session that can only set the factor up, then the role', async () => {
    const admin = await t.loginAs('admin');
    // The seeded admin has no factor either: its session cannot invite, nor list users.
    expectError(await usersList(admin.token), 403);
    const status = secondFactorStatusSchema.parse(
      dataOf(await t.get('/v1/users/me/second-factor', admin.token)),
    );
    expect(status).toMatchObject({ enabled: false, required: true });

    // Once its factor is on (and the token refreshed), it is an admin and invites another.
    await enrol(admin.token, 'password-123');
    const refreshed = refreshResultSchema.parse(
      dataOf(await t.post('/v1/auth/refresh', { refreshToken: admin.refreshToken })),
    );
    dataOf(await usersList(refreshed.token));
    const email = uniqueEmail('invited-admin');
    const invited = await t.post(
      '/private/v1/invitations',
      { email, role: 'admin' },
      refreshed.token,
    );
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const link = new URL((await t.lastMail(email, 'invitation')).link ?? '');
    const token = link.searchParams.get('token') ?? '';

    const accepted = authResultSchema.parse(
      dataOf(await t.post('/v1/invitations/accept', { token, password: PASSWORD })),
    );
    expectError(await usersList(accepted.token), 403);
    await enrol(accepted.token, PASSWORD);
    // The factor is on: the next token is an admin's.
    const next = refreshResultSchema.parse(
      dataOf(await t.post('/v1/auth/refresh', { refreshToken: accepted.refreshToken })),
    );
    dataOf(await usersList(next.token));
    // And its next sign-in asks for the code.
    secondFactorChallengeSchema.parse(
      dataOf(await t.post('/v1/auth/login', { email, password: PASSWORD })),
    );
  });

  it('honours an admin’s invitations only while the admin has the factor', async () => {
    const admin = await t.loginAs('admin');
    await enrol(admin.token, 'password-123');
    const refreshed = refreshResultSchema.parse(
      dataOf(await t.post('/v1/auth/refresh', { refreshToken: admin.refreshToken })),
    );
    const email = uniqueEmail('invited');
    const invited = await t.post(
      '/private/v1/invitations',
      { email, role: 'developer' },
      refreshed.token,
    );
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const link = new URL((await t.lastMail(email, 'invitation')).link ?? '');
    const token = link.searchParams.get('token') ?? '';
    dataOf(await t.post('/v1/invitations/lookup', { token }));

    // Without it the admin has a guest's rules, and their invitations no authority.
    dataOf(
      await t.request('DELETE', '/v1/users/me/second-factor', {
        body: { password: 'password-123' },
        token: refreshed.token,
      }),
    );
    expectError(await t.post('/v1/invitations/lookup', { token }), 404, 'INVALID_INVITATION');
    expectError(
      await t.post('/v1/invitations/accept', { token, password: PASSWORD }),
      404,
      'INVALID_INVITATION',
    );
    // Set up again (on a token issued without the factor), the link works.
    const reduced = refreshResultSchema.parse(
      dataOf(await t.post('/v1/auth/refresh', { refreshToken: refreshed.refreshToken })),
    );
    await enrol(reduced.token, 'password-123');
    const accepted = authResultSchema.parse(
      dataOf(await t.post('/v1/invitations/accept', { token, password: PASSWORD })),
    );
    expect(accepted.role).toBe('developer');
  });

  it('ends the admin powers of a token the moment its factor goes, until it is refreshed', async () => {
    const { token, refreshToken } = await adminWithFactor();
    dataOf(
      await t.request('DELETE', '/v1/users/me/second-factor', {
        body: { password: 'password-123' },
        token,
      }),
    );
    const refused = expectError(await usersList(token), 401, 'UNAUTHORIZED');
    expect(refused.message).toMatch(/refresh the access token/);
    const reduced = refreshResultSchema.parse(
      dataOf(await t.post('/v1/auth/refresh', { refreshToken })),
    );
    expectError(await usersList(reduced.token), 403);
  });

  it('ends them when the factor goes behind this server’s back (another server, the database)', async () => {
    const { token, _id } = await adminWithFactor();
    dataOf(await usersList(token)); // the session's state is cached now
    // No announcement from this process: only the database's notification can tell it.
    await t.db.query('UPDATE user_totp SET enabled_at = NULL WHERE user_id = $1', [_id]);
    await within(1000, async () => (await usersList(token)).status === 401);
  });

  it('leaves other roles as they are', async () => {
    const developer = await t.loginAs('developer');
    dataOf(await usersList(developer.token));
    const status = secondFactorStatusSchema.parse(
      dataOf(await t.get('/v1/users/me/second-factor', developer.token)),
    );
    expect(status.required).toBe(false);
  });
});

/** The seeded admin with an authenticator on, and a token of the admin's powers. */
async function adminWithFactor() {
  const admin = await t.loginAs('admin');
  await enrol(admin.token, 'password-123');
  const refreshed = refreshResultSchema.parse(
    dataOf(await t.post('/v1/auth/refresh', { refreshToken: admin.refreshToken })),
  );
  dataOf(await usersList(refreshed.token));
  return { ...refreshed, _id: admin._id };
}

/** Polls `check` until it holds, failing after `ms`: a notification takes a moment. */
async function within(ms: number, check: () => Promise<boolean>): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function enrol(token: string, password: string) {
  const { secret } = totpEnrolmentSchema.parse(
    dataOf(await t.post('/v1/users/me/second-factor/totp', { password }, token)),
  );
  recoveryCodesSchema.parse(
    dataOf(
      await t.post('/v1/users/me/second-factor/totp/confirm', { code: codeOf(secret) }, token),
    ),
  );
}

/**
 * Two-step sign-in (server/auth/second-factor.ts, server/routes/second-factor.ts): enrolment,
 * every flow that yields a session asking for the second step, replays, recovery codes, the
 * bounds on guessing, turning it off and an administrator's reset.
 */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  recoveryCodesSchema,
  secondFactorChallengeSchema,
  secondFactorStatusSchema,
  totpEnrolmentSchema,
} from '../contract/account-schemas';
import {
  activityRowSchema,
  authResultSchema,
  listResponseSchema,
  userRowSchema,
} from '../contract/schemas';
import { hashPassword } from './auth/password';
import { dataOf, expectError, uniqueEmail, useTestApp } from './test-app';
import { createUser } from './users';

const t = useTestApp();
const PASSWORD = 'password-123';
const STEP_MS = 30_000;

const del = (path: string, body: unknown, token: string) =>
  t.request('DELETE', path, { body, token });

/** The code an authenticator app with `secret` shows, `steps` time steps from now. */
function codeOf(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: t.clock.current.getTime() + steps * STEP_MS });
}
/** A 6-digit code that is none of the ones accepted now. */
function wrongCodeOf(secret: string): string {
  const right = new Set([-1, 0, 1].map((steps) => codeOf(secret, steps)));
  let n = 0;
  while (right.has(String(n).padStart(6, '0'))) n += 1;
  return String(n).padStart(6, '0');
}

/** A verified account with `role`, signed in. */
async function account(role: 'user' | 'admin' | 'developer' = 'user') {
  const email = uniqueEmail(role);
  await createUser(t.db, {
    email,
    passwordHash: await hashPassword(PASSWORD),
    role,
    verifiedAt: t.clock.current,
    now: t.clock.current,
  });
  const session = await t.login(email, PASSWORD);
  return { email, id: session._id, token: session.token };
}

/** An account with two-step sign-in on: its secret and recovery codes. */
async function enrolled(role: 'user' | 'admin' = 'user') {
  const who = await account(role);
  const { secret, uri } = totpEnrolmentSchema.parse(
    dataOf(await t.post('/v1/users/me/second-factor/totp', { password: PASSWORD }, who.token)),
  );
  expect(uri).toMatch(/^otpauth:\/\/totp\/Avatar%20Studio:/);
  const { recoveryCodes } = recoveryCodesSchema.parse(
    dataOf(
      await t.post('/v1/users/me/second-factor/totp/confirm', { code: codeOf(secret) }, who.token),
    ),
  );
  // The confirmation's code is spent: the sign-in below needs the next step's.
  t.advance(STEP_MS);
  return { ...who, secret, recoveryCodes };
}

/** Signs in with the password: the challenge of the second step. */
async function challengeOf(email: string) {
  const answer = dataOf(await t.post('/v1/auth/login', { email, password: PASSWORD }));
  expect(answer).not.toHaveProperty('token');
  expect(answer).not.toHaveProperty('refreshToken');
  return secondFactorChallengeSchema.parse(answer).challenge;
}

const secondStep = (challenge: string, code: string) =>
  t.post('/v1/auth/second-factor', { challenge, code });

describe('enrolment', () => {
  it('turns on only with a first right code, and answers 10 recovery codes once', async () => {
    const who = await account();
    expectError(await t.post('/v1/users/me/second-factor/totp', {}, who.token), 400);
    expectError(
      await t.post('/v1/users/me/second-factor/totp', { password: 'not it' }, who.token),
      403,
      'WRONG_PASSWORD',
    );
    const { secret } = totpEnrolmentSchema.parse(
      dataOf(await t.post('/v1/users/me/second-factor/totp', { password: PASSWORD }, who.token)),
    );
    // Not on before it is confirmed: the password alone still signs in.
    expect((await t.login(who.email, PASSWORD)).token).toBeTruthy();
    expectError(
      await t.post(
        '/v1/users/me/second-factor/totp/confirm',
        { code: wrongCodeOf(secret) },
        who.token,
      ),
      400,
      'INVALID_CODE',
    );
    const { recoveryCodes } = recoveryCodesSchema.parse(
      dataOf(
        await t.post(
          '/v1/users/me/second-factor/totp/confirm',
          { code: codeOf(secret) },
          who.token,
        ),
      ),
    );
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const status = secondFactorStatusSchema.parse(
      dataOf(await t.get('/v1/users/me/second-factor', who.token)),
    );
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    // Neither the secret nor the codes are stored as they were shown.
    const { rows } = await t.db.query<{ totp_secret: string }>(
      'SELECT totp_secret FROM user_totp WHERE user_id = $1',
      [who.id],
    );
    expect(rows[0]?.totp_secret).not.toContain(secret);
    const stored = await t.db.query<{ code_hash: string }>(
      'SELECT code_hash FROM recovery_codes WHERE user_id = $1',
      [who.id],
    );
    expect(stored.rows.map((row) => row.code_hash)).not.toContain(recoveryCodes[0]);
    // A second enrolment cannot replace the factor behind its owner's back.
    expectError(
      await t.post('/v1/users/me/second-factor/totp', { password: PASSWORD }, who.token),
      409,
      'SECOND_FACTOR_ENABLED',
    );
  });

  it('is refused to guests and to accounts whose address is not proven', async () => {
    const guest = await t.signUpAnonymous();
    expectError(await t.post('/v1/users/me/second-factor/totp', {}, guest.token), 400);
    const unverified = await t.signUp();
    expectError(
      await t.post('/v1/users/me/second-factor/totp', { password: PASSWORD }, unverified.token),
      400,
    );
  });
});

describe('signing in with a second factor', () => {
  it('answers a challenge to the password, and the session to the code', async () => {
    const who = await enrolled();
    const challenge = await challengeOf(who.email);
    const session = authResultSchema.parse(dataOf(await secondStep(challenge, codeOf(who.secret))));
    expect(session.email).toBe(who.email);
    expect(dataOf(await t.get('/v1/users/me', session.token))).toMatchObject({ _id: who.id });
    // The challenge is spent by its right code.
    t.advance(STEP_MS);
    expectError(await secondStep(challenge, codeOf(who.secret)), 401, 'CHALLENGE_EXPIRED');
  });

  it('asks for it after a sign-in code too', async () => {
    const who = await enrolled();
    dataOf(await t.post('/v1/auth/request-login-code', { email: who.email }));
    const mail = await t.lastMail(who.email, 'login');
    const answer = dataOf(await t.post('/v1/auth/login', { email: who.email, code: mail.code }));
    const { challenge } = secondFactorChallengeSchema.parse(answer);
    authResultSchema.parse(dataOf(await secondStep(challenge, codeOf(who.secret))));
  });

  it('survives a password reset by code: the new password still asks for the code', async () => {
    const who = await enrolled();
    dataOf(await t.post('/v1/users/reset-password', { email: who.email }));
    const mail = await t.lastMail(who.email, 'reset');
    const password = 'a brand new password';
    const reset = await t.patch('/v1/users/password-by-code', {
      email: who.email,
      code: mail.code,
      password,
    });
    expect(reset.body).not.toHaveProperty('data.token');
    const answer = dataOf(await t.post('/v1/auth/login', { email: who.email, password }));
    const { challenge } = secondFactorChallengeSchema.parse(answer);
    authResultSchema.parse(dataOf(await secondStep(challenge, codeOf(who.secret))));
  });

  it('refuses a code used once already, even in another sign-in', async () => {
    const who = await enrolled();
    const code = codeOf(who.secret);
    authResultSchema.parse(dataOf(await secondStep(await challengeOf(who.email), code)));
    const again = await challengeOf(who.email);
    expectError(await secondStep(again, code), 401, 'INVALID_SECOND_FACTOR');
    // An older step's code, still inside the skew, is refused as well.
    expectError(await secondStep(again, codeOf(who.secret, -1)), 401, 'INVALID_SECOND_FACTOR');
    t.advance(STEP_MS);
    authResultSchema.parse(dataOf(await secondStep(again, codeOf(who.secret))));
  });

  it('accepts a phone clock one step off either way, not two', async () => {
    const who = await enrolled();
    const challenge = await challengeOf(who.email);
    expectError(await secondStep(challenge, codeOf(who.secret, 2)), 401, 'INVALID_SECOND_FACTOR');
    expectError(await secondStep(challenge, codeOf(who.secret, -2)), 401, 'INVALID_SECOND_FACTOR');
    authResultSchema.parse(dataOf(await secondStep(challenge, codeOf(who.secret, 1))));
    const behind = await enrolled();
    // One step more, so that the step before is not the enrolment's (spent) one.
    t.advance(STEP_MS);
    authResultSchema.parse(
      dataOf(await secondStep(await challengeOf(behind.email), codeOf(behind.secret, -1))),
    );
  });

  it('takes each recovery code once', async () => {
    const who = await enrolled();
    const [first] = who.recoveryCodes;
    authResultSchema.parse(
      dataOf(await secondStep(await challengeOf(who.email), ` ${first!.toUpperCase()} `)),
    );
    expectError(
      await secondStep(await challengeOf(who.email), first!),
      401,
      'INVALID_SECOND_FACTOR',
    );
    const status = secondFactorStatusSchema.parse(
      dataOf(await t.get('/v1/users/me/second-factor', who.token)),
    );
    expect(status.recoveryCodesLeft).toBe(9);
  });

  it('refuses a forged, altered or expired challenge', async () => {
    const who = await enrolled();
    const challenge = await challengeOf(who.email);
    const [header, payload, signature] = challenge.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as object;
    const other = await account();
    const altered = Buffer.from(JSON.stringify({ ...claims, sub: other.id })).toString('base64url');
    const code = codeOf(who.secret);
    expectError(await secondStep(`${header}.${altered}.${signature}`, code), 401);
    expectError(await secondStep('not-a-challenge', code), 401, 'CHALLENGE_EXPIRED');
    t.advance(5 * 60_000 + 1000);
    expectError(await secondStep(challenge, codeOf(who.secret)), 401, 'CHALLENGE_EXPIRED');
  });
});

describe('guessing codes', () => {
  it('gives one challenge 5 tries, even to a parallel burst', async () => {
    const who = await enrolled();
    const challenge = await challengeOf(who.email);
    const wrong = wrongCodeOf(who.secret);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => secondStep(challenge, wrong)),
    );
    const statuses = answers.map((answer) => (answer.body as { code: string }).code);
    expect(statuses.filter((code) => code === 'INVALID_SECOND_FACTOR')).toHaveLength(5);
    expect(statuses.filter((code) => code === 'CHALLENGE_EXPIRED')).toHaveLength(7);
    // The right code no longer helps: the sign-in starts again, with the password.
    expectError(await secondStep(challenge, codeOf(who.secret)), 401, 'CHALLENGE_EXPIRED');
  });

  it('locks the account’s authenticator codes after 10 wrong ones, not its recovery codes', async () => {
    const who = await enrolled();
    // One network's guesses (another network's are sign-in-lockout.test.ts's).
    const network = t.from();
    const step = (challenge: string, code: string) =>
      network.post('/v1/auth/second-factor', { challenge, code });
    for (let i = 0; i < 2; i += 1) {
      const challenge = await challengeOf(who.email);
      for (let j = 0; j < 5; j += 1) {
        expectError(await step(challenge, wrongCodeOf(who.secret)), 401);
      }
    }
    const challenge = await challengeOf(who.email);
    expectError(await step(challenge, codeOf(who.secret)), 429, 'TOO_MANY_ATTEMPTS');
    authResultSchema.parse(dataOf(await step(challenge, who.recoveryCodes[0]!)));
    // A day later the authenticator works again.
    t.advance(24 * 60 * 60_000);
    authResultSchema.parse(dataOf(await step(await challengeOf(who.email), codeOf(who.secret))));
  });
});

describe('turning it off', () => {
  it('needs the password or a current code', async () => {
    const who = await enrolled();
    expectError(await del('/v1/users/me/second-factor', {}, who.token), 400);
    expectError(
      await del('/v1/users/me/second-factor', { password: 'wrong one' }, who.token),
      403,
      'WRONG_PASSWORD',
    );
    expectError(
      await del('/v1/users/me/second-factor', { code: wrongCodeOf(who.secret) }, who.token),
      403,
      'WRONG_CODE',
    );
    dataOf(await del('/v1/users/me/second-factor', { code: codeOf(who.secret) }, who.token));
    expect((await t.login(who.email, PASSWORD)).token).toBeTruthy();

    const other = await enrolled();
    dataOf(await del('/v1/users/me/second-factor', { password: PASSWORD }, other.token));
    expect((await t.login(other.email, PASSWORD)).token).toBeTruthy();
  });
});

describe('new recovery codes', () => {
  const renew = (body: unknown, token: string) =>
    t.post('/v1/users/me/second-factor/recovery-codes', body, token);

  it('replace the old ones, confirmed with the password or a current code', async () => {
    const who = await enrolled();
    const [old] = who.recoveryCodes;
    const { recoveryCodes } = recoveryCodesSchema.parse(
      dataOf(await renew({ password: PASSWORD }, who.token)),
    );
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(recoveryCodes.filter((code) => who.recoveryCodes.includes(code))).toEqual([]);
    // The old codes stop working; the new ones work, each once.
    expectError(await secondStep(await challengeOf(who.email), old!), 401, 'INVALID_SECOND_FACTOR');
    authResultSchema.parse(
      dataOf(await secondStep(await challengeOf(who.email), recoveryCodes[0]!)),
    );
    const status = secondFactorStatusSchema.parse(
      dataOf(await t.get('/v1/users/me/second-factor', who.token)),
    );
    expect(status.recoveryCodesLeft).toBe(9);

    // With a code of the app instead of the password: a third set.
    const third = recoveryCodesSchema.parse(
      dataOf(await renew({ code: codeOf(who.secret) }, who.token)),
    ).recoveryCodes;
    expectError(
      await secondStep(await challengeOf(who.email), recoveryCodes[1]!),
      401,
      'INVALID_SECOND_FACTOR',
    );
    authResultSchema.parse(dataOf(await secondStep(await challengeOf(who.email), third[0]!)));
  });

  it('are refused without the password or a code, and the old ones keep working', async () => {
    const who = await enrolled();
    expectError(await renew({}, who.token), 400, 'VALIDATION_ERROR');
    expectError(await renew({ password: 'wrong one' }, who.token), 403, 'WRONG_PASSWORD');
    expectError(await renew({ code: wrongCodeOf(who.secret) }, who.token), 403, 'WRONG_CODE');
    expectError(await renew({ code: 'abcde-fghij' }, who.token), 403, 'WRONG_CODE');
    expectError(await renew({ password: PASSWORD }, 'not-a-token'), 401);
    authResultSchema.parse(
      dataOf(await secondStep(await challengeOf(who.email), who.recoveryCodes[0]!)),
    );
    // An account without two-step sign-in has none to renew.
    const plain = await account();
    expectError(await renew({ password: PASSWORD }, plain.token), 409, 'NO_SECOND_FACTOR');
  });

  it('of two renewals at once, leave one set working', async () => {
    const who = await enrolled();
    const answers = await Promise.all([
      renew({ password: PASSWORD }, who.token),
      renew({ password: PASSWORD }, who.token),
    ]);
    const sets = answers.map((answer) => recoveryCodesSchema.parse(dataOf(answer)).recoveryCodes);
    const working = [];
    for (const set of sets) {
      const answer = await secondStep(await challengeOf(who.email), set[0]!);
      if (answer.status === 200) working.push(set);
    }
    expect(working).toHaveLength(1);
  });
});

describe("an administrator's reset", () => {
  it('removes the factor, ends the sessions and is in the activity log', async () => {
    const who = await enrolled();
    // Fresh tokens: earlier tests moved the clock past the file's.
    const developer = (await t.loginAs('developer')).token;
    const admin = (await t.loginAs('admin')).token;
    expectError(await del(`/private/v1/users/${who.id}/second-factor`, {}, developer), 403);
    dataOf(await del(`/private/v1/users/${who.id}/second-factor`, {}, admin));
    // What was signed in with the lost factor ends with it.
    expectError(await t.get('/v1/users/me', who.token), 401);
    expect((await t.login(who.email, PASSWORD)).token).toBeTruthy();
    expectError(
      await del(`/private/v1/users/${who.id}/second-factor`, {}, admin),
      409,
      'NO_SECOND_FACTOR',
    );
    const log = listResponseSchema(activityRowSchema).parse(
      (await t.get(`/v1/activity?recordId=${who.id}`, admin)).body,
    ).data;
    expect(log.map((row) => row.routingKey)).toContain('user.second-factor-reset.v1');
  });

  it('is offered where the user page says two-step sign-in is on: to admins alone', async () => {
    const who = await enrolled();
    const developer = (await t.loginAs('developer')).token;
    const admin = (await t.loginAs('admin')).token;
    const read = async (token: string) =>
      userRowSchema.parse(dataOf(await t.get(`/private/v1/users/${who.id}`, token)));
    expect((await read(admin)).secondFactor).toBe(true);
    expect(await read(developer)).not.toHaveProperty('secondFactor');
    dataOf(await del(`/private/v1/users/${who.id}/second-factor`, {}, admin));
    expect((await read(admin)).secondFactor).toBe(false);
  });

  it('is not for oneself', async () => {
    const admin = await enrolled('admin');
    const session = authResultSchema.parse(
      dataOf(await secondStep(await challengeOf(admin.email), codeOf(admin.secret))),
    );
    expectError(await del(`/private/v1/users/${admin.id}/second-factor`, {}, session.token), 400);
  });
});

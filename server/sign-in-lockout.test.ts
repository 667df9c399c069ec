/**
 * Strangers trying to lock an owner out of signing in, each from client addresses of their
 * own: the owner, from any other network, still signs in with what their mailbox holds, with
 * their password or with their authenticator.
 */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import {
  recoveryCodesSchema,
  secondFactorChallengeSchema,
  totpEnrolmentSchema,
} from '../contract/account-schemas';
import { authResultSchema } from '../contract/schemas';
import { hashPassword } from './auth/password';
import { MAX_CODES_PER_WINDOW, RATE_WINDOW_MS } from './auth/one-time-codes';
import { LIMITS } from './auth/rate-limit';
import { dataOf, expectError, uniqueClient, uniqueEmail, useTestApp } from './test-app';
import { createUser } from './users';

const t = useTestApp();
const PASSWORD = 'password-123';
const MINUTE = 60 * 1000;

/** An account that signs in by code only (no password), its address proven. */
async function passwordlessAccount() {
  const email = uniqueEmail();
  const now = t.clock.current;
  await createUser(t.db, { email, passwordHash: null, role: 'user', verifiedAt: now, now });
  return email;
}

/** A six-digit code that none of `codes` is. */
function wrongCode(codes: (string | null)[]): string {
  for (let n = 100000; ; n += 1) if (!codes.includes(String(n))) return String(n);
}

/** The codes of `kind` mailed to `email` so far, newest first. */
async function mailedCodes(email: string, kind: 'login' | 'reset') {
  await t.deliverMail();
  return t.mailbox
    .list(email)
    .filter((m) => m.kind === kind)
    .map((m) => m.code);
}

const flows = [
  {
    name: 'code sign-in',
    kind: 'login' as const,
    ask: '/v1/auth/request-login-code',
    use: (client: ReturnType<typeof t.from>, email: string, code: string) =>
      client.post('/v1/auth/login', { email, code }),
  },
  {
    name: 'password reset',
    kind: 'reset' as const,
    ask: '/v1/users/reset-password',
    use: (client: ReturnType<typeof t.from>, email: string, code: string) =>
      client.patch('/v1/users/password-by-code', { email, code, password: 'a-new-passphrase' }),
  },
];

describe.each(flows)('$name: strangers filling the limits of an address', (flow) => {
  /**
   * One stranger's address fills the address's issuing limit, a second one spends the guesses
   * other clients have on those codes.
   */
  async function attack(email: string, asker = t.from()) {
    for (let i = 0; i < MAX_CODES_PER_WINDOW; i += 1) {
      dataOf(await asker.post(flow.ask, { email }));
      t.advance(1000);
    }
    const guesser = t.from();
    const wrong = wrongCode(await mailedCodes(email, flow.kind));
    for (let i = 0; i < 5; i += 1) {
      // Refused as wrong, or (in later rounds) as too many.
      const guess = await flow.use(guesser, email, wrong);
      expect([flow.kind === 'login' ? 401 : 400, 429]).toContain(guess.status);
    }
  }

  it('the right mailed code works from the owner’s own network', async () => {
    const email = await passwordlessAccount();
    await attack(email);
    const [newest] = await mailedCodes(email, flow.kind);
    dataOf(await flow.use(t.from(), email, newest!));
  });

  it('the owner asking for a code gets one that works, round after round', async () => {
    const email = await passwordlessAccount();
    const owner = t.from();
    // The stranger renews the attack every window, within 20 mails an hour from one address.
    const asker = t.from();
    for (let round = 0; round < 4; round += 1) {
      await attack(email, asker);
      expect(dataOf(await owner.post(flow.ask, { email }))).toEqual({ sent: true });
      const [newest] = await mailedCodes(email, flow.kind);
      dataOf(await flow.use(owner, email, newest!));
      t.advance(RATE_WINDOW_MS + 1000);
    }
  });

  it('a mail the owner asks for past the limit carries a code that works', async () => {
    const email = await passwordlessAccount();
    await attack(email);
    const sent = (await mailedCodes(email, flow.kind)).length;
    t.advance(MINUTE);
    const owner = t.from();
    dataOf(await owner.post(flow.ask, { email }));
    const codes = await mailedCodes(email, flow.kind);
    expect(codes).toHaveLength(sent + 1);
    dataOf(await flow.use(owner, email, codes[0]!));
  });
});

describe('a stranger asking for codes before the address has an account', () => {
  it('leaves the owner signing up and in by code', async () => {
    const email = uniqueEmail();
    const stranger = t.from();
    for (let i = 0; i < MAX_CODES_PER_WINDOW; i += 1) {
      dataOf(await stranger.post('/v1/auth/request-login-code', { email }));
      t.advance(1000);
    }
    const owner = t.from();
    dataOf(await owner.post('/v1/auth/signup/passwordless', { email }));
    const code = (await t.lastMail(email, 'login')).code!;
    authResultSchema.parse(dataOf(await owner.post('/v1/auth/login', { email, code })));
  });
});

describe('a distributed password guesser', () => {
  it('cannot keep the owner’s right password refused: about ten addresses, for an hour', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const attackers = Array.from({ length: 12 }, () => t.from());
    const owner = t.from();
    // Wrong passwords checked in the second half hour, when every attacker is past its free ones.
    let late = 0;
    for (let minute = 0; minute < 60; minute += 1) {
      for (const attacker of attackers) {
        const body = { email, password: `wrong-password-${minute}` };
        const status = (await attacker.post('/v1/auth/login', body)).status;
        if (status === 401 && minute >= 30) late += 1;
      }
      if (minute >= 30 && minute % 10 === 0) {
        // Right after the attackers' attempts of this minute.
        authResultSchema.parse(
          dataOf(await owner.post('/v1/auth/login', { email, password: PASSWORD })),
        );
      }
      t.advance(MINUTE);
    }
    // The address-wide limit still holds them: at most one every five minutes.
    expect(LIMITS.passwordPerAddress.backoff).toMatchObject({ maxDelayMs: 5 * MINUTE });
    expect(late).toBeLessThanOrEqual(6);
    // An hour of a sustained attack is 720 sign-ins, each through every limit: about 10 s on a
    // quiet 2-core machine, three times that on a busy one.
  }, 120_000);
});

describe('strangers filling the server-wide ceilings', () => {
  it('leave the owner’s right code working from a network of their own', async () => {
    const email = await passwordlessAccount();
    // Fifty networks, ten wrong codes each at made-up addresses: the ceiling of the hour.
    for (let network = 0; network < 50; network += 1) {
      const stranger = t.from();
      for (let i = 0; i < 10; i += 1) {
        const guess = { email: uniqueEmail(), code: String(100000 + i) };
        expect([401, 429]).toContain((await stranger.post('/v1/auth/login', guess)).status);
      }
    }
    const owner = t.from();
    dataOf(await owner.post('/v1/auth/request-login-code', { email }));
    const [code] = await mailedCodes(email, 'login');
    authResultSchema.parse(dataOf(await owner.post('/v1/auth/login', { email, code })));
    // Another stranger's network is held by the ceiling once past its own few wrong codes.
    const late = t.from();
    const guess = () => late.post('/v1/auth/login', { email: uniqueEmail(), code: '123456' });
    for (let i = 0; i < 3; i += 1) expectError(await guess(), 401);
    expectError(await guess(), 429, 'TOO_MANY_ATTEMPTS');
  }, 120_000);

  it('leave the owner’s right password working from a network of their own', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    // The ceiling's 1000 wrong passwords of the quarter hour, as strangers' networks left them
    // (each is a password hash checked: a thousand requests would take minutes here).
    await t.db.query(
      `INSERT INTO rate_limit_events (key, created_at)
       SELECT 'password:*', $1 FROM generate_series(1, $2)`,
      [t.clock.current, LIMITS.passwordGlobal.max],
    );
    const owner = t.from();
    authResultSchema.parse(
      dataOf(await owner.post('/v1/auth/login', { email, password: PASSWORD })),
    );
    // A stranger's network is held by the ceiling once past its own few wrong passwords.
    const stranger = t.from();
    for (let i = 0; i < 5; i += 1) {
      const body = { email: uniqueEmail(), password: `wrong-password-${i}` };
      expectError(await stranger.post('/v1/auth/login', body), 401);
    }
    const body = { email: uniqueEmail(), password: 'wrong-password-5' };
    expectError(await stranger.post('/v1/auth/login', body), 429, 'RATE_LIMITED');
  });
});

describe('strangers who know the password guessing authenticator codes', () => {
  const STEP_MS = 30_000;
  type Network = ReturnType<typeof t.from>;

  /** The code an authenticator with `secret` shows now, or one of none of the accepted steps. */
  function codeOf(secret: string, wrong = false): string {
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    const at = t.clock.current.getTime();
    if (!wrong) return totp.generate({ timestamp: at });
    const right = [-1, 0, 1].map((steps) => totp.generate({ timestamp: at + steps * STEP_MS }));
    return wrongCode(right);
  }

  /** A password account with two-step sign-in on: its secret and recovery codes. */
  async function enrolled() {
    const email = uniqueEmail();
    const now = t.clock.current;
    const passwordHash = await hashPassword(PASSWORD);
    await createUser(t.db, { email, passwordHash, role: 'user', verifiedAt: now, now });
    const { token } = await t.login(email, PASSWORD);
    const { secret } = totpEnrolmentSchema.parse(
      dataOf(await t.post('/v1/users/me/second-factor/totp', { password: PASSWORD }, token)),
    );
    const confirm = { code: codeOf(secret) };
    const { recoveryCodes } = recoveryCodesSchema.parse(
      dataOf(await t.post('/v1/users/me/second-factor/totp/confirm', confirm, token)),
    );
    t.advance(STEP_MS);
    return { email, secret, recoveryCodes };
  }

  /** The password's sign-in from `network`: the challenge its second step answers. */
  async function challengeFrom(network: Network, email: string) {
    const answer = dataOf(await network.post('/v1/auth/login', { email, password: PASSWORD }));
    return secondFactorChallengeSchema.parse(answer).challenge;
  }

  /** Wrong codes from `network`, a new sign-in every 5, until refused: how many were compared. */
  async function guessUntilRefused(network: Network, email: string, secret: string) {
    let challenge = '';
    for (let guesses = 0; guesses < 30; guesses += 1) {
      if (guesses % 5 === 0) challenge = await challengeFrom(network, email);
      const guess = { challenge, code: codeOf(secret, true) };
      const answer = await network.post('/v1/auth/second-factor', guess);
      if (answer.status === 429) return guesses;
      expectError(answer, 401, 'INVALID_SECOND_FACTOR');
    }
    throw new Error('30 wrong codes and never refused');
  }

  it('leave the owner’s right code working from a network of their own', async () => {
    const who = await enrolled();
    // Two networks spend what the account allows all clients, and each its own free guesses.
    const compared = [
      await guessUntilRefused(t.from(), who.email, who.secret),
      await guessUntilRefused(t.from(), who.email, who.secret),
    ];
    expect(compared[0]! + compared[1]!).toBeLessThanOrEqual(3 * 2 + 10);
    const owner = t.from();
    const second = (challenge: string, code: string) =>
      owner.post('/v1/auth/second-factor', { challenge, code });
    authResultSchema.parse(
      dataOf(await second(await challengeFrom(owner, who.email), codeOf(who.secret))),
    );
    // The owner's own wrong codes still meet the account's limit once past their free ones.
    t.advance(STEP_MS);
    const challenge = await challengeFrom(owner, who.email);
    for (let i = 0; i < 3; i += 1) {
      expectError(await second(challenge, codeOf(who.secret, true)), 401);
    }
    expectError(await second(challenge, codeOf(who.secret)), 429, 'TOO_MANY_ATTEMPTS');
    // A recovery code still signs in.
    authResultSchema.parse(dataOf(await second(challenge, who.recoveryCodes[0]!)));
  });

  it('count under the server-wide ceiling, which refuses no owner', async () => {
    const who = await enrolled();
    // The ceiling's wrong codes of the hour, as strangers' networks left them.
    await t.db.query(
      `INSERT INTO rate_limit_events (key, created_at)
       SELECT 'code:*', $1 FROM generate_series(1, $2)`,
      [t.clock.current, LIMITS.codeGuessesGlobal.max],
    );
    const owner = t.from();
    const challenge = await challengeFrom(owner, who.email);
    const code = codeOf(who.secret);
    authResultSchema.parse(dataOf(await owner.post('/v1/auth/second-factor', { challenge, code })));
    // A stranger's network is held by the ceiling once past its own few wrong codes.
    expect(await guessUntilRefused(t.from(), who.email, who.secret)).toBe(3);
  });
});

describe('client addresses', () => {
  it('an IPv6 network is one client: addresses of one /64 share their limits', async () => {
    const signUp = (client: string) =>
      t.request('POST', '/v1/auth/signup', { body: {}, headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < LIMITS.anonymousSignupPerClient.max; i += 1) {
      dataOf(await signUp(`2001:db8:7:1::${(i + 1).toString(16)}`));
    }
    expectError(await signUp('2001:db8:7:1:ffff:ffff:ffff:ffff'), 429, 'RATE_LIMITED');
    expectError(await signUp('2001:0DB8:0007:0001:0:0:0:abcd'), 429, 'RATE_LIMITED');
    dataOf(await signUp('2001:db8:7:2::1'));
  });

  it('the sessions list still shows the address itself', async () => {
    const email = uniqueEmail();
    await t.signUp(email);
    const headers = { 'x-forwarded-for': '2001:db8:7:9::abc' };
    const body = { email, password: PASSWORD };
    const session = authResultSchema.parse(
      dataOf(await t.request('POST', '/v1/auth/login', { body, headers })),
    );
    const sessions = dataOf(await t.get('/v1/users/me/sessions', session.token));
    expect(sessions).toContainEqual(
      expect.objectContaining({ current: true, clientAddress: '2001:db8:7:9::abc' }),
    );
  });

  it('an IPv4 client seen through IPv6 (::ffff:a.b.c.d) is that IPv4 client', async () => {
    const ipv4 = uniqueClient();
    const signUp = (client: string) =>
      t.request('POST', '/v1/auth/signup', { body: {}, headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < LIMITS.anonymousSignupPerClient.max; i += 1) {
      dataOf(await signUp(i % 2 === 0 ? ipv4 : `::ffff:${ipv4}`));
    }
    expectError(await signUp(ipv4), 429, 'RATE_LIMITED');
    expectError(await signUp(`::FFFF:${ipv4}`), 429, 'RATE_LIMITED');
  });
});

/**
 * What the Idempotency-Key store keeps (server/http/idempotency.ts): nothing a copy of its table
 * could turn into a second factor or a password. Routes whose answer carries a secret keep no
 * row, and the request's fingerprint is keyed by the server secret.
 */
import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { recoveryCodesSchema, totpEnrolmentSchema } from '../contract/account-schemas';
import { ROUTES } from '../contract/routes';
import { MAX_KEYS_PER_USER } from './http/idempotency';
import { dataOf, useTestApp } from './test-app';

const t = useTestApp();
const PASSWORD = 'password-123';

let counter = 0;
const uniqueKey = () => `secret-key-${process.pid}-${(counter += 1)}`;

const keyed = (path: string, body: unknown, token: string, key: string) =>
  t.request('POST', path, { body, token, headers: { 'idempotency-key': key } });

/** A verified user, signed in with PASSWORD (t.loginAs's). */
async function account() {
  const { _id: id, token } = await t.loginAs('user');
  return { id, token };
}

/** Every row the store keeps for `userId`, as a copy of the database would show it. */
async function keptRows(userId: string) {
  const { rows } = await t.db.query<{ request_hash: string; body: string | null }>(
    'SELECT request_hash, body FROM idempotency_keys WHERE user_id = $1',
    [userId],
  );
  return rows;
}

describe('Idempotency-Key and secrets', () => {
  it('keeps nothing of an authenticator enrolment: no secret, no recovery code, no password', async () => {
    const who = await account();
    const enrolment = await keyed(
      '/v1/users/me/second-factor/totp',
      { password: PASSWORD },
      who.token,
      uniqueKey(),
    );
    const { secret } = totpEnrolmentSchema.parse(dataOf(enrolment));
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    const confirmKey = uniqueKey();
    const code = totp.generate({ timestamp: t.clock.current.getTime() });
    const confirm = await keyed(
      '/v1/users/me/second-factor/totp/confirm',
      { code },
      who.token,
      confirmKey,
    );
    const { recoveryCodes } = recoveryCodesSchema.parse(dataOf(confirm));

    const dump = JSON.stringify(await keptRows(who.id));
    expect(dump).not.toContain(secret);
    for (const recovery of recoveryCodes) expect(dump).not.toContain(recovery);
    expect(await keptRows(who.id)).toEqual([]);

    // The same key and body again is a request of its own: the codes are not handed out again.
    const replay = await keyed(
      '/v1/users/me/second-factor/totp/confirm',
      { code },
      who.token,
      confirmKey,
    );
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
    expect(JSON.stringify(replay.body)).not.toContain(recoveryCodes[0]!);
  });

  it("fingerprints a body that holds the password with the server's key, not a bare hash", async () => {
    const who = await account();
    const body = { password: PASSWORD };
    const check = await keyed('/v1/auth/password-id-verification', body, who.token, uniqueKey());
    expect(check.status).toBe(200);
    const rows = await keptRows(who.id);
    expect(rows).toHaveLength(1);
    const bare = createHash('sha256')
      .update(`POST /v1/auth/password-id-verification\n${JSON.stringify(body)}`)
      .digest('hex');
    expect(rows[0]!.request_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.request_hash).not.toBe(bare);
  });

  it('holds at most MAX_KEYS_PER_USER keys a user, letting go of the oldest', async () => {
    const { token, _id } = await t.loginAs('admin');
    const at = t.clock.current.getTime();
    // A user who already holds as many keys as they may, each a second older than the next.
    await t.db.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, status, headers, body, created_at)
       SELECT $1, 'old-' || n, 'x', 200, '{}', '{}', $2::timestamptz - n * interval '1 second'
       FROM generate_series(1, $3::int) AS n`,
      [_id, new Date(at - 1000), MAX_KEYS_PER_USER],
    );
    const name = `Capped tag ${process.pid} ${(counter += 1)}`;
    const key = uniqueKey();
    expect((await keyed('/v1/tags', { name }, token, key)).status).toBe(200);
    const { rows } = await t.db.query<{ key: string }>(
      'SELECT key FROM idempotency_keys WHERE user_id = $1',
      [_id],
    );
    const keys = new Set(rows.map((row) => row.key));
    expect(keys.size).toBe(MAX_KEYS_PER_USER);
    expect(keys.has(key)).toBe(true);
    expect(keys.has(`old-${MAX_KEYS_PER_USER}`)).toBe(false);
    expect(keys.has('old-1')).toBe(true);
    // The new key still answers its retry.
    const again = await keyed('/v1/tags', { name }, token, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

/** Property names of an answer that hold a secret wherever they appear. */
const SECRET_NAMES = /^(secret|recoveryCodes|token|refreshToken)$/;

/** Whether a JSON Schema names a secret property at any depth. */
function namesSecret(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const entries: [string, unknown][] = Object.entries(schema);
  return entries.some(
    ([name, value]) =>
      (name === 'properties' &&
        Object.keys(value ?? {}).some((property) => SECRET_NAMES.test(property))) ||
      namesSecret(value),
  );
}

describe('The route table', () => {
  it('declares `secret` on every signed-in POST whose answer carries one', () => {
    const undeclared = ROUTES.filter(
      (route) =>
        route.auth === 'bearer' &&
        route.method === 'post' &&
        !route.secret &&
        route.answer !== undefined &&
        namesSecret(z.toJSONSchema(route.answer)),
    ).map((route) => `${route.method} ${route.path}`);
    expect(undeclared).toEqual([]);
  });
});

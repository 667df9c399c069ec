/**
 * Idempotency-Key: a create sent again with the key of one that was carried out answers the
 * first answer again instead of being applied twice; the key with another request is refused.
 */
import { describe, expect, it } from 'vitest';
import { expectError, uniqueEmail, useTestApp } from './test-app';

const t = useTestApp();

let counter = 0;
const uniqueKey = () => `key-${process.pid}-${(counter += 1)}`;
const uniqueName = () => `Tag ${process.pid} ${(counter += 1)}`;

async function createTag(token: string, name: string, key: string | undefined) {
  return t.request('POST', '/v1/tags', {
    token,
    body: { name },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });
}

async function tagsNamed(name: string): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM tags WHERE name = $1',
    [name],
  );
  return rows[0]!.n;
}

describe('Idempotency-Key', () => {
  it('answers a create sent twice with one key with the first answer, applied once', async () => {
    const { token } = await t.loginAs('admin');
    const name = uniqueName();
    const key = uniqueKey();
    const first = await createTag(token, name, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await createTag(token, name, key);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await tagsNamed(name)).toBe(1);
  });

  it('refuses the key with another body (422) and applies nothing', async () => {
    const { token } = await t.loginAs('admin');
    const key = uniqueKey();
    expect((await createTag(token, uniqueName(), key)).status).toBe(200);
    const other = uniqueName();
    expectError(await createTag(token, other, key), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await tagsNamed(other)).toBe(0);
  });

  it("keeps keys per user: another user's same key is a request of its own", async () => {
    const key = uniqueKey();
    const admin = await t.loginAs('admin');
    const developer = await t.loginAs('developer');
    const first = await createTag(admin.token, uniqueName(), key);
    expect(first.status).toBe(200);
    const name = uniqueName();
    const theirs = await createTag(developer.token, name, key);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.body).not.toEqual(first.body);
    expect(await tagsNamed(name)).toBe(1);
  });

  it('forgets a key after 24 hours: the request is carried out again', async () => {
    const { email, token } = await t.loginAs('admin');
    // Signed in again after each move of the clock, whose access tokens have expired.
    const tokenNow = async () => (await t.login(email!, 'password-123')).token;
    const name = uniqueName();
    const key = uniqueKey();
    expect((await createTag(token, name, key)).status).toBe(200);
    t.advance(23 * 3600_000);
    const replay = await createTag(await tokenNow(), name, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    t.advance(3600_000 + 1000);
    // Carried out again: the name is taken by the first create now.
    expectError(await createTag(await tokenNow(), name, key), 409);
  });

  it('lets a key be used again after a refusal that may pass later (bad input)', async () => {
    const { token } = await t.loginAs('admin');
    const key = uniqueKey();
    expectError(await createTag(token, '', key), 400);
    const name = uniqueName();
    expect((await createTag(token, name, key)).status).toBe(200);
    expect(await tagsNamed(name)).toBe(1);
  });

  it('applies two identical creates sent at once a single time', async () => {
    const { token } = await t.loginAs('admin');
    const name = uniqueName();
    const key = uniqueKey();
    const answers = await Promise.all([1, 2, 3].map(() => createTag(token, name, key)));
    expect(await tagsNamed(name)).toBe(1);
    for (const answer of answers) {
      if (answer.status === 409) {
        expectError(answer, 409, 'IDEMPOTENCY_KEY_IN_USE');
        expect(answer.headers.get('retry-after')).toBe('1');
      } else {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      }
    }
  });

  it('refuses a key that is not 1 to 255 visible characters', async () => {
    const { token } = await t.loginAs('admin');
    expectError(await createTag(token, uniqueName(), 'x'.repeat(256)), 400, 'VALIDATION_ERROR');
    expectError(await createTag(token, uniqueName(), 'a key'), 400, 'VALIDATION_ERROR');
  });

  it('does not keep answers of requests without a signed-in user', async () => {
    const key = uniqueKey();
    const email = uniqueEmail();
    const body = { email, password: 'password-123-long' };
    const headers = { 'idempotency-key': key };
    const first = await t.request('POST', '/v1/auth/signup', { body, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await t.request('POST', '/v1/auth/signup', { body, headers });
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });
});

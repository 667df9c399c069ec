/**
 * Idempotency-Key: a create sent again with the key of one that was carried out answers the
 * first answer again instead of being applied twice; the key with another request is refused.
 */
import { describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, type Db } from './db';
import { newId } from './ids';
import type { MailMessage } from './mail';
import { expectError, uniqueClient, uniqueEmail, useTestApp } from './test-app';

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

/**
 * The test app's database, except that the first transaction that inserts into `table` after
 * `arm()` commits and then fails as a connection lost at that moment does: the create is stored,
 * its server hears only that the database went away.
 */
function dyingAfterCommit(db: Db, table: string) {
  const insert = new RegExp(`^\\s*INSERT INTO ${table}\\b`, 'i');
  let armed = false;
  const wrapped: Db = {
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    listen: (...args) => db.listen(...args),
    close: () => db.close(),
    transaction: async (fn) => {
      let inserted = false;
      const result = await db.transaction((tx) => {
        const watched: Db = {
          ...tx,
          query: (sql, params) => {
            if (insert.test(sql)) inserted = true;
            return tx.query(sql, params);
          },
          // A nested transaction joins this one.
          transaction: (inner) => inner(watched),
        };
        return fn(watched);
      });
      if (armed && inserted) {
        armed = false;
        throw new DatabaseUnavailableError(new Error('Connection terminated unexpectedly'));
      }
      return result;
    },
  };
  return { db: wrapped, arm: () => (armed = true) };
}

/** An asset stored directly, with a model address (morph generate reads no file). */
async function storedAsset(type: string, extra: { isTemplate?: boolean } = {}): Promise<string> {
  const id = newId();
  await t.db.query(
    `INSERT INTO assets (id, name, type, gender, model_url, is_template, position, created_at,
       updated_at)
     SELECT $1, $1, $2, 'female', '/files/model.glb', $3, COALESCE(max(position), 0) + 1, $4, $4
     FROM assets`,
    [id, type, extra.isTemplate ?? false, t.clock.current],
  );
  return id;
}

describe('Idempotency-Key when the connection dies right after a create commits', () => {
  const creates: {
    what: string;
    table: string;
    /** What identifies a created row (an SQL expression over `table`). */
    rowKey?: string;
    request: () => { path: string; body: unknown } | Promise<{ path: string; body: unknown }>;
    /** The created rows' keys the answer names. */
    answered?: (data: unknown) => string[];
  }[] = [
    {
      what: 'an asset',
      table: 'assets',
      request: () => ({
        path: '/v1/assets',
        body: { name: uniqueName(), type: 'top', gender: 'male' },
      }),
    },
    {
      what: 'a tag',
      table: 'tags',
      request: () => ({ path: '/v1/tags', body: { name: uniqueName() } }),
    },
    {
      what: 'an application',
      table: 'applications',
      request: () => ({ path: '/private/v1/applications', body: { name: uniqueName() } }),
    },
    {
      what: 'a cage mesh',
      table: 'cage_meshes',
      request: () => ({
        path: '/v1/cage-meshes',
        body: { name: uniqueName(), gender: 'female' },
      }),
    },
    {
      what: 'an invitation',
      table: 'invitations',
      request: () => ({
        path: '/private/v1/invitations',
        body: { email: uniqueEmail('invited'), role: 'developer' },
      }),
    },
    {
      what: 'a bulk job',
      table: 'bulk_jobs',
      request: () => ({
        path: '/v1/bulk-jobs',
        body: { action: 'lock', filter: { search: uniqueName() } },
      }),
    },
    {
      what: 'an asset from a template',
      table: 'assets',
      request: async () => ({
        path: '/private/v1/assets/using-template',
        body: { templateId: await storedAsset('top', { isTemplate: true }), name: uniqueName() },
      }),
    },
    {
      what: "a user's assets",
      table: 'user_assets',
      rowKey: `user_id || '/' || asset_id`,
      request: async () => ({
        path: `/private/v1/user-assets/${(await t.signUp())._id}`,
        body: { assetIds: [await storedAsset('top'), await storedAsset('shoes')] },
      }),
      answered: (data) => {
        const { userId, assetIds } = data as { userId: string; assetIds: string[] };
        return assetIds.map((assetId) => `${userId}/${assetId}`);
      },
    },
    {
      what: 'morph jobs',
      table: 'morph_queue',
      request: async () => ({
        path: '/v1/morphed-assets/generate',
        body: {
          sourceAssetId: await storedAsset('top'),
          bodyAssetIds: [await storedAsset('body'), await storedAsset('body')],
        },
      }),
      answered: (data) => (data as { id: string }[]).map((entry) => entry.id),
    },
  ];

  for (const { what, table, rowKey = 'id', request, answered } of creates) {
    it(`answers the retry of ${what} with the first answer, created once`, async () => {
      const { token } = await t.loginAs('admin');
      const faulty = dyingAfterCommit(t.db, table);
      const { path, body } = await request();
      const send = sender(faulty.db, token, path, body);
      const rows = async () =>
        new Set(
          (await t.db.query<{ key: string }>(`SELECT ${rowKey} AS key FROM ${table}`)).rows.map(
            (r) => r.key,
          ),
        );
      const before = await rows();
      faulty.arm();
      const first = await send();
      expect(first.status, JSON.stringify(first.body)).toBe(503);
      const retry = await send();
      expect(retry.status, JSON.stringify(retry.body)).toBeLessThan(300);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      const created = [...(await rows())].filter((id) => !before.has(id));
      const named = answered?.(retry.body.data) ?? [(retry.body.data as { id: string }).id];
      expect(created.sort()).toEqual(named.sort());
    });
  }
});

/**
 * A POST of `body` to `path` with one Idempotency-Key each time it is called, as a client sends
 * it again after a 503, served by an app on `db`.
 */
function sender(db: Db, token: string, path: string, body: unknown) {
  const app = t.createApp({
    db,
    mail: t.mailbox,
    config: t.config,
    now: () => new Date(t.clock.current),
    storage: t.storage,
    events: t.events,
    sessions: t.sessions,
  });
  const key = uniqueKey();
  const payload = JSON.stringify(body);
  return async () => {
    const response = await app.request(path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'idempotency-key': key,
        'x-forwarded-for': uniqueClient(),
      },
      body: payload,
    });
    const answer = (await response.json()) as { data: unknown };
    return { status: response.status, headers: response.headers, body: answer };
  };
}

/** The mails of `kind` queued (not yet sent) for `email`. */
async function queuedMails(email: string, kind: string): Promise<MailMessage[]> {
  const { rows } = await t.db.query<{ message: unknown }>('SELECT message FROM mail_outbox');
  return rows
    .map(
      (row) =>
        (typeof row.message === 'string' ? JSON.parse(row.message) : row.message) as MailMessage,
    )
    .filter((message) => message.to === email.toLowerCase() && message.kind === kind);
}

describe('Idempotency-Key of a call that mails, when the connection dies right after it commits', () => {
  const calls: {
    what: string;
    /** A table the call inserts into in its transaction. */
    table: string;
    kind: string;
    /** The call, by an admin unless it names `token`, to mail `kind` to `email`. */
    request: () => Promise<{ path: string; email: string; body?: unknown; token?: string }>;
  }[] = [
    {
      what: 'an invitation resent',
      table: 'asset_events',
      kind: 'invitation',
      request: async () => {
        const { token } = await t.loginAs('admin');
        const email = uniqueEmail('invited');
        const created = await t.post('/private/v1/invitations', { email, role: 'user' }, token);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const { id } = (created.body as { data: { id: string } }).data;
        return { path: `/private/v1/invitations/${id}/resend`, email };
      },
    },
    {
      what: "an admin's password reset code",
      table: 'one_time_codes',
      kind: 'reset',
      request: async () => {
        const { _id, email } = await t.signUp();
        return { path: `/private/v1/users/${_id}/reset-password`, email: email! };
      },
    },
    {
      what: "an admin's verification code sent again",
      table: 'one_time_codes',
      kind: 'verify',
      request: async () => {
        const { _id, email } = await t.signUp();
        return { path: `/private/v1/users/${_id}/resend-verification`, email: email! };
      },
    },
    {
      what: 'a change of e-mail address asked for',
      table: 'one_time_codes',
      kind: 'email',
      request: async () => {
        const { token } = await t.signUp();
        const email = uniqueEmail('moved');
        return {
          path: '/v1/users/me/email',
          email,
          token,
          body: { email, password: 'password-123' },
        };
      },
    },
    {
      what: 'a change of e-mail address confirmed (the old address hears of it)',
      table: 'asset_events',
      kind: 'notice',
      request: async () => {
        const { email, token } = await t.signUp();
        const next = uniqueEmail('moved');
        const asked = await t.post(
          '/v1/users/me/email',
          { email: next, password: 'password-123' },
          token,
        );
        expect(asked.status, JSON.stringify(asked.body)).toBe(200);
        const { code, verificationId } = await t.lastMail(next, 'email');
        return {
          path: '/v1/users/me/email/confirm',
          email: email!,
          token,
          body: { verificationId, code },
        };
      },
    },
  ];

  for (const { what, table, kind, request } of calls) {
    it(`answers the retry of ${what} with the first answer, mailed once`, async () => {
      const { path, email, body = {}, token = (await t.loginAs('admin')).token } = await request();
      // What was mailed before (the invitation, the sign-up's code) is out of the outbox.
      await t.deliverMail();
      const faulty = dyingAfterCommit(t.db, table);
      const send = sender(faulty.db, token, path, body);
      faulty.arm();
      const first = await send();
      expect(first.status, JSON.stringify(first.body)).toBe(503);
      const retry = await send();
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      const mails = await queuedMails(email, kind);
      expect(mails).toHaveLength(1);
      if (kind === 'invitation') {
        // The link mailed is the invitation's link now: the renewal was not done twice.
        const token = new URL(mails[0]!.link ?? '').searchParams.get('token');
        const lookup = await t.post('/v1/invitations/lookup', { token });
        expect(lookup.status, JSON.stringify(lookup.body)).toBe(200);
      }
    });
  }
});

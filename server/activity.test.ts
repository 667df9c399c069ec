/**
 * The activity log (GET /v1/activity): every kind of record's events recorded with the change
 * and its actor (tags, applications, user administration beside assets), what each role may
 * read of it, its filters, the state of the record each row names, and the asset changelog
 * naming the other side of a relation.
 */
import { describe, expect, it } from 'vitest';
import {
  activityRowSchema,
  assetEventSchema,
  assetSchema,
  listResponseSchema,
  tagRowSchema,
  type ActivityRow,
} from '../contract/schemas';
import { recordApplicationEvent, recordUserEvent } from './events';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);
const activityPage = listResponseSchema(activityRowSchema);

async function activity(query: string, token = tokens.admin): Promise<ActivityRow[]> {
  const response = await t.get(`/v1/activity?limit=100&${query}`, token);
  expect(response.status).toBe(200);
  return activityPage.parse(response.body).data;
}

const keysOf = (rows: ActivityRow[]) => rows.map((row) => row.routingKey);

async function newTag(name: string, token = tokens.admin) {
  return tagRowSchema.parse(dataOf(await t.post('/v1/tags', { name }, token)));
}

async function adminId() {
  return (dataOf(await t.get('/v1/users/me', tokens.admin)) as { _id: string })._id;
}

describe('tags', () => {
  it('records created, renamed, deleted and restored with the actor; the row follows the tag', async () => {
    const tag = await newTag('Activity Alpha');
    const actorId = await adminId();
    dataOf(
      await t.request('PUT', `/v1/tags/${tag.id}`, {
        body: { name: 'Activity Beta' },
        token: tokens.developer,
      }),
    );
    let rows = await activity(`recordId=${tag.id}`);
    expect(keysOf(rows)).toEqual(['tag.renamed.v1', 'tag.created.v1']);
    expect(rows[0]).toMatchObject({
      actorId: tokens.developerId,
      data: { changes: { name: { from: 'Activity Alpha', to: 'Activity Beta' } } },
      subject: { kind: 'tag', id: tag.id, name: 'Activity Beta', state: 'live' },
    });
    expect(rows[1]).toMatchObject({ actorId, data: { name: 'Activity Alpha' } });
    expect(rows[1]!.actorEmail).toMatch(/^admin/);

    dataOf(await t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.admin }));
    rows = await activity(`recordId=${tag.id}`);
    expect(keysOf(rows)[0]).toBe('tag.deleted.v1');
    // In the Trash: every row of the tag says so, and still names it.
    for (const row of rows) {
      expect(row.subject).toMatchObject({ state: 'trash', name: 'Activity Beta' });
    }

    dataOf(await t.post(`/v1/tags/${tag.id}/restore`, {}, tokens.admin));
    rows = await activity(`recordId=${tag.id}`);
    expect(keysOf(rows)).toEqual([
      'tag.restored.v1',
      'tag.deleted.v1',
      'tag.renamed.v1',
      'tag.created.v1',
    ]);
    expect(rows[0]!.subject.state).toBe('live');

    dataOf(await t.request('DELETE', `/v1/tags/${tag.id}`, { token: tokens.admin }));
    dataOf(await t.request('DELETE', `/v1/trash/tag/${tag.id}`, { token: tokens.admin }));
    rows = await activity(`recordId=${tag.id}`);
    // Gone for good: the name the events carried is all that is left.
    expect(rows[0]!.subject).toMatchObject({ state: 'gone', name: 'Activity Beta' });
  });

  it('a refused change records nothing; a rename to the same name records nothing', async () => {
    const taken = await newTag('Activity Taken');
    const tag = await newTag('Activity Free');
    const rename = (name: string) =>
      t.request('PUT', `/v1/tags/${tag.id}`, { body: { name }, token: tokens.admin });
    expectError(await rename('activity taken'), 409, 'CONFLICT');
    expectError(await t.post('/v1/tags', { name: 'ACTIVITY TAKEN' }, tokens.admin), 409);
    dataOf(await rename('Activity Free'));
    expect(keysOf(await activity(`recordId=${tag.id}`))).toEqual(['tag.created.v1']);
    expect(keysOf(await activity(`recordId=${taken.id}`))).toEqual(['tag.created.v1']);
  });
});

describe('user administration', () => {
  it('records a role change and sessions an admin ended; only admins read them', async () => {
    const person = await t.loginAs('user');
    const patch = (role: string) =>
      t.patch(`/private/v1/users/${person._id}`, { role }, tokens.admin);
    dataOf(await patch('developer'));
    // The same role again changes nothing, and records nothing.
    dataOf(await patch('developer'));
    dataOf(
      await t.request('DELETE', `/private/v1/users/${person._id}/sessions`, {
        token: tokens.admin,
      }),
    );
    // None left: nothing ended, nothing recorded.
    dataOf(
      await t.request('DELETE', `/private/v1/users/${person._id}/sessions`, {
        token: tokens.admin,
      }),
    );

    const rows = await activity(`recordId=${person._id}`);
    expect(keysOf(rows)).toEqual(['user.sessions-ended.v1', 'user.role-changed.v1']);
    expect(rows[0]).toMatchObject({
      actorId: await adminId(),
      data: { ended: 1 },
      subject: { kind: 'user', id: person._id, state: 'live' },
    });
    expect(rows[0]!.subject.name).toMatch(/^user/);
    expect(rows[1]!.data).toEqual({ changes: { role: { from: 'user', to: 'developer' } } });

    // A developer reads the catalogue's activity, not who was given which role.
    expect(await activity(`recordId=${person._id}`, tokens.developer)).toEqual([]);
    expect(await activity('kind=user', tokens.developer)).toEqual([]);
  });

  it('records disabling, enabling (one or in bulk) and a reset code sent by an admin', async () => {
    const person = await t.loginAs('user');
    const post = (path: string, json?: unknown) =>
      t.request('POST', `/private/v1/users/${path}`, { token: tokens.admin, body: json ?? {} });
    dataOf(await post(`${person._id}/disable`));
    dataOf(await post('bulk-enable', { ids: [person._id] }));
    // Already enabled: nothing changes, nothing is recorded.
    dataOf(await post(`${person._id}/enable`));
    dataOf(await post(`${person._id}/reset-password`));
    const rows = await activity(`recordId=${person._id}`);
    expect(keysOf(rows)).toEqual([
      'user.password-reset-sent.v1',
      'user.enabled.v1',
      'user.disabled.v1',
    ]);
    expect(new Set(rows.map((row) => row.actorId))).toEqual(new Set([await adminId()]));
    expect(await activity(`recordId=${person._id}`, tokens.developer)).toEqual([]);
  });

  it('involves: what a user did, what was done to their account and their assets, nobody else’s', async () => {
    const person = await t.loginAs('developer');
    const other = await t.loginAs('user');
    const tag = await newTag(`involved ${Date.now()}`, person.token);
    dataOf(await t.patch(`/private/v1/users/${person._id}`, { role: 'user' }, tokens.admin));
    await newTag(`not involved ${Date.now()}`);
    const { rows: assets } = await t.db.query<{ id: string }>('SELECT id FROM assets LIMIT 1');
    const assign = (userId: string) =>
      t.post(`/private/v1/user-assets/${userId}`, { assetIds: [assets[0]!.id] }, tokens.admin);
    dataOf(await assign(person._id));
    dataOf(await assign(other._id));
    const rows = await activity(`involves=${person._id}`);
    expect(keysOf(rows)).toEqual([
      'asset.user-assets-added.v1',
      'user.role-changed.v1',
      'tag.created.v1',
    ]);
    expect(rows[0]).toMatchObject({ data: { userId: person._id }, subject: { kind: 'asset' } });
    expect(rows[1]!.subject).toMatchObject({ kind: 'user', id: person._id });
    expect(rows[2]).toMatchObject({ actorId: person._id, subject: { kind: 'tag', id: tag.id } });
    // Filters combine: only what the user did themselves to tags.
    expect(keysOf(await activity(`involves=${person._id}&kind=tag`))).toEqual(['tag.created.v1']);
  });

  it('recordUserEvent (for the users screens) records in the caller’s transaction, or not at all', async () => {
    const person = await t.loginAs('user');
    const at = t.clock.current;
    const actorId = await adminId();
    await t.db
      .transaction(async (tx) => {
        await recordUserEvent(tx, { userId: person._id, event: 'disabled', actorId, at });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    expect(await activity(`recordId=${person._id}`)).toEqual([]);
    await t.db.transaction((tx) =>
      recordUserEvent(tx, { userId: person._id, event: 'disabled', actorId, at }),
    );
    expect(keysOf(await activity(`recordId=${person._id}`))).toEqual(['user.disabled.v1']);
  });
});

describe('who may read it', () => {
  it('needs update Asset: 401 without a token, 403 for users and guests', async () => {
    expectError(await t.get('/v1/activity'), 401);
    expectError(await t.get('/v1/activity', tokens.user), 403, 'FORBIDDEN');
    expectError(await t.get('/v1/activity', tokens.anonymous), 403, 'FORBIDDEN');
  });

  it('an application event reaches whoever reads applications, and names the application', async () => {
    const { rows } = await t.db.query<{ id: string; name: string }>(
      'SELECT id, name FROM applications ORDER BY name LIMIT 1',
    );
    const application = rows[0]!;
    await recordApplicationEvent(t.db, {
      applicationId: application.id,
      event: 'updated',
      actorId: tokens.developerId,
      data: { changes: { name: { from: 'Old', to: application.name } } },
      at: t.clock.current,
    });
    const seen = await activity(`recordId=${application.id}&kind=application`, tokens.developer);
    expect(seen[0]).toMatchObject({
      routingKey: 'application.updated.v1',
      subject: { kind: 'application', name: application.name, state: 'live' },
    });
  });
});

describe('filters and order', () => {
  it('newest first; by actor, kind of change, kind of record and date range', async () => {
    t.advance(1000);
    const since = t.clock.current.toISOString();
    const day = since.slice(0, 10);
    const byAdmin = await newTag('Activity Day Admin');
    t.advance(1000);
    const byDeveloper = await newTag('Activity Day Developer', tokens.developer);
    const ids = `recordId=${byAdmin.id}&recordId=${byDeveloper.id}`;

    const both = await activity(`${ids}&from=${day}&to=${day}&kind=tag`);
    expect(both.map((row) => row.subject.id)).toEqual([byDeveloper.id, byAdmin.id]);
    expect(await activity(`from=${since}&kind=asset&kind=user`)).toEqual([]);
    const mine = await activity(`from=${since}&actorId=${tokens.developerId}`);
    expect(mine.map((row) => row.subject.id)).toEqual([byDeveloper.id]);
    const keys = await activity(`${ids}&routingKey=tag.created.v1&routingKey=tag.deleted.v1`);
    expect(keys).toHaveLength(2);
    expect(await activity(`${ids}&routingKey=tag.renamed.v1`)).toEqual([]);
    // `search` looks in the record's name.
    const found = await activity(`from=${since}&search=day%20DEVELOPER`);
    expect(found.map((row) => row.subject.id)).toEqual([byDeveloper.id]);

    // A date and time with its zone bounds to the millisecond; a date-only `to` ends with its day.
    const developerAt = both[0]!.createdAt;
    const after = await activity(`${ids}&from=${developerAt}`);
    expect(after.map((row) => row.subject.id)).toEqual([byDeveloper.id]);
    const before = new Date(Date.parse(developerAt) - 1).toISOString();
    const upTo = await activity(`${ids}&to=${before}`);
    expect(upTo.map((row) => row.subject.id)).toEqual([byAdmin.id]);
    const dayBefore = new Date(Date.parse(day) - 1).toISOString().slice(0, 10);
    expect(await activity(`${ids}&to=${dayBefore}`)).toEqual([]);
    const dayAfter = new Date(Date.parse(day) + 24 * 3600 * 1000).toISOString().slice(0, 10);
    expect(await activity(`${ids}&from=${dayAfter}`)).toEqual([]);
  });

  it('answers 400 for a bad date, an unknown kind of change or record, or an unknown filter', async () => {
    for (const query of [
      'from=yesterday',
      'to=2030-13-45',
      'from=2030-01-01T10:00',
      'routingKey=tag.exploded.v1',
      'routingKey=asset.morph-queue-entry-updated.v1',
      'routingKey=asset.updated.v2',
      'kind=planet',
      'actor=admin',
      'order=name',
      'from=2030-01-01&from=2030-01-02',
    ]) {
      expectError(await t.get(`/v1/activity?${query}`, tokens.admin), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('the asset changelog', () => {
  it('names the application an asset was added to and the user it was assigned to', async () => {
    const asset = assetSchema.parse(
      dataOf(
        await t.post(
          '/v1/assets',
          { name: 'Related Hat', type: 'hair', gender: 'male' },
          tokens.admin,
        ),
      ),
    );
    const { rows } = await t.db.query<{ id: string; name: string }>(
      'SELECT id, name FROM applications ORDER BY name LIMIT 1',
    );
    const application = rows[0]!;
    const person = await t.loginAs('user');
    dataOf(
      await t.post(
        `/v1/assets/${asset.id}/application`,
        { applicationId: application.id },
        tokens.admin,
      ),
    );
    dataOf(
      await t.post(`/private/v1/user-assets/${person._id}`, { assetIds: [asset.id] }, tokens.admin),
    );
    const log = listResponseSchema(assetEventSchema).parse(
      (await t.get(`/v1/assets/${asset.id}/backoffice-changelog`, tokens.admin)).body,
    ).data;
    const byKey = new Map(log.map((event) => [event.routingKey, event]));
    const added = byKey.get('asset.added-to-application.v1')!;
    expect(added).toMatchObject({
      applicationName: application.name,
      userEmail: null,
      data: { applicationId: application.id },
    });
    expect(typeof added.data.position).toBe('number');
    const assigned = byKey.get('asset.user-assets-added.v1')!;
    expect(assigned.userEmail).toMatch(/^user/);
    expect(assigned.applicationName).toBeNull();
    // The activity log names them too.
    const rowsOfAsset = await activity(
      `recordId=${asset.id}&routingKey=asset.user-assets-added.v1`,
    );
    expect(rowsOfAsset[0]).toMatchObject({
      userEmail: assigned.userEmail,
      subject: { name: 'Related Hat' },
    });
  });
});

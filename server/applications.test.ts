/**
 * Creating and renaming applications (POST, PATCH /private/v1/applications): admins only,
 * names unique ignoring case, renames based on a version (If-Match), each change recorded.
 */
import { describe, expect, it } from 'vitest';
import {
  applicationRowSchema,
  editConflictErrorSchema,
  listResponseSchema,
} from '../contract/schemas';
import { newId } from './ids';
import { dataOf, expectError, useRoleTokens, useTestApp, type JsonResponse } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

const PATH = '/private/v1/applications';
const applicationOf = (response: JsonResponse) => applicationRowSchema.parse(dataOf(response));
const create = (body: unknown, token = tokens.admin) => t.post(PATH, body, token);
const rename = (id: string, body: unknown, version?: number | string, token = tokens.admin) =>
  t.request('PATCH', `${PATH}/${id}`, {
    body,
    token,
    headers: version === undefined ? {} : { 'if-match': `"${version}"` },
  });
const uniqueName = () => `Showroom ${newId().slice(0, 8)}`;

/** The events recorded about application `id`, oldest first. */
async function eventsOf(id: string) {
  const { rows } = await t.db.query<{
    routing_key: string;
    actor_id: string | null;
    data: unknown;
  }>(
    'SELECT routing_key, actor_id, data FROM asset_events WHERE application_id = $1 ORDER BY seq',
    [id],
  );
  return rows;
}

/** The signed-in admin of `tokens.admin`. */
async function admin(): Promise<{ _id: string; email: string }> {
  return dataOf(await t.get('/v1/users/me', tokens.admin)) as { _id: string; email: string };
}

describe('POST /private/v1/applications', () => {
  it('creates an application that every list and read shows, recording who created it', async () => {
    const name = uniqueName();
    const response = await create({ name: `  ${name} ` });
    const created = applicationOf(response);
    expect(created).toMatchObject({ name, version: 1 });
    expect(response.headers.get('etag')).toBe('"1"');
    expect(applicationOf(await t.get(`/v1/applications/${created.id}`, tokens.developer))).toEqual(
      created,
    );
    const page = listResponseSchema(applicationRowSchema).parse(
      (await t.get(`/v1/applications?search=${encodeURIComponent(name)}`, tokens.developer)).body,
    );
    expect(page.data.map((row) => row.id)).toEqual([created.id]);
    expect(await eventsOf(created.id)).toEqual([
      { routing_key: 'application.created.v1', actor_id: (await admin())._id, data: { name } },
    ]);
  });

  it('refuses a name another application has, ignoring case and spaces (409), storing nothing', async () => {
    const name = uniqueName();
    applicationOf(await create({ name }));
    const body = expectError(await create({ name: ` ${name.toUpperCase()}` }), 409, 'CONFLICT');
    expect(body.message).toBe(`An application named "${name.toUpperCase()}" already exists`);
    const { rows } = await t.db.query('SELECT 1 FROM applications WHERE lower(name) = lower($1)', [
      name,
    ]);
    expect(rows).toHaveLength(1);
    // The seeded names are taken too.
    expectError(await create({ name: 'avatar hub' }), 409, 'CONFLICT');
  });

  it('answers 400 to a missing, blank, too long or non-text name, and to a body that is not JSON', async () => {
    const before = await t.db.query('SELECT id FROM applications');
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(81) }, { name: 7 }]) {
      expectError(await create(body), 400, 'VALIDATION_ERROR');
    }
    const raw = await t.request('POST', PATH, {
      raw: '{"name":',
      token: tokens.admin,
      headers: { 'content-type': 'application/json' },
    });
    expectError(raw, 400);
    expect((await t.db.query('SELECT id FROM applications')).rows).toHaveLength(before.rows.length);
  });

  it('is for admins only: a developer, a user and a guest get 403, no token 401', async () => {
    for (const token of [tokens.developer, tokens.user, tokens.anonymous]) {
      expectError(await create({ name: uniqueName() }, token), 403, 'FORBIDDEN');
      expectError(await t.post('/v1/applications', { name: uniqueName() }, token), 403);
    }
    expectError(await t.post(PATH, { name: uniqueName() }), 401);
  });
});

describe('PATCH /private/v1/applications/{id}', () => {
  it('renames on the current version, raising it and recording the change', async () => {
    const app = applicationOf(await create({ name: uniqueName() }));
    const name = uniqueName();
    const response = await rename(app.id, { name }, 1);
    expect(response.headers.get('etag')).toBe('"2"');
    expect(applicationOf(response)).toMatchObject({ id: app.id, name, version: 2 });
    // The same name again (any case of the own name is allowed) changes nothing.
    const same = await rename(app.id, { name }, 2);
    expect(applicationOf(same).version).toBe(2);
    applicationOf(await rename(app.id, { name: name.toUpperCase() }, 2));
    const events = await eventsOf(app.id);
    expect(events.map((event) => event.routing_key)).toEqual([
      'application.created.v1',
      'application.updated.v1',
      'application.updated.v1',
    ]);
    expect(events[1]!.data).toEqual({ changes: { name: { from: app.name, to: name } } });
  });

  it('answers 409 EDIT_CONFLICT on a version someone renamed since, 412 on one that never existed', async () => {
    const app = applicationOf(await create({ name: uniqueName() }));
    const theirs = uniqueName();
    applicationOf(await rename(app.id, { name: theirs }, 1));
    const stale = await rename(app.id, { name: uniqueName() }, 1);
    expectError(stale, 409, 'EDIT_CONFLICT');
    const conflict = editConflictErrorSchema.parse(stale.body);
    expect(conflict.version).toBe(2);
    expect(conflict.conflicts).toMatchObject([
      { field: 'name', current: theirs, changedBy: { email: (await admin()).email } },
    ]);
    expectError(await rename(app.id, { name: uniqueName() }, 9), 412, 'VERSION_UNKNOWN');
    expectError(await rename(app.id, { name: uniqueName() }, 'v2'), 400, 'VALIDATION_ERROR');
    // Nothing of the refused renames was stored.
    const read = applicationOf(await t.get(`/v1/applications/${app.id}`, tokens.admin));
    expect(read).toMatchObject({ name: theirs, version: 2 });
    // Without If-Match the last writer wins.
    applicationOf(await rename(app.id, { name: uniqueName() }));
  });

  it('refuses a taken name (409), bad input (400), an unknown id (404) and non-admins (403)', async () => {
    const taken = applicationOf(await create({ name: uniqueName() }));
    const app = applicationOf(await create({ name: uniqueName() }));
    const body = expectError(await rename(app.id, { name: taken.name.toLowerCase() }), 409);
    expect(body.code).toBe('CONFLICT');
    for (const bad of [{}, { name: ' ' }, { name: 'x'.repeat(81) }, { name: null }]) {
      expectError(await rename(app.id, bad), 400, 'VALIDATION_ERROR');
    }
    expectError(await rename('nope', { name: uniqueName() }), 404, 'NOT_FOUND');
    for (const token of [tokens.developer, tokens.user, tokens.anonymous]) {
      expectError(await rename(app.id, { name: uniqueName() }, undefined, token), 403);
    }
    const read = applicationOf(await t.get(`/v1/applications/${app.id}`, tokens.admin));
    expect(read).toEqual(app);
    expect((await eventsOf(app.id)).map((event) => event.routing_key)).toEqual([
      'application.created.v1',
    ]);
  });

  it('a trashed application whose name was taken meanwhile is not restored (409)', async () => {
    const name = uniqueName();
    const app = applicationOf(await create({ name }));
    dataOf(await t.request('DELETE', `${PATH}/${app.id}`, { token: tokens.admin }));
    applicationOf(await create({ name }));
    const body = expectError(await t.post(`${PATH}/${app.id}/restore`, {}, tokens.admin), 409);
    expect(body.message).toContain(`An application named "${name}" exists now`);
  });
});

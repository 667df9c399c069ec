/**
 * Saved views (/v1/saved-views): a user's named filter, sort and columns of a list, changed only
 * by its owner and opened by anyone whose role reads that list.
 */
import { describe, expect, it } from 'vitest';
import { SAVED_VIEW_MAX_PER_USER, savedViewSchema, type SavedView } from '../contract/saved-views';
import { dataOf, expectError, useRoleTokens, useTestApp } from './test-app';

const t = useTestApp();
const tokens = useRoleTokens(t);

let names = 0;
const uniqueName = (prefix = 'View') => `${prefix} ${(names += 1)}`;

const save = async (body: Record<string, unknown>, token = tokens.admin) =>
  t.post('/v1/saved-views', { list: 'assets', search: {}, ...body }, token);

const saved = async (body: Record<string, unknown> = {}, token = tokens.admin) =>
  savedViewSchema.parse(dataOf(await save({ name: uniqueName(), ...body }, token)));

const patch = (view: SavedView, body: unknown, token = tokens.admin, version = view.version) =>
  t.request('PATCH', `/v1/saved-views/${view.id}`, {
    body,
    token,
    headers: { 'if-match': `"${version}"` },
  });

describe('saving a view', () => {
  it('keeps the filter, the sort, the page size and the columns, and lists it for its owner', async () => {
    const search = { filter: { search: 'olive', type: ['hair'] }, order: '-createdAt', limit: 25 };
    const columns = { order: ['name', 'type'], hidden: ['gender'], widths: { name: 240 } };
    const view = await saved({ name: 'Recent hair', search, columns });
    expect(view).toMatchObject({
      name: 'Recent hair',
      list: 'assets',
      search,
      columns,
      mine: true,
    });
    expect(view.owner.email).toMatch(/^admin/);

    const mine = z(await t.get('/v1/saved-views?list=assets', tokens.admin));
    expect(mine.map((v) => v.name)).toContain('Recent hair');
    // Another user's list of views does not hold it.
    const theirs = z(await t.get('/v1/saved-views?list=assets', tokens.developer));
    expect(theirs.map((v) => v.id)).not.toContain(view.id);
  });

  it('refuses a second view of the same list with the same name in another case', async () => {
    await saved({ name: 'Locked outfits' });
    expectError(await save({ name: 'LOCKED OUTFITS' }), 409, 'NAME_TAKEN');
    // The same name on another list, or another user's, is fine.
    await saved({ name: 'Locked outfits', list: 'tags' });
    await saved({ name: 'Locked outfits' }, tokens.developer);
  });

  it('refuses an unknown list, an unknown search key, a page and a malformed name', async () => {
    expectError(await save({ name: uniqueName(), list: 'secrets' }), 400);
    expectError(await save({ name: uniqueName(), search: { where: '1=1' } }), 400);
    expectError(await save({ name: uniqueName(), search: { page: 3 } }), 400);
    expectError(await save({ name: uniqueName(), search: { limit: 7 } }), 400);
    expectError(await save({ name: '   ' }), 400);
    expectError(await save({ name: 'x'.repeat(81) }), 400);
    expectError(await save({ name: 'line\nbreak' }), 400);
    expectError(await t.get('/v1/saved-views?list=secrets', tokens.admin), 400);
  });

  it('refuses a search over 4 KB as JSON', async () => {
    const filter = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x'.repeat(150)]),
    );
    const response = await save({ name: uniqueName(), search: { filter } });
    expectError(response, 400);
    expect(JSON.stringify(response.body)).toMatch(/4096 bytes/);
  });

  it('keeps a name as text, whatever markup it holds', async () => {
    const name = '<img src=x onerror=alert(1)>';
    const view = await saved({ name });
    expect(z1(await t.get(`/v1/saved-views/${view.id}`, tokens.admin)).name).toBe(name);
  });

  it('refuses a list the role may not read', async () => {
    expectError(await save({ name: uniqueName(), list: 'users' }, tokens.user), 403);
    expectError(await t.get('/v1/saved-views?list=users', tokens.user), 403);
    expectError(
      await t.post('/v1/saved-views', { list: 'assets', name: uniqueName(), search: {} }),
      401,
    );
  });
});

describe('a shared link', () => {
  it('opens someone else’s view to a role that reads its list, without the owner’s address unless it reads users', async () => {
    const view = await saved({ search: { order: 'name' } });
    const byDeveloper = z1(await t.get(`/v1/saved-views/${view.id}`, tokens.developer));
    expect(byDeveloper).toMatchObject({ id: view.id, mine: false, owner: { id: view.owner.id } });
    expect(byDeveloper.owner.email).toBe(view.owner.email);
    expect(view.owner.email).not.toBeNull();
    const byUser = z1(await t.get(`/v1/saved-views/${view.id}`, tokens.user));
    expect(byUser).toMatchObject({ id: view.id, mine: false, owner: { email: null } });
  });

  it('is a 404 to a role that may not read the view’s list, as an unknown or malformed id is', async () => {
    const view = await saved({ list: 'users' });
    expectError(await t.get(`/v1/saved-views/${view.id}`, tokens.user), 404);
    expectError(
      await t.get('/v1/saved-views/5f8a3c1e-0000-4000-8000-000000000000', tokens.admin),
      404,
    );
    expectError(await t.get("/v1/saved-views/1'%20OR%20'1'='1", tokens.admin), 404);
  });
});

describe('changing and deleting', () => {
  it('renames with If-Match, and a stale version is a 412 that changes nothing', async () => {
    const view = await saved();
    const renamed = z1(await patch(view, { name: 'Renamed once' }));
    expect(renamed).toMatchObject({ name: 'Renamed once', version: view.version + 1 });
    expect(renamed.search).toEqual(view.search);

    expectError(await patch(view, { name: 'Stale rename' }), 412, 'VERSION_CHANGED');
    expect(z1(await t.get(`/v1/saved-views/${view.id}`, tokens.admin)).name).toBe('Renamed once');

    const replaced = z1(await patch(renamed, { search: { order: '-name' }, columns: null }));
    expect(replaced).toMatchObject({ name: 'Renamed once', search: { order: '-name' } });
  });

  it('refuses a rename onto another of the owner’s names', async () => {
    const first = await saved();
    const second = await saved();
    expectError(await patch(second, { name: first.name.toUpperCase() }), 409, 'NAME_TAKEN');
  });

  it('lets only the owner change or delete a view (a 404 to others, admins included)', async () => {
    const view = await saved({}, tokens.developer);
    expectError(await patch(view, { name: 'Taken over' }, tokens.admin), 404);
    expectError(
      await t.request('DELETE', `/v1/saved-views/${view.id}`, { token: tokens.admin }),
      404,
    );
    expect(z1(await t.get(`/v1/saved-views/${view.id}`, tokens.admin)).name).toBe(view.name);

    const deleted = z1(
      await t.request('DELETE', `/v1/saved-views/${view.id}`, { token: tokens.developer }),
    );
    expect(deleted).toMatchObject({ id: view.id, name: view.name });
    expectError(await t.get(`/v1/saved-views/${view.id}`, tokens.developer), 404);
  });

  it('goes with its owner', async () => {
    const someone = await t.signUp();
    const view = await saved({}, someone.token);
    await t.db.query('DELETE FROM users WHERE id = $1', [someone._id]);
    expectError(await t.get(`/v1/saved-views/${view.id}`, tokens.admin), 404);
  });
});

describe('the cap', () => {
  it(`keeps at most ${SAVED_VIEW_MAX_PER_USER} views per user, even when they are saved at once`, async () => {
    const someone = await t.signUp();
    const answers = await Promise.all(
      Array.from({ length: SAVED_VIEW_MAX_PER_USER + 5 }, (_, i) =>
        save({ name: `Burst ${i}` }, someone.token),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(SAVED_VIEW_MAX_PER_USER);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(5);
    for (const answer of refused) expectError(answer, 409, 'TOO_MANY_VIEWS');
    const { rows } = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM saved_views WHERE owner_id = $1',
      [someone._id],
    );
    expect(rows[0]?.n).toBe(SAVED_VIEW_MAX_PER_USER);
  });
});

const z = (response: Parameters<typeof dataOf>[0]) =>
  (dataOf(response) as unknown[]).map((v) => savedViewSchema.parse(v));
const z1 = (response: Parameters<typeof dataOf>[0]) => savedViewSchema.parse(dataOf(response));

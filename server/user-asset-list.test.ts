/**
 * A user's assets list (GET /v1/user-assets/{userId}) pages over the assignments alone, by
 * copies of their assets' names, types and creation times (migration 035). Its pages must be
 * the ones the assets themselves give, in every sort and filter, and stay so after an asset is
 * renamed, changes type, goes to the Trash and comes back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { assetSchema, listResponseSchema, type AuthResult } from '../contract/schemas';
import type { SqlParam } from './db';
import { dataOf, useTestApp } from './test-app';

const t = useTestApp();
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
let admin: AuthResult;
let user: AuthResult;
const assetPage = listResponseSchema(assetSchema);

/** Made through the API, with names that tie (the id breaks them) and three types. */
const MADE = [
  ['Kept list b', 'hair'],
  ['Kept list a', 'top'],
  ['Kept list b', 'top'],
  ['Kept list c', 'hair'],
  ['Kept list a', 'bottom'],
  ['kept list lower', 'hair'],
  ['Kept list 100% wool', 'top'],
  ['Kept list d', 'bottom'],
] as const;
let made: string[] = [];

beforeAll(async () => {
  admin = await t.loginAs('admin');
  user = await t.signUp();
  made = [];
  for (const [name, type] of MADE) {
    const body = { name, type, gender: 'unisex' };
    made.push(assetSchema.parse(dataOf(await t.post('/v1/assets', body, admin.token))).id);
  }
  // A few demo assets too, assigned earlier than the made ones.
  const { rows } = await t.db.query<{ id: string }>(
    'SELECT id FROM assets WHERE id <> ALL($1::text[]) ORDER BY id LIMIT 5',
    [made],
  );
  for (const ids of [rows.map((row) => row.id), made]) {
    const response = await t.post(
      `/private/v1/user-assets/${user._id}`,
      { assetIds: ids },
      admin.token,
    );
    expect(response.status).toBe(200);
  }
});

/** The user's asset ids for `query`, page by page, as the API answers them. */
async function listed(query: string, limit = 3): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const response = await t.get(
      `/v1/user-assets/${user._id}?${query}&limit=${limit}&page=${page}`,
      user.token,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { data, pagination } = assetPage.parse(response.body);
    ids.push(...data.map((asset) => asset.id));
    if (!pagination.hasNextPage) {
      expect(pagination.totalDocs).toBe(ids.length);
      return ids;
    }
  }
}

/** The same, read from the assets themselves. */
async function expected(
  order: 'name' | 'created_at',
  descending: boolean,
  where = 'true',
  params: SqlParam[] = [],
): Promise<string[]> {
  const direction = descending ? 'DESC' : 'ASC';
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT a.id FROM assets a JOIN user_assets x ON x.asset_id = a.id
     WHERE x.user_id = $1 AND ${where} ORDER BY a.${order} ${direction}, a.id ${direction}`,
    [user._id, ...params],
  );
  return rows.map((row) => row.id);
}

/** Every sort and filter of the list agrees with the assets. */
async function expectListsRight() {
  expect(await listed('')).toEqual(await expected('name', false));
  expect(await listed('order=-name')).toEqual(await expected('name', true));
  expect(await listed('order=createdAt')).toEqual(await expected('created_at', false));
  expect(await listed('order=-createdAt', 2)).toEqual(await expected('created_at', true));
  expect(await listed('type=hair')).toEqual(await expected('name', false, "a.type = 'hair'"));
  expect(await listed('type=hair&type=bottom&order=-createdAt')).toEqual(
    await expected('created_at', true, "a.type IN ('hair', 'bottom')"),
  );
  // Case-insensitive, with LIKE's wildcards taken literally.
  expect(await listed('search=KEPT%20LIST')).toEqual(
    await expected('name', false, "a.name ILIKE '%kept list%'"),
  );
  expect(await listed('search=100%25')).toEqual(
    await expected('name', false, "a.name LIKE '%100\\%%'"),
  );
  expect(await listed('search=kept&type=top&order=-name')).toEqual(
    await expected('name', true, "a.name ILIKE '%kept%' AND a.type = 'top'"),
  );
}

/** The copies the list reads equal the assets' own values. */
async function expectCopiesRight() {
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT x.asset_id AS id FROM user_assets x JOIN assets a ON a.id = x.asset_id
     WHERE x.asset_name IS DISTINCT FROM a.name OR x.asset_type IS DISTINCT FROM a.type
       OR x.asset_created_at IS DISTINCT FROM a.created_at`,
  );
  expect(rows).toEqual([]);
}

describe("a user's assets list", () => {
  it('pages in every sort and filter as the assets give them', async () => {
    expect((await listed('')).length).toBe(MADE.length + 5);
    await expectListsRight();
    await expectCopiesRight();
  });

  it('follows a rename and a change of type', async () => {
    const [renamed, retyped] = [made[0]!, made[3]!];
    const patched = await t.patch(`/v1/assets/${renamed}`, { name: 'Aaa first now' }, admin.token);
    expect(patched.status).toBe(200);
    expect((await t.patch(`/v1/assets/${retyped}`, { type: 'top' }, admin.token)).status).toBe(200);
    await expectCopiesRight();
    expect((await listed('', 100))[0]).toBe(renamed);
    expect(await listed('type=hair')).not.toContain(retyped);
    expect(await listed('type=top')).toContain(retyped);
    expect(await listed('search=aaa%20first')).toEqual([renamed]);
    await expectListsRight();
  });

  it('lists a restored asset by its name, whatever its assignment held when trashed', async () => {
    const id = made[1]!;
    const deleted = await t.request('DELETE', `/v1/assets/${id}`, { token: admin.token });
    expect(deleted.status).toBe(200);
    expect(await listed('')).not.toContain(id);
    // A Trash entry made before the copies existed holds assignments without them.
    await t.db.query(
      `UPDATE trash SET data = jsonb_set(data, '{relations,user_assets}', (
         SELECT jsonb_agg(r - 'asset_name' - 'asset_type' - 'asset_created_at')
         FROM jsonb_array_elements(data->'relations'->'user_assets') r))
       WHERE kind = 'asset' AND id = $1`,
      [id],
    );
    const restored = await t.post(
      '/v1/trash/bulk-restore',
      { items: [{ kind: 'asset', id }] },
      admin.token,
    );
    expect(restored.status).toBe(200);
    await expectCopiesRight();
    expect(await listed('search=kept%20list%20a')).toContain(id);
    await expectListsRight();
  });

  it('keeps the copies of an assignment made in a statement of several', async () => {
    const other = await t.signUp();
    const ids = [made[7]!, made[4]!, made[2]!];
    const response = await t.post(
      `/private/v1/user-assets/${other._id}`,
      { assetIds: ids },
      admin.token,
    );
    expect(response.status).toBe(200);
    await expectCopiesRight();
    const page = assetPage.parse((await t.get(`/v1/user-assets/${other._id}`, other.token)).body);
    const names = page.data.map((asset) => asset.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(page.data.map((asset) => asset.id).sort()).toEqual([...ids].sort());
  });

  it('copies the name of a rename that commits while the assignment is being made', async () => {
    const id = made[5]!;
    const other = await t.signUp();
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let renamed = () => undefined as void;
    const didRename = new Promise<void>((resolve) => (renamed = resolve));
    const renaming = t.db.transaction(async (tx) => {
      await tx.query("UPDATE assets SET name = 'Renamed meanwhile' WHERE id = $1", [id]);
      renamed();
      // PGlite runs one transaction at a time: there the rename commits first.
      if (onPostgres) await released;
    });
    await didRename;
    let answered = false;
    const assigning = t
      .post(`/private/v1/user-assets/${other._id}`, { assetIds: [id] }, admin.token)
      .finally(() => (answered = true));
    if (onPostgres) {
      // The rename commits once the assignment has finished, or waits for the asset.
      for (;;) {
        const { rows } = await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (answered || rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    release();
    await renaming;
    expect((await assigning).status).toBe(200);
    await expectCopiesRight();
    const page = assetPage.parse(
      (await t.get(`/v1/user-assets/${other._id}?search=meanwhile`, other.token)).body,
    );
    expect(page.data.map((asset) => asset.id)).toEqual([id]);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import {
  assetSchema,
  listResponseSchema,
  userAssetsResultSchema,
  userSchema,
  type AuthResult,
} from '../contract/schemas';
import { DEMO_USER } from './seed';
import { dataOf, expectError, useTestApp } from './test-app';

const t = useTestApp();
let admin: AuthResult;
let developer: AuthResult;
let user: AuthResult;
let assetIds: string[] = [];
beforeAll(async () => {
  admin = await t.loginAs('admin');
  developer = await t.loginAs('developer');
  user = await t.signUp();
  const { rows } = await t.db.query<{ id: string }>('SELECT id FROM assets ORDER BY position');
  assetIds = rows.map((row) => row.id);
});

const assetList = listResponseSchema(assetSchema);
const remove = (userId: string, body: unknown, token: string) =>
  t.request('DELETE', `/private/v1/user-assets/${userId}`, { body, token });

describe('user assets', () => {
  it('seeds a verified demo user with assets mirrored in users.assets', async () => {
    const demo = await t.login(DEMO_USER.email, DEMO_USER.password);
    expect(demo).toMatchObject({ role: 'user', settings: { isEmailVerified: true } });
    expect(demo.assets).toHaveLength(8);
    const page = assetList.parse(
      (await t.get(`/v1/user-assets/${demo._id}?limit=100`, demo.token)).body,
    );
    expect(page.data.map((asset) => asset.id).sort()).toEqual([...demo.assets].sort());
    const names = page.data.map((asset) => asset.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('adds and removes assets (private), keeping users.assets in step', async () => {
    const picked = assetIds.slice(0, 3);
    const added = userAssetsResultSchema.parse(
      dataOf(
        await t.post(`/private/v1/user-assets/${user._id}`, { assetIds: picked }, admin.token),
      ),
    );
    expect(added).toEqual({ userId: user._id, assetIds: picked });
    // Adding again is a no-op.
    dataOf(await t.post(`/private/v1/user-assets/${user._id}`, { assetIds: picked }, admin.token));
    const me = userSchema.parse(dataOf(await t.get('/v1/users/me', user.token)));
    expect(me.assets).toEqual(picked);

    const own = assetList.parse((await t.get(`/v1/user-assets/${user._id}`, user.token)).body);
    expect(own.pagination.totalDocs).toBe(3);
    const type = own.data[0]!.type;
    const typed = assetList.parse(
      (await t.get(`/v1/user-assets/${user._id}?type=${type}&order=-createdAt`, user.token)).body,
    );
    expect(typed.data.every((asset) => asset.type === type)).toBe(true);
    const viaPrivate = assetList.parse(
      (await t.get(`/private/v1/user-assets/${user._id}`, developer.token)).body,
    );
    expect(viaPrivate.pagination.totalDocs).toBe(3);

    const left = userAssetsResultSchema.parse(
      dataOf(await remove(user._id, { assetIds: [picked[0], 'never-assigned'] }, admin.token)),
    );
    expect(left.assetIds).toEqual(picked.slice(1));
    expect(userSchema.parse(dataOf(await t.get('/v1/users/me', user.token))).assets).toEqual(
      picked.slice(1),
    );
  });

  it('refuses unknown asset ids as a whole, naming them', async () => {
    const body = expectError(
      await t.post(
        `/private/v1/user-assets/${user._id}`,
        { assetIds: [assetIds[10], 'ghost-1', 'ghost-2'] },
        admin.token,
      ),
      400,
      'VALIDATION_ERROR',
    );
    expect(body.message).toContain('ghost-1, ghost-2');
    const me = userSchema.parse(dataOf(await t.get('/v1/users/me', user.token)));
    expect(me.assets).not.toContain(assetIds[10]);
    expectError(
      await t.post(`/private/v1/user-assets/${user._id}`, { assetIds: [] }, admin.token),
      400,
    );
    expectError(await t.post(`/private/v1/user-assets/${user._id}`, {}, admin.token), 400);
  });

  it('answers 401, 403, 404 and 405', async () => {
    const other = await t.signUp();
    expectError(await t.get(`/v1/user-assets/${user._id}`), 401);
    expectError(await t.get(`/v1/user-assets/${user._id}`, other.token), 403, 'FORBIDDEN');
    expectError(await t.get(`/private/v1/user-assets/${user._id}`, user.token), 403);
    expectError(await t.get('/v1/user-assets/nobody', admin.token), 404);
    expectError(await t.get(`/v1/user-assets/${user._id}?order=type`, admin.token), 400);
    // Developers read every user's assets but do not assign them.
    const body = { assetIds: [assetIds[0]] };
    expectError(await t.post(`/private/v1/user-assets/${user._id}`, body, developer.token), 403);
    expectError(await remove(user._id, body, developer.token), 403);
    expectError(await t.post('/private/v1/user-assets/nobody', body, admin.token), 404);
    // Assigning is only under /private/v1.
    expectError(await t.post(`/v1/user-assets/${user._id}`, body, admin.token), 405);
  });

  it('drops a deleted asset from users.assets', async () => {
    const id = assetIds.at(-1)!;
    await t.db.query('UPDATE assets SET locked = false WHERE id = $1', [id]);
    dataOf(await t.post(`/private/v1/user-assets/${user._id}`, { assetIds: [id] }, admin.token));
    dataOf(await t.request('DELETE', `/v1/assets/${id}`, { token: admin.token }));
    const me = userSchema.parse(dataOf(await t.get('/v1/users/me', user.token)));
    expect(me.assets).not.toContain(id);
  });
});

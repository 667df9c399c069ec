/**
 * Who holds an asset (GET /private/v1/asset-users/{assetId}): the other side of the user-assets
 * calls, for the roles that read both users and assignments, newest assignment first, paged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { listResponseSchema, userRowSchema, type AuthResult } from '../contract/schemas';
import { expectError, useTestApp } from './test-app';

const t = useTestApp();
const holders = listResponseSchema(userRowSchema);
let admin: AuthResult;
let developer: AuthResult;
let assetId: string;
beforeAll(async () => {
  admin = await t.loginAs('admin');
  developer = await t.loginAs('developer');
  const { rows } = await t.db.query<{ id: string }>(
    `SELECT id FROM assets a WHERE NOT EXISTS (SELECT 1 FROM user_assets x WHERE x.asset_id = a.id)
     ORDER BY id LIMIT 1`,
  );
  assetId = rows[0]!.id;
});

const assign = (userId: string) =>
  t.post(`/private/v1/user-assets/${userId}`, { assetIds: [assetId] }, admin.token);

describe('an asset’s holders', () => {
  it('lists the users an asset is assigned to, newest first, paged, and follows removals', async () => {
    const first = await t.signUp();
    const second = await t.signUp();
    await assign(first._id);
    t.advance(1_000);
    await assign(second._id);

    const read = async (query = '') =>
      holders.parse(
        (await t.get(`/private/v1/asset-users/${assetId}${query}`, developer.token)).body,
      );
    const all = await read();
    expect(all.data.map((row) => row.email)).toEqual([second.email, first.email]);
    expect(all.pagination).toMatchObject({ totalDocs: 2, totalPages: 1 });
    const paged = await read('?limit=1&page=2');
    expect(paged.data.map((row) => row.id)).toEqual([first._id]);
    expect((await read('?order=assignedAt')).data[0]!.id).toBe(first._id);

    await t.request('DELETE', `/private/v1/user-assets/${second._id}`, {
      body: { assetIds: [assetId] },
      token: admin.token,
    });
    expect((await read()).data.map((row) => row.id)).toEqual([first._id]);
  });

  it('answers 404 for an unknown asset, 400 for an unknown order, 403 to users and guests', async () => {
    expectError(await t.get('/private/v1/asset-users/ghost', admin.token), 404, 'NOT_FOUND');
    expectError(
      await t.get(`/private/v1/asset-users/${assetId}?order=email`, admin.token),
      400,
      'VALIDATION_ERROR',
    );
    const user = await t.signUp();
    expectError(await t.get(`/private/v1/asset-users/${assetId}`, user.token), 403, 'FORBIDDEN');
    const guest = await t.signUpAnonymous();
    expectError(await t.get(`/private/v1/asset-users/${assetId}`, guest.token), 403, 'FORBIDDEN');
  });
});

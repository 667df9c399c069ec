/**
 * A user's assets list takes its total from the assignments counted as they come and go
 * (migration 040), not by counting them on each read: the kept count must equal counting after
 * assigning, unassigning, an asset's delete and restore and a user's delete, and a user with more
 * assignments than the exact limit gets their number, flagged an estimate as any such total is.
 */
import { describe, expect, it } from 'vitest';
import { assetSchema, listResponseSchema } from '../contract/schemas';
import { EXACT_TOTAL_LIMIT } from './list';
import { dataOf, useTestApp } from './test-app';

const t = useTestApp();
const assetPage = listResponseSchema(assetSchema);
const ok = (response: { status: number; body: unknown }) =>
  expect(response.status, JSON.stringify(response.body)).toBe(200);

/** The list's total for `userId`, the assignments counted and the kept count. */
async function totals(userId: string, token: string) {
  const response = await t.get(`/v1/user-assets/${userId}?limit=1`, token);
  ok(response);
  const { pagination } = assetPage.parse(response.body);
  const { rows } = await t.db.query<{ counted: number; kept: number }>(
    `SELECT (SELECT count(*)::int FROM user_assets WHERE user_id = $1) AS counted,
       (SELECT coalesce(sum(n), 0)::int FROM user_asset_counts WHERE user_id = $1) AS kept`,
    [userId],
  );
  return { listed: pagination.totalDocs, ...rows[0]! };
}

describe("a user's assignments, kept", () => {
  it('stay equal to counting after assigning, unassigning, deletes and restores', async () => {
    const admin = await t.loginAs('admin');
    const user = await t.signUp();
    const made: string[] = [];
    for (const name of ['Counted one', 'Counted two', 'Counted three']) {
      const body = { name, type: 'hair', gender: 'male' };
      made.push(assetSchema.parse(dataOf(await t.post('/v1/assets', body, admin.token))).id);
    }
    const path = `/private/v1/user-assets/${user._id}`;
    const expectTotal = async (n: number) =>
      expect(await totals(user._id, user.token)).toEqual({ listed: n, counted: n, kept: n });

    await expectTotal(0);
    ok(await t.post(path, { assetIds: made }, admin.token));
    // Assigning again changes nothing.
    ok(await t.post(path, { assetIds: made.slice(0, 2) }, admin.token));
    await expectTotal(3);
    ok(await t.request('DELETE', path, { body: { assetIds: [made[0]] }, token: admin.token }));
    await expectTotal(2);
    ok(await t.request('DELETE', `/v1/assets/${made[1]}`, { token: admin.token }));
    await expectTotal(1);
    ok(
      await t.post(
        '/v1/trash/bulk-restore',
        { items: [{ kind: 'asset', id: made[1] }] },
        admin.token,
      ),
    );
    await expectTotal(2);

    // A user's delete takes their assignments and their count.
    await t.db.query('DELETE FROM users WHERE id = $1', [user._id]);
    const { rows } = await t.db.query('SELECT 1 FROM user_asset_counts WHERE user_id = $1', [
      user._id,
    ]);
    expect(rows).toEqual([]);
  });

  it('gives the total of a user with more assignments than the exact limit, flagged an estimate', async () => {
    const admin = await t.loginAs('admin');
    const user = await t.signUp();
    const many = EXACT_TOTAL_LIMIT + 5;
    await t.db.query(
      `INSERT INTO assets (id, name, type, gender, position, created_at, updated_at)
       SELECT 'counted-' || i, 'Counted many ' || i, 'hair', 'male', 100000 + i, now(), now()
       FROM generate_series(1, $1::int) i`,
      [many],
    );
    await t.db.query(
      `INSERT INTO user_assets (user_id, asset_id, created_at)
       SELECT $1, 'counted-' || i, now() FROM generate_series(1, $2::int) i`,
      [user._id, many],
    );
    const response = await t.get(`/v1/user-assets/${user._id}?limit=100`, user.token);
    ok(response);
    const { data, pagination } = assetPage.parse(response.body);
    expect(pagination).toMatchObject({ totalDocs: many, totalIsEstimate: true, hasNextPage: true });
    expect(data).toHaveLength(100);
    // The last page is the list's end, read backwards.
    const last = await t.get(
      `/v1/user-assets/${user._id}?limit=100&page=${pagination.totalPages}`,
      admin.token,
    );
    ok(last);
    expect(assetPage.parse(last.body).data.map((asset) => asset.name)).toEqual([
      'Counted many 9995',
      'Counted many 9996',
      'Counted many 9997',
      'Counted many 9998',
      'Counted many 9999',
    ]);
  });
});

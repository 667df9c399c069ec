import { beforeAll, describe, expect, it } from 'vitest';
import { applicationAssetSchema, assetSchema } from '../contract/schemas';
import { placeSql } from './positions';
import { dataOf, expectError, useTestApp } from './test-app';

const t = useTestApp();
let token = '';
beforeAll(async () => {
  token = (await t.loginAs('admin')).token;
});

/** Asset ids in order, after checking the places the API shows are exactly 1..N. */
async function assetOrder(): Promise<string[]> {
  const { rows } = await t.db.query<{ id: string; position: number }>(
    `SELECT a.id, ${placeSql('assets', 'a')} AS position FROM assets a
     ORDER BY a.position, a.rank, a.id`,
  );
  expect(rows.map((row) => row.position)).toEqual(rows.map((_, i) => i + 1));
  return rows.map((row) => row.id);
}

const move = (id: string, body: unknown, auth = token) =>
  t.patch(`/v1/assets/${id}/position`, body, auth);

/** Moves `id` in a plain array the way the API should. */
function moved(order: string[], id: string, position: number): string[] {
  const rest = order.filter((x) => x !== id);
  rest.splice(Math.min(position, rest.length + 1) - 1, 0, id);
  return rest;
}

describe('PATCH /v1/assets/{id}/position', () => {
  it('moves an asset up and down and answers it with its new position', async () => {
    const before = await assetOrder();
    const down = assetSchema.parse(dataOf(await move(before[2]!, { position: 10 })));
    expect(down.position).toBe(10);
    expect(await assetOrder()).toEqual(moved(before, before[2]!, 10));
    const order = await assetOrder();
    const up = assetSchema.parse(dataOf(await move(order[50]!, { position: 1 })));
    expect(up.position).toBe(1);
    expect(await assetOrder()).toEqual(moved(order, order[50]!, 1));
  });

  it('puts the asset last when the position exceeds the count', async () => {
    const before = await assetOrder();
    const data = assetSchema.parse(dataOf(await move(before[0]!, { position: 100_000 })));
    expect(data.position).toBe(300);
    expect(await assetOrder()).toEqual(moved(before, before[0]!, 300));
  });

  it('counts the position within the filtered list', async () => {
    const before = await assetOrder();
    const { rows } = await t.db.query<{ id: string }>(
      "SELECT id FROM assets WHERE type = 'beard' ORDER BY position, rank, id",
    );
    const beards = rows.map((row) => row.id);
    // The last beard becomes the second beard; nothing else changes its relative order.
    await move(beards.at(-1)!, { position: 2, filter: { type: ['beard'] } });
    const after = await assetOrder();
    const expectedBeards = moved(beards, beards.at(-1)!, 2);
    expect(after.filter((id) => beards.includes(id))).toEqual(expectedBeards);
    expect(after.filter((id) => !beards.includes(id))).toEqual(
      before.filter((id) => !beards.includes(id)),
    );
    // Past the end of the filtered list: right after the last beard.
    await move(expectedBeards[0]!, { position: 999, filter: { type: 'beard' } });
    const last = await assetOrder();
    const lastBeard = last.filter((id) => beards.includes(id)).at(-1);
    expect(lastBeard).toBe(expectedBeards[0]);
  });

  it('keeps positions contiguous after many random moves', async () => {
    let expected = await assetOrder();
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 25; i += 1) {
      const id = expected[Math.floor(random() * expected.length)]!;
      const position = 1 + Math.floor(random() * 320);
      dataOf(await move(id, { position }));
      expected = moved(expected, id, position);
    }
    expect(await assetOrder()).toEqual(expected);
  });

  it('serialises concurrent moves: no duplicate or missing positions', async () => {
    const before = await assetOrder();
    const responses = await Promise.all(
      before.slice(0, 10).map((id, i) => move(id, { position: 290 - i * 29 })),
    );
    for (const response of responses) expect(response.status).toBe(200);
    const after = await assetOrder();
    expect(new Set(after)).toEqual(new Set(before));
  });

  it('answers 400, 401, 403 and 404', async () => {
    const [id] = await assetOrder();
    expectError(await move(id!, { position: 0 }), 400, 'VALIDATION_ERROR');
    expectError(await move(id!, { position: 1.5 }), 400, 'VALIDATION_ERROR');
    expectError(await move(id!, {}), 400, 'VALIDATION_ERROR');
    expectError(await move(id!, { position: 1, filter: { nope: 'x' } }), 400, 'VALIDATION_ERROR');
    expectError(await move(id!, { position: 1, filter: { type: [{}] } }), 400);
    const { rows } = await t.db.query<{ id: string }>(
      "SELECT id FROM assets WHERE type <> 'hair' LIMIT 1",
    );
    // The asset must be in the filtered list it is moved within.
    expectError(await move(rows[0]!.id, { position: 1, filter: { type: 'hair' } }), 400);
    expectError(await move('no-such-asset', { position: 1 }), 404, 'NOT_FOUND');
    expectError(await move(id!, { position: 1 }, (await t.signUp()).token), 403, 'FORBIDDEN');
    expectError(await t.patch(`/v1/assets/${id}/position`, { position: 1 }), 401);
    await assetOrder();
  });
});

/** An application's rows in order, after checking the places shown are exactly 1..N. */
async function applicationRows(applicationId: string) {
  const { rows } = await t.db.query<{ id: string; asset_id: string; position: number }>(
    `SELECT x.id, x.asset_id, ${placeSql('application_assets', 'x')} AS position
     FROM application_assets x WHERE x.application_id = $1 ORDER BY x.position, x.rank, x.id`,
    [applicationId],
  );
  expect(rows.map((row) => row.position)).toEqual(rows.map((_, i) => i + 1));
  return rows;
}
const applicationOrder = async (applicationId: string) =>
  (await applicationRows(applicationId)).map((row) => row.id);

describe('PATCH /v1/application-assets/{id}/position', () => {
  it('moves within one application only, up, down and to last place', async () => {
    const { rows } = await t.db.query<{ id: string }>(
      'SELECT id FROM applications ORDER BY name LIMIT 2',
    );
    const [first, second] = rows.map((row) => row.id) as [string, string];
    const otherBefore = await applicationOrder(second);
    let order = await applicationOrder(first);
    for (const [index, position] of [
      [0, 5],
      [10, 2],
      [3, 10_000],
    ] as const) {
      const id = order[index]!;
      const response = await t.patch(`/v1/application-assets/${id}/position`, { position }, token);
      const row = applicationAssetSchema.parse(dataOf(response));
      order = moved(order, id, position);
      expect(row.position).toBe(order.indexOf(id) + 1);
      expect(row.applicationId).toBe(first);
      expect(await applicationOrder(first)).toEqual(order);
    }
    expect(await applicationOrder(second)).toEqual(otherBefore);

    const responses = await Promise.all(
      order
        .slice(0, 10)
        .map((id, i) =>
          t.patch(`/v1/application-assets/${id}/position`, { position: 1 + i * 3 }, token),
        ),
    );
    for (const response of responses) expect(response.status).toBe(200);
    expect(new Set(await applicationOrder(first))).toEqual(new Set(order));
  });

  it('answers 404 for unknown rows and 403 without update Application', async () => {
    expectError(await t.patch('/v1/application-assets/nope/position', { position: 1 }, token), 404);
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM application_assets LIMIT 1');
    const user = await t.signUp();
    const path = `/v1/application-assets/${rows[0]!.id}/position`;
    expectError(await t.patch(path, { position: 1 }, user.token), 403);
    expectError(await t.patch(path, { position: 'first' }, token), 400);
  });
});

describe('DELETE /v1/assets/{id}', () => {
  it('closes the gaps in the asset and application orders', async () => {
    const { rows } = await t.db.query<{ id: string; application_id: string }>(
      `SELECT a.id, x.application_id FROM assets a JOIN application_assets x ON x.asset_id = a.id
       WHERE NOT a.locked ORDER BY a.position, a.rank LIMIT 1`,
    );
    const { id, application_id: applicationId } = rows[0]!;
    dataOf(await t.request('DELETE', `/v1/assets/${id}`, { token }));
    expect(await assetOrder()).toHaveLength(299);
    const remaining = (await applicationRows(applicationId)).map((row) => row.asset_id);
    expect(remaining).not.toContain(id);
  });
});

/** Each row's id and its row version (xmin): a row some statement wrote has a new one. */
async function rowVersions(table: 'assets' | 'application_assets') {
  const { rows } = await t.db.query<{ id: string; xmin: string }>(
    `SELECT id, xmin::text AS xmin FROM ${table}`,
  );
  return new Map(rows.map((row) => [row.id, row.xmin]));
}

/** The ids of rows written since `before` (new or changed), sorted. */
async function written(table: 'assets' | 'application_assets', before: Map<string, string>) {
  const after = await rowVersions(table);
  return [...after].flatMap(([id, xmin]) => (before.get(id) === xmin ? [] : [id])).sort();
}

describe('the rows a change writes', () => {
  it('a move, a delete and a restore write the rows of the records involved, not the order', async () => {
    const order = await assetOrder();
    let assets = await rowVersions('assets');
    const last = order.at(-1)!;
    expect(assetSchema.parse(dataOf(await move(last, { position: 1 }))).position).toBe(1);
    expect(await written('assets', assets)).toEqual([last]);

    const { rows } = await t.db.query<{ id: string; asset_id: string; application_id: string }>(
      `SELECT x.id, x.asset_id, x.application_id FROM application_assets x
       JOIN assets a ON a.id = x.asset_id WHERE NOT a.locked ORDER BY x.position, x.rank, x.id LIMIT 1`,
    );
    const { id: entryId, asset_id: assetId, application_id: applicationId } = rows[0]!;
    const entries = await rowVersions('application_assets');
    const placements = await t.db.query<{ id: string }>(
      'SELECT id FROM application_assets WHERE asset_id = $1 ORDER BY id',
      [assetId],
    );
    const entryOrder = await applicationOrder(applicationId);
    assets = await rowVersions('assets');
    dataOf(await t.request('DELETE', `/v1/assets/${assetId}`, { token }));
    expect(await written('assets', assets)).toEqual([]);
    expect(await written('application_assets', entries)).toEqual([]);
    expect(await applicationOrder(applicationId)).toEqual(entryOrder.filter((x) => x !== entryId));

    dataOf(await t.post(`/v1/assets/${assetId}/restore`, {}, token));
    expect(await written('assets', assets)).toEqual([assetId]);
    expect(await written('application_assets', entries)).toEqual(
      placements.rows.map((row) => row.id),
    );
    expect(await applicationOrder(applicationId)).toEqual(entryOrder);
  });
});

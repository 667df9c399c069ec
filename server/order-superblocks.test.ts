/**
 * The places of an ordered collection far apart in positions (migration 038's superblocks of
 * 32 blocks): the place each row shows is its 1-based index in the order, after inserts, moves
 * and deletes, and the superblock counts stay the sums of the block counts, also when a load
 * writes the blocks with the ordinary triggers skipped (as seed:scale does).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { assetSchema, listResponseSchema } from '../contract/schemas';
import { dataOf, useTestApp } from './test-app';

const t = useTestApp();
let token = '';
const assetPage = listResponseSchema(assetSchema);
/** Assets 100 positions apart: 3,000 of them span ten superblocks of 32,768 positions. */
const SPREAD = 3_000;

beforeAll(async () => {
  token = (await t.loginAs('admin')).token;
  await t.db.exec(`
    INSERT INTO assets (id, name, type, gender, locked, position, created_at, updated_at)
    SELECT 'sb' || lpad(i::text, 10, '0'), 'Spread ' || i, 'hair', 'unisex', false,
           200000 + i * 100, timestamptz '2025-01-01', timestamptz '2025-01-01'
    FROM generate_series(1, ${SPREAD}) AS i;
  `);
}, 60_000);

/** Each page's places against the rows' 1-based index in (position, rank, id) order. */
async function expectPlacesRight() {
  const { rows } = await t.db.query<{ id: string; place: number }>(
    `SELECT id, (row_number() OVER (ORDER BY position, rank, id))::int AS place FROM assets`,
  );
  const places = new Map(rows.map((row) => [row.id, row.place]));
  const first = assetPage.parse((await t.get('/v1/assets?limit=100', token)).body);
  for (const page of [1, Math.ceil(first.pagination.totalPages / 2), first.pagination.totalPages]) {
    const { data } = assetPage.parse(
      (await t.get(`/v1/assets?limit=100&page=${page}`, token)).body,
    );
    expect(data.length).toBeGreaterThan(0);
    data.forEach((asset, i) => {
      expect(asset.position, asset.name).toBe((page - 1) * 100 + i + 1);
      expect(places.get(asset.id)).toBe(asset.position);
    });
  }
}

async function expectSuperblocksRight() {
  const kept = await t.db.query<{ collection: string; superblock: number; n: number }>(
    `SELECT collection, superblock, n::int AS n FROM order_superblocks WHERE n <> 0
     ORDER BY collection, superblock`,
  );
  const summed = await t.db.query<{ collection: string; superblock: number; n: number }>(
    `SELECT collection, block >> 5 AS superblock, sum(n)::int AS n FROM order_blocks
     GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`,
  );
  expect(kept.rows).toEqual(summed.rows);
  expect(new Set(kept.rows.map((row) => row.superblock)).size).toBeGreaterThan(9);
}

describe('places across superblocks', () => {
  it('are each row’s index in the order after inserts, moves and deletes', async () => {
    await expectSuperblocksRight();
    await expectPlacesRight();
    // The last asset to the fifth place, and one in the middle to the Trash.
    dataOf(
      await t.patch(
        `/v1/assets/sb${String(SPREAD).padStart(10, '0')}/position`,
        { position: 5 },
        token,
      ),
    );
    const deleted = await t.request('DELETE', '/v1/assets/sb0000001500', { token });
    expect(deleted.status).toBe(200);
    await expectSuperblocksRight();
    await expectPlacesRight();
    const moved = assetSchema.parse(
      dataOf(await t.get(`/v1/assets/sb${String(SPREAD).padStart(10, '0')}`, token)),
    );
    expect(moved.position).toBe(5);
  });

  it('follow block counts written with the ordinary triggers skipped', async () => {
    await t.db.transaction(async (tx) => {
      await tx.exec(`SET LOCAL session_replication_role = replica;
        DELETE FROM order_blocks WHERE collection = 'assets';
        INSERT INTO order_blocks (collection, block, n)
        SELECT 'assets', position >> 10, count(*) FROM assets GROUP BY 2;`);
    });
    await expectSuperblocksRight();
    await expectPlacesRight();
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { assetSchema, listResponseSchema } from '../contract/schemas';
import { EXACT_TOTAL_LIMIT, MAX_PAGE_DEPTH } from './list';
import { expectError, useTestApp } from './test-app';

const t = useTestApp();
let token = '';
/** Beside the demo catalogue: enough assets that the middle of the list is deeper than the bound. */
const ADDED = 2 * MAX_PAGE_DEPTH + 5_000;
let all = 0;

beforeAll(async () => {
  token = (await t.loginAs('admin')).token;
  await t.db.exec(`
    INSERT INTO assets (id, name, type, gender, locked, position, created_at, updated_at)
    SELECT 'f00d' || lpad(to_hex(i), 20, '0'), 'Bulk ' || i, 'hair', 'unisex', false,
           100000 + i, timestamptz '2025-01-01' + i * interval '1 minute',
           timestamptz '2025-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${ADDED}) AS i;
    ANALYZE assets;
  `);
  const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM assets');
  all = rows[0]!.n;
}, 60_000);

const assetList = listResponseSchema(assetSchema);
async function list(query: string) {
  const response = await t.get(`/v1/assets?${query}`, token);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return assetList.parse(response.body);
}

describe('lists larger than the exact count', () => {
  it(`counts up to ${EXACT_TOTAL_LIMIT.toLocaleString('en')} matches exactly`, async () => {
    const { pagination } = await list('type=beard&limit=10');
    const { rows } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM assets WHERE type = 'beard'",
    );
    expect(pagination.totalDocs).toBe(rows[0]!.n);
    expect(pagination.totalIsEstimate).toBeUndefined();
  });

  it('answers an estimate above that, said to be one, close to the real total', async () => {
    const { pagination, data } = await list('limit=100');
    expect(pagination.totalIsEstimate).toBe(true);
    expect(pagination.totalDocs).toBeGreaterThan(EXACT_TOTAL_LIMIT);
    expect(Math.abs(pagination.totalDocs - all) / all).toBeLessThan(0.2);
    expect(pagination.totalPages).toBe(Math.ceil(pagination.totalDocs / 100));
    expect(data).toHaveLength(100);
  });

  it('serves the last page: the end of the list, whatever the estimate', async () => {
    const { pagination } = await list('limit=100&order=name');
    const last = await list(`limit=100&order=name&page=${pagination.totalPages}`);
    const reversed = await list('limit=100&order=-name');
    expect(last.data.length).toBeGreaterThan(0);
    // The last page's rows are the list's last rows, in the list's order.
    expect(last.data.map((a) => a.id)).toEqual(
      reversed.data
        .slice(0, last.data.length)
        .map((a) => a.id)
        .reverse(),
    );
  });

  it('serves pages near the end that join up with the last one', async () => {
    const { pagination } = await list('limit=25');
    const pages = await Promise.all(
      [2, 1, 0].map((back) => list(`limit=25&page=${pagination.totalPages - back}`)),
    );
    const tail = pages.flatMap((page) => page.data.map((a) => a.id));
    const reversed = await list('limit=100&order=-position');
    expect(tail).toEqual(
      reversed.data
        .slice(0, tail.length)
        .map((a) => a.id)
        .reverse(),
    );
  });

  it(`asks to narrow the search for a page deeper than ${MAX_PAGE_DEPTH.toLocaleString('en')} rows from both ends`, async () => {
    const { pagination } = await list('limit=100');
    const middle = Math.ceil(pagination.totalPages / 2);
    const body = expectError(
      await t.get(`/v1/assets?limit=100&page=${middle}`, token),
      400,
      'PAGE_TOO_DEEP',
    );
    expect(body.message).toContain('narrow the search');
    // The same rows are there for a narrower query.
    const narrowed = await list('limit=100&search=Bulk%201234');
    expect(narrowed.data.map((a) => a.name)).toContain('Bulk 1234');
  });

  it('lists the same rows for one value of a filter as for that value given twice', async () => {
    const once = await list('limit=100&type=hair&order=name&page=2');
    const twice = await list('limit=100&type=hair&type=hair&order=name&page=2');
    expect(once.data.map((a) => a.id)).toEqual(twice.data.map((a) => a.id));
    expect(once.data).toHaveLength(100);
  });
});

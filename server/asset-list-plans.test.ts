import { beforeAll, describe, expect, it } from 'vitest';
import type { Db, SqlParam } from './db';
import { assetListSpec } from './asset-store';
import { parseListQuery, runList } from './list';
import { useTestApp } from './test-app';

const t = useTestApp();
const ADDED = 30_000;

beforeAll(async () => {
  // Filters whose rows cluster at the far end of the order: the female assets are the last by
  // name, and the locked ones are all outfits, after every hair by type.
  await t.db.exec(`
    INSERT INTO assets (id, name, type, gender, locked, position, created_at, updated_at)
    SELECT 'f00d' || lpad(to_hex(i), 20, '0'),
           CASE WHEN i > ${ADDED - 10_000} THEN 'Zz ' ELSE 'Bulk ' END || lpad(i::text, 6, '0'),
           CASE WHEN i > ${ADDED - 10_000} THEN 'outfit' ELSE 'hair' END,
           CASE WHEN i > ${ADDED - 10_000} THEN 'female' ELSE 'male' END,
           i > ${ADDED - 10_000},
           100000 + i, timestamptz '2025-01-01' + i * interval '1 minute',
           timestamptz '2025-01-01' + i * interval '1 minute'
    FROM generate_series(1, ${ADDED}) AS i;
    ANALYZE assets;
  `);
}, 60_000);

/**
 * The rows the plan's scans of the listed assets read, returned or dropped by the filter, summed
 * over their loops (alias `a`, numbered where it appears more than once).
 */
function assetRowsRead(plan: unknown): number {
  const parsed: unknown = typeof plan === 'string' ? JSON.parse(plan) : plan;
  let read = 0;
  const walk = (node: Record<string, unknown>) => {
    if (node['Relation Name'] === 'assets' && String(node.Alias).replace(/_\d+$/, '') === 'a')
      read +=
        (Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0)) *
        Number(node['Actual Loops']);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((parsed as [{ Plan: Record<string, unknown> }])[0].Plan);
  return read;
}

describe('a filtered page of assets', () => {
  it.each([
    { filter: 'gender', value: 'female', order: 'name' },
    { filter: 'type', value: 'outfit', order: 'name' },
    { filter: 'locked', value: 'true', order: 'type' },
    { filter: 'locked', value: 'true', order: 'name' },
  ])('by $filter=$value in $order order reads the page, not the table', async (shape) => {
    const statements: { sql: string; params: readonly SqlParam[] }[] = [];
    const recording: Db = {
      ...t.db,
      query: (sql, params) => {
        statements.push({ sql, params: params ?? [] });
        return t.db.query(sql, params);
      },
    };
    const query = parseListQuery(assetListSpec, {
      order: [shape.order],
      limit: ['25'],
      [shape.filter]: [shape.value],
    });
    const { data } = await runList(recording, assetListSpec, query);
    expect(data).toHaveLength(25);
    const page = statements.filter(
      (s) => /^\s*(WITH|SELECT)/.test(s.sql) && !/AS total/.test(s.sql),
    );
    expect(page).toHaveLength(1);
    const { rows } = await t.db.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${page[0]!.sql}`,
      page[0]!.params,
    );
    // The filter's 10,000 rows (a third) sit behind 20,000 others in the order's index.
    expect(assetRowsRead(rows[0]!['QUERY PLAN'])).toBeLessThanOrEqual(100);
  });
});

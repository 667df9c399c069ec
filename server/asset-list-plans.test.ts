import { beforeAll, describe, expect, it } from 'vitest';
import { assetListSpec } from './asset-store';
import { parseListQuery, runList } from './list';
import { useTestApp } from './test-app';
import { pageStatements, recordingDb, scansOf } from './test-plans';

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

describe('a filtered page of assets', () => {
  it.each([
    { filter: 'gender', value: 'female', order: 'name' },
    { filter: 'type', value: 'outfit', order: 'name' },
    { filter: 'locked', value: 'true', order: 'type' },
    { filter: 'locked', value: 'true', order: 'name' },
  ])('by $filter=$value in $order order reads the page, not the table', async (shape) => {
    const { db, statements } = recordingDb(t.db);
    const query = parseListQuery(assetListSpec, {
      order: [shape.order],
      limit: ['25'],
      [shape.filter]: [shape.value],
    });
    const { data } = await runList(db, assetListSpec, query);
    expect(data).toHaveLength(25);
    const page = pageStatements(statements);
    expect(page).toHaveLength(1);
    const read = (await scansOf(t.db, page[0]!))
      .filter((scan) => scan.table === 'assets' && scan.alias === 'a')
      .reduce((sum, scan) => sum + scan.returned + scan.removed, 0);
    // The filter's 10,000 rows (a third) sit behind 20,000 others in the order's index.
    expect(read).toBeLessThanOrEqual(100);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './db';
import {
  EXACT_TOTAL_LIMIT,
  SqlParams,
  anyOfFilter,
  filterConditions,
  runList,
  type ListQuery,
  type ListSpec,
} from './list';
import { createTestDb, type TestDb } from './test-db';
import { peopleListSpec } from './user-admin';

/** Rows per group: one group far past the exact limit, one just past it, two under it. */
const GROUPS = {
  many: 5 * EXACT_TOTAL_LIMIT,
  some: 2 * EXACT_TOTAL_LIMIT,
  several: 5_000,
  few: 300,
};

let testDb: TestDb;
/** The statements the list ran, through a Db that records them. */
let statements: string[] = [];
let db: Db;

const spec: ListSpec<{ id: string }> = {
  from: 'count_probe c',
  columns: 'c.id',
  orders: { id: 'c.id' },
  defaultOrder: 'id',
  idColumn: 'c.id',
  filters: { grp: anyOfFilter('c.grp') },
  toRow: (row: { id: string }) => ({ id: row.id }),
};

beforeAll(async () => {
  testDb = await createTestDb();
  await testDb.db.exec(`
    CREATE TABLE count_probe (id text PRIMARY KEY, grp text NOT NULL);
    CREATE INDEX count_probe_grp_idx ON count_probe (grp, id);
    ${Object.entries(GROUPS)
      .map(
        ([grp, n]) => `INSERT INTO count_probe (id, grp)
          SELECT '${grp}' || lpad(i::text, 8, '0'), '${grp}' FROM generate_series(1, ${n}) i;`,
      )
      .join('\n')}
    ANALYZE count_probe;
  `);
  const recording = (inner: Db): Db => ({
    ...inner,
    query: (sql, params) => {
      statements.push(sql);
      return inner.query(sql, params);
    },
    transaction: (fn) => inner.transaction((tx) => fn(recording(tx))),
  });
  db = recording(testDb.db);
}, 120_000);

afterAll(() => testDb.close());

async function list(grp: string, page = 1, descending = false) {
  statements = [];
  const query: ListQuery = {
    page,
    limit: 10,
    order: { field: 'id', descending },
    filters: { grp: [grp] },
  };
  const { data, pagination } = await runList(db, spec, query);
  const counted = statements.some((sql) => /count\(\*\)/.test(sql));
  return { data, pagination, counted };
}

describe('list totals', () => {
  it('does not count a list the planner expects far above the exact limit: its total is the estimate', async () => {
    const { data, pagination, counted } = await list('many');
    expect(counted).toBe(false);
    expect(pagination.totalIsEstimate).toBe(true);
    expect(Math.abs(pagination.totalDocs - GROUPS.many) / GROUPS.many).toBeLessThan(0.2);
    expect(data.map((row) => row.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `many${String(i + 1).padStart(8, '0')}`),
    );
  });

  it('counts a list the planner expects near the limit, and estimates it once past the limit', async () => {
    const { pagination, counted } = await list('some');
    expect(counted).toBe(true);
    expect(pagination.totalIsEstimate).toBe(true);
    expect(pagination.totalDocs).toBeGreaterThan(EXACT_TOTAL_LIMIT);
  });

  it('counts a list under the limit exactly', async () => {
    const { pagination, counted } = await list('few');
    expect(counted).toBe(true);
    expect(pagination.totalIsEstimate).toBeUndefined();
    expect(pagination.totalDocs).toBe(GROUPS.few);
  });

  it('reads a page nearer the end of an exactly counted list from the end: the same rows, in order', async () => {
    const ids = (from: number, to: number) =>
      Array.from(
        { length: to - from + 1 },
        (_, i) => `several${String(from + i).padStart(8, '0')}`,
      );
    // Rows 4,001 to 4,010 of 5,000: 990 rows from the end, 4,000 from the start.
    const ascending = await list('several', 401);
    expect(ascending.pagination).toMatchObject({ totalDocs: GROUPS.several, totalPages: 500 });
    expect(ascending.data.map((row) => row.id)).toEqual(ids(4001, 4010));
    expect(statements.some((sql) => /ORDER BY c\.id DESC, c\.id DESC\s+LIMIT/.test(sql))).toBe(
      true,
    );
    const descending = await list('several', 401, true);
    expect(descending.data.map((row) => row.id)).toEqual(ids(991, 1000).reverse());
    expect(statements.some((sql) => /ORDER BY c\.id ASC, c\.id ASC\s+LIMIT/.test(sql))).toBe(true);
    const last = await list('several', 500);
    expect(last.data.map((row) => row.id)).toEqual(ids(4991, 5000));
  });

  it('reads the users filtered by status through the index of their status expression', async () => {
    const params = new SqlParams();
    const where = filterConditions(peopleListSpec, { status: ['disabled'] }, params).join(' AND ');
    const plan = await testDb.db.transaction(async (tx) => {
      // The tables are small here: only an index that matches the expression is a choice.
      await tx.exec('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<Record<string, string>>(
        `EXPLAIN SELECT u.id FROM ${peopleListSpec.from} WHERE ${where} ORDER BY u.email, u.id`,
        params.values,
      );
      return rows.map((row) => Object.values(row).join('')).join('\n');
    });
    expect(plan).toContain('users_status_email_idx');
  });
});

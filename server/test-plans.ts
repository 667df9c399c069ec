import type { Db, SqlParam } from './db';

/** A statement a store sent, with its parameters. */
export interface Statement {
  sql: string;
  params: readonly SqlParam[];
}

/** `db`, writing down every statement sent through it (inside transactions too) in `statements`. */
export function recordingDb(db: Db): { db: Db; statements: Statement[] } {
  const statements: Statement[] = [];
  const recording = (inner: Db): Db => ({
    ...inner,
    query: (sql, params) => {
      statements.push({ sql, params: params ?? [] });
      return inner.query(sql, params);
    },
    transaction: (fn) => inner.transaction((tx) => fn(recording(tx))),
  });
  return { db: recording(db), statements };
}

/** The statements that read a list's page: its SELECTs, less the count of the total. */
export function pageStatements(statements: readonly Statement[]): Statement[] {
  return statements.filter((s) => /^\s*(WITH|SELECT)/.test(s.sql) && !/AS total/.test(s.sql));
}

/** A table scan of an executed plan, its rows summed over the scan's loops. */
export interface Scan {
  table: string;
  /** The scan's alias, without the `_2` PostgreSQL adds where an alias appears again. */
  alias: string;
  /** The rows the scan returned. */
  returned: number;
  /** The rows it read and the filter then dropped. */
  removed: number;
}

/** Runs `statement` under EXPLAIN ANALYZE on `db` and lists the table scans of its plan. */
export async function scansOf(db: Db, statement: Statement): Promise<Scan[]> {
  const { rows } = await db.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
    statement.params,
  );
  const plan = rows[0]!['QUERY PLAN'];
  const parsed: unknown = typeof plan === 'string' ? JSON.parse(plan) : plan;
  const scans: Scan[] = [];
  const walk = (node: Record<string, unknown>) => {
    const table = node['Relation Name'];
    if (typeof table === 'string') {
      const loops = Number(node['Actual Loops']);
      scans.push({
        table,
        alias: String(node.Alias).replace(/_\d+$/, ''),
        returned: Number(node['Actual Rows']) * loops,
        removed: Number(node['Rows Removed by Filter'] ?? 0) * loops,
      });
    }
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((parsed as [{ Plan: Record<string, unknown> }])[0].Plan);
  return scans;
}

/**
 * The one implementation of the list protocol (docs/api.md "Lists"): query parsing (page, limit,
 * order, filters), SQL where clauses from filter definitions, and the count + page queries.
 * Every list endpoint describes itself as a `ListSpec`; field names reach SQL only through the
 * spec's allow-lists, values only as parameters.
 */
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, type Pagination } from '../contract/schemas';
import type { Context } from 'hono';
import { isDbError, type Db, type SqlParam } from './db';
import { fail } from './http/errors';

/** Collects `$n` parameters while a statement is being assembled. */
export class SqlParams {
  readonly values: SqlParam[] = [];
  /** Adds a value and returns its placeholder. */
  add(value: SqlParam): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export interface FilterDef {
  /** Accepts several values (the parameter repeated); they reach SQL as one text[] parameter. */
  multiple?: boolean;
  /** The values allowed; anything else is a 400. */
  values?: readonly string[];
  /** The condition, given the placeholder of the value (text, or text[] when `multiple`). */
  where: (placeholder: string) => string;
  /**
   * The condition for one value of a `multiple` filter (text): an equality the planner can
   * read in index order, which `= ANY(array)` is not.
   */
  whereOne?: (placeholder: string) => string;
  /** Turns the validated value into the parameter (e.g. a LIKE pattern). */
  param?: (value: string) => SqlParam;
}

/**
 * How a list endpoint reads its rows; `DbRow` is what its `columns` select, where a store reads
 * rows through the spec outside a list query (a generic list query reads them untyped).
 */
export interface ListSpec<Row, DbRow = never> {
  /** FROM clause, with the aliases the other fragments use. */
  from: string;
  /** SELECT list. */
  columns: string;
  /**
   * Sortable fields (as clients name them) and their SQL expressions; several expressions sort
   * by each in turn (an order key of several columns, so its index serves the sort).
   */
  orders: Record<string, string | readonly string[]>;
  /** `field` or `-field` used without an `order` parameter. */
  defaultOrder: string;
  /** The unique column that breaks ties so paging is deterministic. */
  idColumn: string;
  /**
   * Where the count and the page's ids are read, when a narrower table than `from` carries the
   * list's sort and filter keys (copies kept by triggers, or the list's own table without the
   * joins that only name things): `orders`, `filters` and the scope then name its aliases, and
   * its `idColumn` stands for the spec's. `from` and `columns` read the page's rows alone.
   */
  keys?: { from: string; idColumn: string };
  /**
   * A spec that reads the count and the page's ids for these filters more narrowly (e.g. over
   * one tag's links, which carry copies of the sort keys), or undefined where this one serves.
   * It takes the same filters and orders, so the query is parsed with this spec.
   */
  narrowedBy?: (filters: FilterValues) => ListSpec<Row, DbRow> | undefined;
  filters: Record<string, FilterDef>;
  /**
   * How a page reads its rows where some columns cost less computed once for the whole page than
   * once per row (the rows' places, server/positions.ts): `with` holds WITH entries that read
   * the page's ids from `page_ids (id, n)`, `join` brings them into `from`, and `columns` is the
   * select list that reads them. `columns` above still reads a row alone.
   */
  page?: { with: string; join: string; columns: string };
  /** Filters a list query must carry (e.g. applicationId of application assets). */
  requiredFilters?: readonly string[];
  /** Maps a database row (typed by the spec's own row interface) to the wire row. */
  toRow: (row: DbRow) => Row;
}

export type FilterValues = Record<string, string[]>;

export interface ListQuery {
  page: number;
  limit: number;
  order: { field: string; descending: boolean };
  filters: FilterValues;
}

export interface ListResult<Row> {
  data: Row[];
  pagination: Pagination;
}

const MAX_FILTER_VALUES = 100;
const MAX_VALUE_LENGTH = 200;

function invalid(message: string): never {
  fail(400, 'VALIDATION_ERROR', message);
}

function single(name: string, values: readonly string[] | undefined): string | undefined {
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) invalid(`${name}: Give at most one value`);
  return values[0];
}

function integer(name: string, raw: string | undefined, fallback: number, max?: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 1) || (max !== undefined && value > max)) {
    invalid(`${name}: Expected an integer from 1${max === undefined ? '' : ` to ${max}`}`);
  }
  return value;
}

/** Parses `field` / `-field` against the spec's sortable fields. */
function parseOrder(spec: ListSpec<unknown>, raw: string): ListQuery['order'] {
  const descending = raw.startsWith('-');
  const field = descending ? raw.slice(1) : raw;
  if (!Object.hasOwn(spec.orders, field)) {
    invalid(
      `order: Sort by one of ${Object.keys(spec.orders).join(', ')} (prefix - for descending)`,
    );
  }
  return { field, descending };
}

/**
 * Validates filter values against the spec: unknown names, several values for a single-valued
 * filter, values outside the allowed set and oversized input are 400s. Empty values are dropped.
 */
function parseFilters(
  spec: ListSpec<unknown>,
  input: Record<string, readonly string[]>,
): FilterValues {
  const filters: FilterValues = {};
  for (const [name, raw] of Object.entries(input)) {
    const def = Object.hasOwn(spec.filters, name) ? spec.filters[name] : undefined;
    if (!def) {
      const known = Object.keys(spec.filters);
      invalid(
        `${name}: Unknown filter; this list accepts ${known.length > 0 ? known.join(', ') : 'none'}`,
      );
    }
    const values = raw.filter((value) => value !== '');
    if (values.length === 0) continue;
    if (!def.multiple && values.length > 1) invalid(`${name}: Give at most one value`);
    if (values.length > MAX_FILTER_VALUES) invalid(`${name}: At most ${MAX_FILTER_VALUES} values`);
    for (const value of values) {
      if (value.length > MAX_VALUE_LENGTH) invalid(`${name}: Values are at most 200 characters`);
      if (def.values && !def.values.includes(value)) {
        invalid(`${name}: Expected one of ${def.values.join(', ')}`);
      }
    }
    filters[name] = values;
  }
  return filters;
}

/**
 * Turns a JSON filter object (the `filter` of an order-update body) into the string values the
 * query string would carry: scalars become one value, arrays several.
 */
export function filterFromJson(
  spec: ListSpec<unknown>,
  json: Record<string, unknown> | undefined,
): FilterValues {
  const input: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(json ?? {})) {
    const items = Array.isArray(value) ? (value as unknown[]) : [value];
    input[name] = items.flatMap((item) => {
      if (item === null || item === undefined) return [];
      if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') {
        return [String(item)];
      }
      invalid(`filter.${name}: Expected a string, number, boolean or an array of them`);
    });
  }
  return parseFilters(spec, input);
}

/** Parses a list query string (`c.req.queries()`): page, limit, order and the spec's filters. */
export function parseListQuery(
  spec: ListSpec<unknown>,
  query: Record<string, string[]>,
): ListQuery {
  const { page, limit, order, ...rest } = query;
  const parsed: ListQuery = {
    page: integer('page', single('page', page), 1),
    limit: integer('limit', single('limit', limit), LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT),
    order: parseOrder(spec, single('order', order) ?? spec.defaultOrder),
    filters: parseFilters(spec, rest),
  };
  for (const name of spec.requiredFilters ?? []) {
    if (!parsed.filters[name]) invalid(`${name}: Required`);
  }
  return parsed;
}

/** The SQL conditions of `filters` (ANDed by the caller), with their values added to `params`. */
export function filterConditions(
  spec: ListSpec<unknown>,
  filters: FilterValues,
  params: SqlParams,
): string[] {
  return Object.entries(filters).map(([name, values]) => {
    const def = spec.filters[name]!;
    const convert = def.param ?? ((value: string) => value);
    if (def.whereOne && values.length === 1)
      return `(${def.whereOne(params.add(convert(values[0]!)))})`;
    const placeholder = def.multiple
      ? params.add(values.map((value) => String(convert(value))))
      : params.add(convert(values[0]!));
    return `(${def.where(placeholder)})`;
  });
}

/** `ORDER BY` for a parsed order: the sort expression, then the id in the same direction. */
function orderBy(spec: ListSpec<unknown>, order: ListQuery['order']): string {
  const direction = order.descending ? 'DESC' : 'ASC';
  return [spec.orders[order.field]!, spec.keys?.idColumn ?? spec.idColumn]
    .flat()
    .map((expression) => `${expression} ${direction}`)
    .join(', ');
}

/** Extra conditions of one endpoint (e.g. the user of a user's assets), adding their params. */
export type ListScope = (params: SqlParams) => string[];

/**
 * A query answering `total`, the list's matches under `filters` read from counts kept by
 * triggers, adding its params; undefined where no kept count stands for them (they are counted).
 */
export type KeptCount = (params: SqlParams, filters: FilterValues) => string | undefined;

/** The handler of a plain list endpoint: the request's query in, `{ data, pagination }` out. */
export function listHandler<Row>(db: Db, spec: ListSpec<Row>, keptCount?: KeptCount) {
  return async (c: Context) =>
    c.json(await runList(db, spec, parseListQuery(spec, c.req.queries()), undefined, keptCount));
}

/** The row of `spec` whose `idColumn` is `id`; a 404 naming the `noun` when there is none. */
export async function findById<Row>(
  db: Db,
  spec: ListSpec<Row>,
  id: string,
  noun: string,
): Promise<Row> {
  const { rows } = await db.query<never>(
    `SELECT ${spec.columns} FROM ${spec.from} WHERE ${spec.idColumn} = $1`,
    [id],
  );
  if (!rows[0]) fail(404, 'NOT_FOUND', `No ${noun} with id ${id}`);
  return spec.toRow(rows[0]);
}

/**
 * Up to this many matches a list's total is counted exactly; above it the total is the
 * planner's estimate, flagged `totalIsEstimate` (counting a million rows on every request
 * would cost more than the page).
 */
export const EXACT_TOTAL_LIMIT = 10_000;

/**
 * Pages are served this many rows deep from the start and from the end of a list (the end by
 * reading the order backwards); a page deeper from both is refused with a request to narrow
 * the search, as search engines bound deep paging. Equal to the exact-count limit, so a list
 * whose total is exact never meets it.
 */
export const MAX_PAGE_DEPTH = 10_000;

/** How long a list's count may take before its total is estimated instead. */
const COUNT_BUDGET_MS = 40;

/** PostgreSQL's error code of a statement stopped by statement_timeout. */
const PG_QUERY_CANCELED = '57014';

/**
 * Above this many planned matches a list is not counted: counting stops at EXACT_TOTAL_LIMIT + 1
 * matches, and finding that many through a filter no index orders (a search, a flag) reads tens
 * of thousands of rows to learn only that the estimate stands. The margin keeps lists the planner
 * misjudges by up to four times counted.
 */
const ESTIMATE_ONLY_ABOVE = 4 * EXACT_TOTAL_LIMIT;

/**
 * The matches of `from ... where`: exact up to EXACT_TOTAL_LIMIT when counting them fits the
 * budget, otherwise the planner's estimate (not counted at all where it is far above the limit).
 */
async function countMatches(
  db: Db,
  fromWhere: string,
  params: readonly SqlParam[],
): Promise<{ total: number; estimate: boolean }> {
  const plan = await db.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${fromWhere}`,
    params,
  );
  const planned = Math.round(planRows(plan.rows[0]?.['QUERY PLAN']));
  if (planned > ESTIMATE_ONLY_ABOVE) return { total: planned, estimate: true };
  // Counting rare matches of a filter no index serves can read the whole table: past the
  // budget the count stops and the estimate stands in.
  const counted = await db
    .transaction(async (tx) => {
      await tx.query(`SET LOCAL statement_timeout = ${COUNT_BUDGET_MS}`);
      const { rows } = await tx.query<{ total: number }>(
        `SELECT count(*)::int AS total
         FROM (SELECT 1 FROM ${fromWhere} LIMIT ${EXACT_TOTAL_LIMIT + 1}) t`,
        params,
      );
      return rows[0]?.total ?? 0;
    })
    .catch((error: unknown) => {
      if (isDbError(error, PG_QUERY_CANCELED)) return undefined;
      throw error;
    });
  if (counted !== undefined && counted <= EXACT_TOTAL_LIMIT) {
    return { total: counted, estimate: false };
  }
  return { total: Math.max(counted ?? 0, planned), estimate: true };
}

/**
 * The total a kept count gives, when there is one: above the exact limit flagged an estimate, as
 * a count's would be (counting up to the limit first would read that many rows to learn no more).
 */
async function countKept(
  db: Db,
  keptCount: KeptCount | undefined,
  filters: FilterValues,
): Promise<{ total: number; estimate: boolean } | undefined> {
  const params = new SqlParams();
  const sql = keptCount?.(params, filters);
  if (sql === undefined) return undefined;
  const { rows } = await db.query<{ total: number | string }>(sql, params.values);
  const total = Number(rows[0]?.total ?? 0);
  return { total, estimate: total > EXACT_TOTAL_LIMIT };
}

/** The row estimate at the top of an `EXPLAIN (FORMAT JSON)` answer (text or parsed). */
function planRows(explained: unknown): number {
  const parsed: unknown = typeof explained === 'string' ? JSON.parse(explained) : explained;
  const rows = (parsed as [{ Plan?: { 'Plan Rows'?: unknown } }] | undefined)?.[0]?.Plan?.[
    'Plan Rows'
  ];
  return typeof rows === 'number' ? rows : 0;
}

/** Pages this many rows deep from the start are read without waiting for the total. */
const EARLY_PAGE_DEPTH = 1_000;

/**
 * Which rows a page reads: `offset` rows into the order, or, nearer the end of a list, the rows
 * as far into the reversed order. The end is the nearer one when the total is exact (the same
 * rows either way, fewer passed over); with an estimate only pages deeper than MAX_PAGE_DEPTH
 * are read from the end, where the last page shows the list's last rows whatever the estimate.
 * Undefined when the page lies deeper than MAX_PAGE_DEPTH from both ends.
 */
function pageWindow(
  query: ListQuery,
  total: number,
  estimate: boolean,
): { offset: number; count: number; reversed: boolean } | undefined {
  const offset = (query.page - 1) * query.limit;
  // Past the end (of an estimate, the estimated end) there is nothing to read.
  if (offset >= total) return { offset, count: 0, reversed: false };
  const fromEnd = total - offset;
  const count = Math.min(query.limit, fromEnd);
  const nearerEnd = !estimate && fromEnd - count < offset;
  if (!nearerEnd && offset < MAX_PAGE_DEPTH) {
    return { offset, count: query.limit, reversed: false };
  }
  if (fromEnd > MAX_PAGE_DEPTH) return undefined;
  return { offset: fromEnd - count, count, reversed: true };
}

/**
 * Runs the count and the page query of a list. The page query orders and pages the ids alone
 * (an index read over the sort key), then reads the columns (tags, places, deliveries: the
 * costly sub-queries) of that page's rows only.
 */
export async function runList<Row>(
  db: Db,
  listSpec: ListSpec<Row>,
  query: ListQuery,
  scope?: ListScope,
  keptCount?: KeptCount,
): Promise<ListResult<Row>> {
  const spec = listSpec.narrowedBy?.(query.filters) ?? listSpec;
  const params = new SqlParams();
  const conditions = [...(scope?.(params) ?? []), ...filterConditions(spec, query.filters, params)];
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const keys = spec.keys ?? { from: spec.from, idColumn: spec.idColumn };
  const readPage = async (window: { offset: number; count: number; reversed: boolean }) => {
    if (window.count === 0) return [];
    const pageParams = [...params.values, window.count, window.offset];
    const innerOrder = orderBy(spec, {
      ...query.order,
      descending: query.order.descending !== window.reversed,
    });
    const ids = `SELECT ${keys.idColumn} FROM ${keys.from} ${where} ORDER BY ${innerOrder}
      LIMIT $${pageParams.length - 1} OFFSET $${pageParams.length}`;
    // With keys of their own, the page keeps the order its ids were read in (the sort key
    // need not be a column of `from`).
    const { rows } = await db.query<never>(
      spec.page
        ? `WITH page_ids AS MATERIALIZED (
             SELECT id, n FROM unnest(ARRAY(${ids})) WITH ORDINALITY AS page_ids (id, n)),
           ${spec.page.with}
           SELECT ${spec.page.columns} FROM ${spec.from}
           JOIN page_ids ON ${spec.idColumn} = page_ids.id ${spec.page.join}
           ORDER BY page_ids.n ${window.reversed ? 'DESC' : 'ASC'}`
        : spec.keys
          ? `SELECT ${spec.columns} FROM ${spec.from}
           JOIN unnest(ARRAY(${ids})) WITH ORDINALITY AS page_ids (id, n)
             ON ${spec.idColumn} = page_ids.id
           ORDER BY page_ids.n ${window.reversed ? 'DESC' : 'ASC'}`
          : `SELECT ${spec.columns} FROM ${spec.from}
           WHERE ${spec.idColumn} = ANY(ARRAY(${ids}))
           ORDER BY ${orderBy(spec, query.order)}`,
      pageParams,
    );
    return rows;
  };
  const offset = (query.page - 1) * query.limit;
  // A page near the start does not depend on the total: both queries run at once.
  const early =
    offset < EARLY_PAGE_DEPTH
      ? readPage({ offset, count: query.limit, reversed: false })
      : undefined;
  const counted = countKept(db, keptCount, query.filters).then(
    (kept) => kept ?? countMatches(db, `${keys.from} ${where}`, params.values),
  );
  const [{ total, estimate }, earlyRows] = await Promise.all([counted, early]);
  let rows = earlyRows;
  if (!rows) {
    const window = pageWindow(query, total, estimate);
    if (!window) {
      fail(
        400,
        'PAGE_TOO_DEEP',
        `page: Pages more than ${MAX_PAGE_DEPTH.toLocaleString('en')} rows from both the start and the end of a list are not served; narrow the search or sort the other way`,
      );
    }
    rows = await readPage(window);
  }
  const totalPages = Math.ceil(total / query.limit);
  return {
    data: rows.map(spec.toRow),
    pagination: {
      page: query.page,
      limit: query.limit,
      totalDocs: total,
      totalPages,
      hasNextPage: query.page < totalPages,
      ...(estimate ? { totalIsEstimate: true } : {}),
    },
  };
}

// Filter builders shared by the specs.

/** `search`: case-insensitive substring match (served by the trigram indexes). */
export function searchFilter(column: string): FilterDef {
  return {
    where: (p) => `${column} ILIKE ${p}`,
    param: (value) => `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`,
  };
}

/**
 * `search` over a column that no trigram index serves, read along another index (a user's
 * assignments by name): the match of ILIKE, which in a UTF-8 database lowers both sides and
 * compares them, with the pattern lowered once instead of for every row (ILIKE took four times
 * as long over ten thousand names).
 */
export function scannedSearchFilter(column: string): FilterDef {
  return { ...searchFilter(column), where: (p) => `lower(${column}) LIKE lower(${p})` };
}

/** A column equal to any of the given values. */
export function anyOfFilter(column: string, values?: readonly string[]): FilterDef {
  return {
    multiple: true,
    values,
    where: (p) => `${column} = ANY(${p}::text[])`,
    whereOne: (p) => `${column} = ${p}`,
  };
}

/** `true` / `false`. */
export function booleanFilter(column: string): FilterDef {
  return { values: ['true', 'false'], where: (p) => `${column} = ${p}::boolean` };
}

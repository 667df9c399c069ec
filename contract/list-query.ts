/**
 * The list query (spec §3 "List query", §4 paging, sort and reorder rules, §5 filter rules) as
 * plain data and pure functions. It sits in src/api so that the request encoder, the URL codec,
 * the list machine and the ui (which may not import machines) share one definition.
 */

export type SortDirection = 'asc' | 'desc';
/** Direction per field; lists sort by one field at a time, so it holds at most one entry. */
export type ListOrder = Readonly<Partial<Record<string, SortDirection>>>;
type FilterScalar = string | number | boolean;
export type FilterValue = FilterScalar | readonly FilterScalar[] | null | undefined;
export type ListFilter = Readonly<Record<string, FilterValue>>;
/** Spec §3: every row needs an id. */
export interface ListRow {
  id: string;
}

/** What a list request asks for; autocomplete reads leave page and order out. */
export interface ListQuery {
  page?: number;
  limit?: number;
  order?: ListOrder;
  filter?: ListFilter;
}

/** The page sizes a paged list offers (the server reads at most 100 rows a page). */
export const LIST_PAGE_SIZES = [10, 25, 50, 100] as const;

/** Spec §9: the descending prefix of an encoded sort. */
const DESCENDING_PREFIX = '-';

/** Whether a filter value counts as empty (spec §5: falsy or an empty array). */
function isEmptyFilterValue(value: FilterValue): boolean {
  return !value || (Array.isArray(value) && value.length === 0);
}

/** The filter without its empty values (spec §5). */
export function cleanFilter(filter: ListFilter): ListFilter {
  return Object.fromEntries(
    Object.entries(filter).filter(([, value]) => !isEmptyFilterValue(value)),
  );
}

/** Spec §5: filters are active when any value is non-empty. */
export function isFilterActive(filter: ListFilter): boolean {
  return Object.values(filter).some((value) => !isEmptyFilterValue(value));
}

/** The field the list is sorted by, with its direction, or null when unsorted. */
export function sortOf(order: ListOrder): { field: string; direction: SortDirection } | null {
  for (const [field, direction] of Object.entries(order)) {
    if (direction) return { field, direction };
  }
  return null;
}

/** Spec §4: an unsorted field becomes descending; the sorted field flips direction. */
export function toggleSort(order: ListOrder, field: string): ListOrder {
  return { [field]: order[field] === 'desc' ? 'asc' : 'desc' };
}

/** `field` or `-field` (spec §7), or undefined when unsorted. */
export function encodeOrder(order: ListOrder): string | undefined {
  const sort = sortOf(order);
  if (!sort) return undefined;
  return sort.direction === 'desc' ? `${DESCENDING_PREFIX}${sort.field}` : sort.field;
}

/** The order an encoded `field` / `-field` stands for; empty text means unsorted. */
export function decodeOrder(text: string): ListOrder {
  const descending = text.startsWith(DESCENDING_PREFIX);
  const field = descending ? text.slice(DESCENDING_PREFIX.length) : text;
  return field === '' ? {} : { [field]: descending ? 'desc' : 'asc' };
}

/** Spec §4: a whole page of at least 1 and, once totalPages is known (> 0), at most that. */
export function clampPage(page: number, totalPages: number): number {
  const whole = Number.isFinite(page) ? Math.floor(page) : 1;
  const atMost = totalPages > 0 ? Math.min(whole, totalPages) : whole;
  return Math.max(1, atMost);
}

/** A copy of `rows` with the row at `fromIndex` moved to `toIndex` (clamped into the list). */
export function moveRow<R>(rows: readonly R[], fromIndex: number, toIndex: number): R[] {
  const next = [...rows];
  if (fromIndex < 0 || fromIndex >= next.length) return next;
  const [row] = next.splice(fromIndex, 1) as [R];
  next.splice(Math.min(Math.max(toIndex, 0), next.length), 0, row);
  return next;
}

/**
 * Spec §4 menu reorder: a target above the total count or below 0 means last place, otherwise
 * the given 1-based position. Position 0 becomes 1, the first place the API accepts.
 */
export function targetPosition(position: number, totalDocs: number): number {
  if (position > totalDocs || position < 0) return Math.max(totalDocs, 1);
  return Math.max(Math.floor(position), 1);
}

/** JSON with object keys sorted: equal filters and orders give equal text whatever their key order. */
export const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );

/** The chosen values of a filter as strings: none, one or several (a select's keys, a text). */
export const filterTexts = (value: FilterValue): string[] =>
  Array.isArray(value)
    ? value.map(String)
    : value === null || value === undefined || value === ''
      ? []
      : [String(value)];

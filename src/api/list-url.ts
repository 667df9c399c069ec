/**
 * List state in the address query string (spec §2, §4, §5): `filter` (a JSON object), `order`
 * (`field` or `-field`), `page` and `limit` (the page size, one of LIST_PAGE_SIZES). Built for TanStack Router's `validateSearch`, whose default
 * parser has already JSON-decoded values that looked like JSON, so both forms are accepted.
 */
import { z } from 'zod/mini';
import {
  canonical,
  cleanFilter,
  decodeOrder,
  encodeOrder,
  isFilterActive,
  LIST_PAGE_SIZES,
  sortOf,
  type ListFilter,
  type ListOrder,
} from '../../contract/list-query';

/** The list state the address carries. */
export interface ListUrlState {
  filter: ListFilter;
  order: ListOrder;
  page: number;
  /** The page size; absent, the list keeps the one it has (remembered, or its default). */
  limit?: number | undefined;
}

/** The search object written to the address; the router JSON-encodes `filter`. */
export interface ListSearch {
  filter?: ListFilter | undefined;
  order?: string | undefined;
  page?: number | undefined;
  limit?: number | undefined;
  /**
   * The address's `filter` could not be read and was dropped: the screen says so. Never written
   * by the list itself, so it leaves the address at the list's next write.
   */
  filterIgnored?: true | undefined;
}

export interface ListSearchOptions {
  /** Fields the list may be sorted by; an `order` on any other field falls back to the default. */
  sortFields?: readonly string[];
  defaultOrder?: ListOrder;
}

/** Only scalar and scalar-array values ever reach a request, whatever the list's schema allows. */
const filterShape = z.record(
  z.string(),
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(z.union([z.string(), z.number(), z.boolean()])),
  ]),
);

/**
 * Whether a raw `filter` param (as the address has it) is there but cannot be read: not JSON,
 * or not what `filterSchema` takes. The list then ignores it and says so.
 */
function isUnreadableFilter(raw: unknown, filterSchema: z.core.$ZodType): boolean {
  if (raw === undefined || raw === null || raw === '') return false;
  try {
    const value: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    z.parse(filterSchema, value);
    z.parse(filterShape, value);
    return false;
  } catch {
    return true;
  }
}

function parseFilter(raw: unknown, filterSchema: z.core.$ZodType): ListFilter {
  if (raw === undefined || raw === '') return {};
  try {
    const value: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    z.parse(filterSchema, value);
    // The list's schema validates; the generic shape keeps the type honest for what is kept.
    return cleanFilter(z.parse(filterShape, value));
  } catch (error) {
    console.warn('Error parsing filters', error);
    return {};
  }
}

function parseOrder(raw: unknown, options: ListSearchOptions): ListOrder {
  const fallback = options.defaultOrder ?? {};
  if (typeof raw !== 'string') return fallback;
  const order = decodeOrder(raw);
  const field = sortOf(order)?.field;
  if (field === undefined) return fallback;
  return !options.sortFields || options.sortFields.includes(field) ? order : fallback;
}

function parsePage(raw: unknown): number {
  const page = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof page === 'number' && Number.isInteger(page) && page >= 1 ? page : 1;
}

/** A page size the lists offer, or none (absent or malformed: the list keeps its own). */
function parseLimit(raw: unknown): number | undefined {
  const limit = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return LIST_PAGE_SIZES.find((size) => size === limit);
}

/**
 * Reads list state from raw search params. A filter that is not JSON or does not fit
 * `filterSchema` logs 'Error parsing filters' and counts as none; a malformed page is 1 and a
 * malformed limit none.
 */
export function parseListSearch(
  raw: Record<string, unknown>,
  filterSchema: z.core.$ZodType,
  options: ListSearchOptions = {},
): ListUrlState {
  return {
    filter: parseFilter(raw.filter, filterSchema),
    order: parseOrder(raw.order, options),
    page: parsePage(raw.page),
    limit: parseLimit(raw.limit),
  };
}

/**
 * The search object for list state; infinite lists leave the page out, no filter drops the
 * param. Dropped params are present as `undefined`: the router keeps raw params a validator
 * does not answer for, so a malformed `filter` would otherwise survive validation.
 */
export function toListSearch(
  state: ListUrlState,
  { mode }: { mode: 'paged' | 'infinite' },
): ListSearch {
  return {
    filter: isFilterActive(state.filter) ? cleanFilter(state.filter) : undefined,
    order: encodeOrder(state.order),
    page: mode === 'paged' ? state.page : undefined,
    limit: mode === 'paged' ? state.limit : undefined,
  };
}

/** Whether two list searches say the same (key order aside). */
export const sameSearch = (a: ListSearch, b: ListSearch) => canonical(a) === canonical(b);

/** The filter schema of lists that only search. */
const searchOnly = z.strictObject({ search: z.optional(z.string()) });

/** The list state of a search the route has already validated (see `defineList`). */
export function fromListSearch(search: ListSearch): ListUrlState {
  return {
    filter: cleanFilter(search.filter ?? {}),
    order: search.order === undefined ? {} : decodeOrder(search.order),
    page: search.page ?? 1,
    limit: search.limit,
  };
}

/** What a list route declares once; its `validateSearch` and its screen both read it. */
export interface ListDefinition {
  /** Validates the `filter` search param (default: a search box only). */
  filterSchema: z.core.$ZodType;
  /** Fields the list may be sorted by; an `order` on any other field falls back to the default. */
  sortFields: readonly string[];
  defaultOrder: ListOrder;
  /** Pages with a pager (default) or one endless list that loads as the end comes into view. */
  mode: 'paged' | 'infinite';
  /** Keep filter, order and page in the address (default true). */
  urlState?: boolean;
}

type ListDefinitionInput = Omit<ListDefinition, 'filterSchema' | 'mode'> &
  Partial<Pick<ListDefinition, 'filterSchema' | 'mode'>>;

/** A list definition with the route's `validateSearch`: raw params in, the normalised search out. */
export function defineList(
  input: ListDefinitionInput,
): ListDefinition & { validateSearch: (raw: Record<string, unknown>) => ListSearch } {
  const definition = { filterSchema: searchOnly, mode: 'paged' as const, ...input };
  return {
    ...definition,
    validateSearch: (raw) => {
      const search = toListSearch(parseListSearch(raw, definition.filterSchema, definition), {
        mode: definition.mode,
      });
      return isUnreadableFilter(raw.filter, definition.filterSchema)
        ? { ...search, filterIgnored: true }
        : search;
    },
  };
}

/**
 * List endpoints (spec §3 list query/response, §7 "Lists"): the paged read, its place in the
 * query cache (the list machine observes it there; readList reads it once), the order update
 * and find-by-id. Every failure carries the service named by the endpoint's
 * resource (`v1/assets` -> 'assets', `private/v1/cage-meshes` -> 'cage-meshes').
 */
import { z } from 'zod/mini';
import { tagService } from './errors';
import { apiList, apiRequest } from './http';
import { cleanFilter, encodeOrder, type ListQuery, type ListRow } from '../../contract/list-query';
import { CACHE_GC_MS, queryClient } from './query';
import { listResponseSchema, type Pagination } from '../../contract/schemas';

/** A zod schema for one row; whatever it outputs must have an `id`. */
export type RowSchema<R extends ListRow = ListRow> = z.core.$ZodType<R>;

/** Rows of unknown shape: only the id is checked, the other fields pass through. */
export const anyRowSchema: RowSchema = z.looseObject({ id: z.string() });

export interface ListResponse<R extends ListRow = ListRow> {
  data: R[];
  pagination: Pagination;
}

/** Spec §7: a page read again within this time comes from the cache. */
const LIST_STALE_MS = CACHE_GC_MS;

const LIST_KEY = 'list';

// ky resolves paths against the API base like URLs do: a leading slash would drop the base path.
const relative = (endpoint: string) => endpoint.replace(/^\/+/, '');

/** The resource an endpoint belongs to, used as the service name of its errors. */
export function serviceOf(endpoint: string): string {
  const segments = relative(endpoint).split('/');
  return (
    segments.find((part) => part !== '' && part !== 'private' && !/^v\d+$/.test(part)) ?? 'lists'
  );
}

/** The query string of a list request: page, limit, `order=field|-field`, non-empty filters, arrays repeated. */
export function encodeListQuery(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.page !== undefined) params.set('page', String(query.page));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  const order = encodeOrder(query.order ?? {});
  if (order !== undefined) params.set('order', order);
  for (const [field, value] of Object.entries(cleanFilter(query.filter ?? {}))) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) params.append(field, String(item));
  }
  return params;
}

/**
 * Reads one page of a list from the network and validates it. An endpoint may carry fixed
 * query parameters (`v1/application-assets?applicationId=x`); they are sent with every page.
 */
export function fetchList<S extends RowSchema>(
  endpoint: string,
  query: ListQuery,
  rowSchema: S,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ListResponse<z.output<S>>> {
  const [path = '', fixed = ''] = relative(endpoint).split('?');
  const searchParams = encodeListQuery(query);
  for (const [key, value] of new URLSearchParams(fixed)) searchParams.set(key, value);
  return tagService(serviceOf(endpoint))(() =>
    apiList(path, listResponseSchema(rowSchema), {
      searchParams,
      ...(signal === undefined ? {} : { signal }),
    }),
  );
}

/** Whether a cached read is a page of a list (`listQueryKey`). */
export const isListQuery = ({ queryKey }: { queryKey: readonly unknown[] }) =>
  queryKey[0] === LIST_KEY;

/** The cache key of one page of a list; `[list, endpoint]` prefixes every page of it. */
export function listQueryKey(endpoint: string, query: ListQuery = {}): readonly unknown[] {
  const { page, limit, order = {}, filter = {} } = query;
  // The cache hashes keys with sorted object keys, so equal queries share an entry.
  return [LIST_KEY, relative(endpoint), { page, limit, order, filter: cleanFilter(filter) }];
}

/** How one page of a list is read: the request behind `read`, validated. */
export type ReadPage = (
  endpoint: string,
  query: ListQuery,
  rowSchema: RowSchema,
  options: { signal: AbortSignal },
) => Promise<ListResponse>;

/**
 * One page of a list as the cache holds it: its key, its request (`read`, the network by
 * default) and how long it stays fresh. readList and the list machine's observers (list.pages.ts)
 * read through it, so a page read by either is served to both.
 */
export const listPageQuery = (
  endpoint: string,
  query: ListQuery,
  rowSchema: RowSchema,
  read: ReadPage = fetchList,
) => ({
  queryKey: listQueryKey(endpoint, query),
  queryFn: ({ signal }: { signal: AbortSignal }) => read(endpoint, query, rowSchema, { signal }),
  staleTime: LIST_STALE_MS,
});

/**
 * Reads one page through the app's cache: a page read within LIST_STALE_MS is served from it
 * unless `fresh` is set. Aborting `signal` cancels the request still in flight.
 */
export async function readList<S extends RowSchema>(
  endpoint: string,
  query: ListQuery,
  rowSchema: S,
  { signal, fresh = false }: { signal?: AbortSignal; fresh?: boolean } = {},
): Promise<ListResponse<z.output<S>>> {
  const page = listPageQuery(endpoint, query, rowSchema);
  // fetchQuery has no observer to unsubscribe, so a superseded read is cancelled explicitly.
  const cancel = () => void queryClient.cancelQueries({ queryKey: page.queryKey, exact: true });
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await queryClient.fetchQuery({ ...page, staleTime: fresh ? 0 : LIST_STALE_MS });
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** Marks every cached page of a list stale; the pages on screen are read again at once. */
export function invalidateList(endpoint: string): Promise<void> {
  return invalidateLists((path) => path === relative(endpoint));
}

/**
 * Marks every cached page of the lists whose endpoint `shows` accepts stale. The pages a list
 * shows are observed (list machine), so those are read again now, and the promise settles once
 * they are: a change that awaits it answers with its lists up to date. Pages not on screen are
 * read again when next shown.
 */
export function invalidateLists(shows: (endpoint: string) => boolean): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: ({ queryKey: [key, endpoint] }) =>
      key === LIST_KEY && typeof endpoint === 'string' && shows(endpoint),
  });
}

/** `{id}` in the endpoint is replaced by the id; otherwise the id is appended as a path segment. */
const withId = (endpoint: string, id: string) => {
  const encoded = encodeURIComponent(id);
  const path = relative(endpoint);
  return path.includes('{id}')
    ? path.replaceAll('{id}', encoded)
    : `${path.replace(/\/+$/, '')}/${encoded}`;
};

export interface PositionUpdate {
  id: string;
  /** The new 1-based position within the filtered list. */
  position: number;
  filter?: Record<string, unknown>;
}

/** Moves a row to a 1-based position (PATCH, body `{ position, filter }`); answers the moved row. */
export function updatePosition<S extends z.core.$ZodType = typeof anyRowSchema>(
  endpoint: string,
  { id, position, filter }: PositionUpdate,
  rowSchema?: S,
): Promise<z.output<S>> {
  const json = filter === undefined ? { position } : { position, filter };
  return tagService(serviceOf(endpoint))(() =>
    apiRequest(withId(endpoint, id), (rowSchema ?? anyRowSchema) as S, { method: 'patch', json }),
  );
}

/** Reads one row by id (GET `<endpoint>/{id}`, answering `{ data: row }`). */
export function findById<S extends z.core.$ZodType>(
  endpoint: string,
  id: string,
  rowSchema: S,
  { signal }: { signal?: AbortSignal } = {},
): Promise<z.output<S>> {
  return tagService(serviceOf(endpoint))(() =>
    apiRequest<S>(withId(endpoint, id), rowSchema, signal === undefined ? {} : { signal }),
  );
}

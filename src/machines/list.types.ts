// The list machine's constants, context, events and inputs (list.machine.ts).
import type { ListSearch } from '../api/list-url';
import type { ApiErrorInfo } from '../api/error-info';
import type { FilterValue, ListFilter, ListOrder, ListRow } from '../../contract/list-query';
import type { RowSchema } from '../api/lists';

/** Spec §9: list requests wait this long for the input to settle. */
export const LIST_DEBOUNCE_MS = 250;
/** A burst of live changes is looked at once, this long after the first. */
export const REMOTE_SYNC_MS = 300;
/** How long a row someone else deleted stays on screen, marked, before it goes. */
export const REMOVED_MS = 3000;

export type ListMode = 'paged' | 'infinite';

export interface ListInput {
  /** The list endpoint, e.g. `v1/assets`. */
  endpoint: string;
  /** Validates each row; defaults to "has a string id". */
  rowSchema?: RowSchema;
  limit?: number;
  initialPage?: number;
  initialOrder?: ListOrder;
  initialFilter?: ListFilter;
  mode?: ListMode;
  /** Turns drag and menu reordering on; `{id}` in the endpoint is the row id (else appended). */
  reorder?: { endpoint: string };
  /**
   * Keep filter, order and page in the address: the list starts from this (validated) search,
   * asks for a change by emitting NAVIGATE, and takes its query from ADDRESS_CHANGED alone.
   */
  search?: ListSearch;
  /** Single-select filters with a preselectValue (spec §4). */
  preselect?: readonly Preselect[];
  /** Below the mobile breakpoint (preselect fills hidden filters too). */
  isMobile?: boolean;
  /**
   * A feed, newest first (the activity log): rows others add above arrive at the top of the
   * first page at once, rather than waiting for "show" (see `mergeRemote`).
   */
  newRowsOnTop?: boolean;
}

/** Spec §4: a single-select filter that, while empty, takes this value. */
export interface Preselect {
  field: string;
  value: string;
  /** Hidden on wide screens (hiddenWithOneOption with one option): preselected on mobile only. */
  hiddenOnDesktop: boolean;
}

/**
 * What the address reads, or was last asked to read (the write may still be on its way);
 * `replace` when that change adds no history entry.
 */
export interface ListAddress {
  search: ListSearch;
  replace: boolean;
}

/** How the pages now awaited are read. */
export interface PendingLoad {
  /** From the server even when the cache holds them fresh (REFRESH). */
  fresh: boolean;
  /** LOAD_MORE: the rows on screen stay and the new page is added below them. */
  append: boolean;
}

/** An optimistic move waiting for the server. */
export interface PendingMove {
  id: string;
  /** The new 1-based position in the whole filtered list. */
  position: number;
  /** Where the row was before, for an undo. */
  previousPosition: number;
  /** The rows before the move, restored when the server rejects it. */
  previousRows: ListRow[];
  /** False when the row moved to another page: the page is read again once the move is stored. */
  staysInView: boolean;
}

export type QueryState = Pick<ListContext, 'page' | 'limit' | 'order' | 'filter'>;

export interface ListContext {
  endpoint: string;
  rowSchema: RowSchema;
  mode: ListMode;
  reorderEndpoint: string | null;
  page: number;
  limit: number;
  order: ListOrder;
  /** Never holds empty values (spec §5). */
  filter: ListFilter;
  /** Paged: the current page. Infinite: pages 1..page concatenated. */
  rows: ListRow[];
  /** The query `rows` answer; null before the first answer. */
  shown: QueryState | null;
  totalDocs: number;
  /** totalDocs is the server's estimate of a large total (shown as "about N"). */
  totalIsEstimate: boolean;
  totalPages: number;
  hasNextPage: boolean;
  error: ApiErrorInfo | null;
  load: PendingLoad;
  move: PendingMove | null;
  /** Null when the list keeps no state in the address. */
  address: ListAddress | null;
  preselect: readonly Preselect[];
  isMobile: boolean;
  /** Rows someone else deleted: marked on screen, then removed (REMOVED_MS). */
  removedIds: readonly string[];
  /** A fresh read with rows that would appear above the ones on screen: shown on SHOW_INCOMING. */
  incoming: PagesAnswer | null;
  /** The pages are read again after changes by others (SYNC): the answer is merged, not taken. */
  syncing: boolean;
  /** When the read that brought the rows on screen began (Date.now()), 0 before the first. */
  readAt: number;
  newRowsOnTop: boolean;
}

/** The pages a list observes as the cache has them (list.pages.ts): their rows, side by side. */
export interface PagesAnswer {
  rows: ListRow[];
  /** How many pages `rows` holds: 1, or in an infinite list those read so far. */
  pages: number;
  /** The totals of the last page. */
  totalDocs: number;
  totalIsEstimate: boolean;
  totalPages: number;
  hasNextPage: boolean;
}

/** Changes of what the list shows; each restarts the debounce of the next request. */
export type QueryEvent =
  | { type: 'SET_FILTER'; field: string; value: FilterValue }
  | { type: 'SET_FILTERS'; filter: ListFilter }
  | { type: 'CLEAR_FILTERS' }
  | { type: 'SORT'; field: string }
  | { type: 'SET_PAGE'; page: number }
  | { type: 'SET_LIMIT'; limit: number }
  /** Adopts state from elsewhere; omitted parts stay. */
  | { type: 'SET_QUERY'; filter?: ListFilter; order?: ListOrder; page?: number }
  /** What the address reads now (the list's own write, back, forward, a link): the list's query. */
  | { type: 'ADDRESS_CHANGED'; search: ListSearch }
  | { type: 'VIEWPORT_CHANGED'; isMobile: boolean };

export type ListEvent =
  | QueryEvent
  /**
   * Read the pages again from the server. With `unlessReadSince` (Date.now() when a change
   * began), only if no read has brought the rows since: a change that refreshed the list's
   * cached pages has already put them on screen.
   */
  | { type: 'REFRESH'; unlessReadSince?: number }
  | { type: 'RETRY' }
  | { type: 'LOAD_MORE' }
  /** Drag reorder: to an index of the visible rows, or to a 1-based position in the whole list. */
  | { type: 'MOVE'; id: string; toIndex: number }
  | { type: 'MOVE'; id: string; position: number }
  /** Menu reorder: above the total or below 0 means last place. */
  | { type: 'SET_ORDER'; id: string; position: number }
  /** Someone else changed what the list may show (live events): look again, in place. */
  | { type: 'REMOTE_CHANGED' }
  /** Show the rows that arrived above (the "3 new" pill). */
  | { type: 'SHOW_INCOMING' }
  /** Internal: the burst of live changes is over; look at the pages again. */
  | { type: 'SYNC' }
  | PagesEvent
  /** Internal: the rows marked as deleted by someone else go. */
  | { type: 'DROP_REMOVED' };

/**
 * Notifications for `actor.on(...)`: spec §8 makes a failed reorder a silent revert, so showing
 * it is optional. NAVIGATE asks a list kept in the address to write `search` there; the list
 * takes the change once the address says so (ADDRESS_CHANGED).
 */
export type ListEmitted =
  | { type: 'REORDERED'; id: string; position: number; previousPosition: number }
  | { type: 'REORDER_FAILED'; id: string; position: number; error: ApiErrorInfo }
  | { type: 'NAVIGATE'; search: ListSearch; replace: boolean };

/** Internal: what the pages observer (list.pages.ts) tells the list after each read. */
export type PagesEvent =
  /** Every observed page is read. */
  /** `startedAt`: when the read that brought them began (Date.now()). */
  | { type: 'PAGES_READ'; answer: PagesAnswer; startedAt: number }
  /** A read of an observed page failed; the cache keeps what it had. */
  | { type: 'PAGES_FAILED'; error: unknown };

/** The pages a list observes (list.pages.ts): `first`..`last` of one query. */
export interface PagesInput {
  endpoint: string;
  rowSchema: RowSchema;
  limit: number;
  order: ListOrder;
  filter: ListFilter;
  /** The page shown (paged), or 1 (infinite). */
  first: number;
  /** The page shown (paged), or the last page loaded (infinite). */
  last: number;
  /** Read from the server even when the cache holds the pages. */
  fresh: boolean;
}

export interface ReorderInput {
  endpoint: string;
  id: string;
  position: number;
  filter: ListFilter;
}

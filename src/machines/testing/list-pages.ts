/**
 * The list machine's surroundings for its tests: its pages observed on a cache of their own,
 * whose requests wait until the test answers them, and an address bar that reads back at once
 * what the list asks it to write.
 */
import { QueryClient } from '@tanstack/query-core';
import type { ActorRefFrom } from 'xstate';
import type { ListSearch } from '../../api/list-url';
import type { ListResponse } from '../../api/lists';
import type { ListFilter, ListOrder } from '../../../contract/list-query';
import type { ListMachine } from '../list.machine';
import { observePages } from '../list.pages';
import { deferredCall, type Deferred } from './deferred';

/** One request for a page, as the list's observer sent it. */
export interface PageRead {
  endpoint: string;
  query: { page: number; limit: number; order: ListOrder; filter: ListFilter };
}

export type PageCall = Deferred<PageRead, ListResponse>;

/**
 * The pages observer on a new cache whose requests wait in `reads`. Every observation goes to
 * the server (nothing stays fresh: a model counts on a request per query) and nothing is retried.
 */
export function deferredPages(reads: PageCall[]) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity } },
  });
  const call = deferredCall(reads);
  const logic = observePages({
    client,
    staleTime: 0,
    read: (endpoint, { page = 1, limit = 10, order = {}, filter = {} }, _rowSchema, { signal }) =>
      call({ input: { endpoint, query: { page, limit, order, filter } }, signal }),
  });
  return { client, observePages: logic };
}

/** An entry the list wrote: pushed (a new history entry) or replacing the current one. */
export interface AddressWrite {
  search: ListSearch;
  replace: boolean;
}

/**
 * Plays the address bar for a list kept in the address: what it asks to write (NAVIGATE) is
 * written, recorded in `writes`, and read back to it (ADDRESS_CHANGED) as the router would.
 */
export function addressBar(actor: ActorRefFrom<ListMachine>) {
  const writes: AddressWrite[] = [];
  actor.on('NAVIGATE', ({ search, replace }) => {
    writes.push({ search, replace });
    actor.send({ type: 'ADDRESS_CHANGED', search });
  });
  return writes;
}

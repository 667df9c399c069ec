/**
 * Where a record page returns to: its list as the user last left it in this tab (filters, sort,
 * page), so leaving a record (after a delete) does not drop the filter they were working in.
 */
import type { ListSearch } from './list-url';

const lastSearch = new Map<string, ListSearch>();

/** Notes the address of list `endpoint` (its path without fixed parameters). */
export function rememberListSearch(endpoint: string, search: ListSearch): void {
  lastSearch.set(endpoint, search);
}

/** The search list `endpoint` last had in this tab; none: the list's own defaults. */
export function listSearchToReturnTo(endpoint: string): ListSearch {
  return lastSearch.get(endpoint) ?? {};
}

import { useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { ListSearch } from '../api/list-url';

/**
 * Whether the address the list screen opened with had a `filter` it could not read (its route,
 * `defineList`, logged 'Error parsing filters', dropped it and marked the search). Set after the
 * first render, so a polite live region already on the page announces it; kept until dismissed,
 * though the list soon writes an address of its own without the mark.
 */
export function useIgnoredFilter(inAddress: boolean) {
  const search: ListSearch = useSearch({ strict: false });
  const [unreadable] = useState(() => inAddress && search.filterIgnored === true);
  const [ignored, setIgnored] = useState(false);
  useEffect(() => {
    if (!unreadable) return;
    // In a task of its own: the region must be in the page before its text changes.
    const task = setTimeout(() => setIgnored(true), 0);
    return () => clearTimeout(task);
  }, [unreadable]);
  return { ignored, dismiss: () => setIgnored(false) };
}

import { QueryObserver, type QueryKey } from '@tanstack/query-core';
import { queryClient } from '../../api/query';
import { useCallback, useState, useSyncExternalStore } from 'react';

/** Subscribes a component to one cached query of the app's QueryClient. */
export function useQuery<T>(queryKey: QueryKey, queryFn: () => Promise<T>) {
  const [observer] = useState(() => new QueryObserver<T>(queryClient, { queryKey, queryFn }));
  const subscribe = useCallback((onChange: () => void) => observer.subscribe(onChange), [observer]);
  return useSyncExternalStore(subscribe, () => observer.getCurrentResult());
}

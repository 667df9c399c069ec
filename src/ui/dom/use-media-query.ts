import { useCallback, useSyncExternalStore } from 'react';

/** A phone's screen: where the stylesheets lay the app out for a narrow screen (767 px and less). */
export const PHONE_QUERY = '(max-width: 767px)';

/** Whether a CSS media query matches, kept current as the window changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      // jsdom has no matchMedia: there nothing matches and nothing changes.
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

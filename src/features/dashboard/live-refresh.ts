import { useEffect } from 'react';
import { onLiveEvent } from '../../api/live-cache';

/**
 * How long the stream stays quiet before the dashboard reads again.
 * @internal exported for the tests
 */
export const QUIET_MS = 1_000;
/**
 * The longest a steady stream of events holds a read back.
 * @internal exported for the tests
 */
export const MAX_WAIT_MS = 5_000;

/**
 * Calls `refresh` once per burst of live events: QUIET_MS after the last one, or MAX_WAIT_MS
 * after the first while they keep coming. A bulk change of thousands of assets is one read.
 */
export function useLiveRefresh(refresh: () => void): void {
  useEffect(() => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    let longest: ReturnType<typeof setTimeout> | undefined;
    const fire = () => {
      clearTimeout(quiet);
      clearTimeout(longest);
      quiet = undefined;
      longest = undefined;
      refresh();
    };
    const stop = onLiveEvent(() => {
      clearTimeout(quiet);
      quiet = setTimeout(fire, QUIET_MS);
      longest ??= setTimeout(fire, MAX_WAIT_MS);
    });
    return () => {
      stop();
      clearTimeout(quiet);
      clearTimeout(longest);
    };
  }, [refresh]);
}

import { useEffect, useState } from 'react';

/** How long a route change may take before the bar shows: quick ones show nothing. */
export const ROUTE_PROGRESS_DELAY_MS = 200;

/**
 * A thin indeterminate bar at the top of the page while the next screen loads. It appears only
 * once `pending` has lasted `delayMs`, so quick navigations do not flicker.
 */
export function RouteProgress(props: { pending: boolean; label: string; delayMs?: number }) {
  const { pending, delayMs = ROUTE_PROGRESS_DELAY_MS } = props;
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setLate(true), delayMs);
    return () => {
      clearTimeout(timer);
      setLate(false);
    };
  }, [pending, delayMs]);
  if (!pending || !late) return null;
  return (
    <div className="route-progress" role="progressbar" aria-label={props.label}>
      <span className="route-progress-bar" />
    </div>
  );
}

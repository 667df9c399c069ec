import type { LiveStatus } from '../../api/live';

/**
 * A small dot and a word in the shell: whether changes by others arrive as they happen
 * (connected), are being caught up with (reconnecting) or cannot arrive (offline). Changes
 * of state are announced politely. On a phone only the dot shows; the word stays its
 * accessible text and its tooltip.
 */
export function LiveIndicator({
  status,
  labels,
}: {
  status: LiveStatus;
  labels: Record<LiveStatus, string>;
}) {
  return (
    <span className="live-indicator" data-status={status} role="status" title={labels[status]}>
      <span className="live-dot" aria-hidden="true" />
      <span className="live-label">{labels[status]}</span>
    </span>
  );
}

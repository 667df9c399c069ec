import type { LiveStatus } from '../../api/live';

/**
 * A small dot and a word in the shell: whether changes by others arrive as they happen
 * (connected), are being caught up with (reconnecting) or cannot arrive (offline). Changes
 * of state are announced politely. On a phone only the dot shows in the header; the word stays
 * its accessible text and its tooltip, and the open menu shows it again with `inMenu`.
 */
export function LiveIndicator({
  status,
  labels,
  inMenu = false,
}: {
  status: LiveStatus;
  labels: Record<LiveStatus, string>;
  /** The menu's copy: the word always shows, and it is not announced (the header's is). */
  inMenu?: boolean;
}) {
  const parts = (
    <>
      <span className="live-dot" aria-hidden="true" />
      <span className="live-label">{labels[status]}</span>
    </>
  );
  return inMenu ? (
    <span className="live-indicator" data-status={status}>
      {parts}
    </span>
  ) : (
    <span className="live-indicator" data-status={status} role="status" title={labels[status]}>
      {parts}
    </span>
  );
}

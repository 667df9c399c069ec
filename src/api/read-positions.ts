/**
 * Where in the live event stream the tab's reads were taken (the server's `Event-Position`
 * answer header), so that the tab's first stream starts early enough to miss nothing. Without
 * it the first stream starts "from now on", and a change saved between a page's first reads
 * and that moment is never announced: the page shows the old values until its next save meets
 * the version check.
 *
 * - Reads answered before the stream started: the stream opens after the lowest position they
 *   name (as Last-Event-ID), and the server sends what came since (or `reset`).
 * - Reads sent before the stream started but answered after it: one below the stream's start
 *   may have missed changes the stream will never bring, so everything on screen is read again
 *   (as after `reset`). Reads sent once the stream has started saw everything up to its start.
 */

let start: number | undefined;
let lowest: number | undefined;
let onGap: (() => void) | undefined;

/** Whether a read sent now is covered by the stream: asked when the request goes out. */
export const streamCovers = (): boolean => start !== undefined;

/** Records where a read was taken; `covered` is what streamCovers answered when it was sent. */
export function noteReadPosition(position: number, covered: boolean): void {
  if (covered) return;
  if (start === undefined) lowest = Math.min(lowest ?? position, position);
  else if (position < start) onGap?.();
}

/** Where the tab's first stream starts: after the lowest position read so far (if any). */
export const firstStreamPosition = (): number | undefined => lowest;

/**
 * The stream started at `seq` (its first `ready` or `reset`); `gap` is called for every read
 * that may have missed what came before it. `resetting`: the start itself reads everything
 * again. Later starts (resumes after Last-Event-ID) change nothing.
 */
export function streamStarted(seq: number, gap: () => void, resetting: boolean): void {
  if (start !== undefined) return;
  start = seq;
  onGap = gap;
  if (!resetting && lowest !== undefined && lowest < seq) gap();
  lowest = undefined;
}

/** The stream closed for good (signed out): the next one starts over. */
export function streamStopped(): void {
  start = undefined;
  lowest = undefined;
  onGap = undefined;
}

/**
 * When a page's first answer from the API is in and the browser has drawn it. What the app asks
 * for beside the screen's own reads (the live stream, a list's saved views) waits for it: on a
 * phone's network the screen's reads and its first rows then come first, not behind requests
 * whose answers nothing on screen needs yet. Nothing is missed by waiting: the live stream
 * starts from where the page's reads were taken (./read-positions.ts).
 *
 * "Drawn" is the browser's first idle moment after the answer (requestIdleCallback), at most
 * IDLE_TIMEOUT_MS later; a page that reads nothing settles NO_ANSWER_MS after something first
 * waits for it.
 */

const IDLE_TIMEOUT_MS = 1_000;
const NO_ANSWER_MS = 2_000;

let settled = false;
let armed = false;
let fallback: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function settle() {
  if (settled) return;
  settled = true;
  clearTimeout(fallback);
  for (const listener of [...listeners]) listener();
  listeners.clear();
}

function whenIdle(run: () => void) {
  if (typeof requestIdleCallback === 'function') {
    requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
  } else if (typeof requestAnimationFrame === 'function') {
    // A frame's callbacks run before it is painted; the task after them runs once it has been.
    requestAnimationFrame(() => setTimeout(run));
  } else {
    setTimeout(run);
  }
}

/** An answer came from the API (called for every successful one; only the first counts). */
export function noteAnswer(): void {
  if (armed || settled) return;
  armed = true;
  whenIdle(settle);
}

/** Whether the first answer is in and drawn. */
export const firstAnswerSettled = (): boolean => settled;

/** Calls `listener` once the first answer is in and drawn; answers how to stop waiting. */
export function onFirstAnswerSettled(listener: () => void): () => void {
  if (settled) {
    listener();
    return () => {};
  }
  listeners.add(listener);
  fallback ??= setTimeout(settle, NO_ANSWER_MS);
  return () => listeners.delete(listener);
}

/** Resolves once the first answer is in and drawn. */
export const afterFirstAnswer = (): Promise<void> =>
  new Promise((resolve) => onFirstAnswerSettled(resolve));

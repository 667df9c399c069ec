import { useEffect } from 'react';

/**
 * Removes the frame and heading the server drew after #root before the scripts ran
 * (server/first-paint.ts), once the app has drawn its own: the stylesheet hides it from then
 * on, and removed it cannot show again should #root ever be empty for a moment, nor leave the
 * document a second main and h1.
 */
export function useFirstPaintGone(): void {
  useEffect(() => document.querySelector('body > .first-paint')?.remove(), []);
}

/**
 * Resolves once the browser has painted the frame and heading the server drew, at once when
 * there are none (or the page is hidden, and paints nothing). The signed-in layout waits for it
 * before its first screen replaces them: on a phone they have painted long before the scripts
 * arrived, and this costs one frame; where the scripts come at once (a cached or local visit),
 * the app's first render could otherwise come before any paint, and the heading be painted
 * only with all the scripts run.
 */
export function firstPaintShown(): Promise<void> {
  if (!document.querySelector('body > .first-paint') || document.visibilityState !== 'visible') {
    return Promise.resolve();
  }
  // A requestAnimationFrame callback runs just before its frame's paint; the task after it,
  // after the paint.
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

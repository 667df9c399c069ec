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

/** How long the app waits at most for the first paint (a browser that never reports one). */
const FIRST_PAINT_WAIT_MS = 1500;

/**
 * Resolves once the browser has painted the frame and heading the server drew (its first
 * contentful paint), at once when there are none or the page is hidden (it paints nothing).
 * The signed-in layout waits for it before its first screen replaces them: on a phone they have
 * painted long before the scripts arrived, and this costs nothing; where the scripts come at
 * once (a cached or local visit, a busy machine), the app's first render could otherwise come
 * before the browser's first frame, and the heading be painted only with all the scripts run.
 * A requestAnimationFrame callback is no proof: the browser may hold its first frames back.
 */
export function firstPaintShown(): Promise<void> {
  const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
  if (
    !document.querySelector('body > .first-paint') ||
    document.visibilityState !== 'visible' ||
    !PerformanceObserver.supportedEntryTypes.includes('paint') ||
    painted()
  ) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new PerformanceObserver(() => {
      if (painted()) done();
    });
    observer.observe({ type: 'paint' });
    const timer = setTimeout(done, FIRST_PAINT_WAIT_MS);
  });
}

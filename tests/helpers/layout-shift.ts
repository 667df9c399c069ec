import type { Page } from 'playwright-core';

/**
 * The layout shifts since the page loaded (the browser keeps them for a late observer), without
 * those that follow an input: Lighthouse's CLS of a load with no interaction.
 */
export const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        });
        observer.observe({ type: 'layout-shift', buffered: true });
        // The buffered entries come in the observer's first callback, a task after observe().
        setTimeout(() => {
          observer.disconnect();
          resolve(total);
        }, 0);
      }),
  );

/** Two frames: the browser reports a shift with the frame that painted it. */
export const twoFrames = (page: Page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

import { useEffect, useState, type RefCallback } from 'react';

/** Longest wait for an idle moment once the element is on screen and the page has loaded. */
const IDLE_TIMEOUT_MS = 2000;

/** What counts as the person using the page: a touch or click, a key, a wheel or a scroll. */
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'scroll'] as const;

/**
 * True once the element given to the ref callback is on screen, the page has loaded and the
 * browser is idle: for heavy parts (the 3D viewer) that must not compete with the page's first
 * paint and its data. Without IntersectionObserver, the element counts as on screen.
 *
 * With `touchWaitsForInput`, on a screen whose primary pointer is a finger (a phone or tablet)
 * it also waits for the person's first touch, key or scroll on the page: a phone's CPU, battery
 * and data go to the part only once someone is there to use it, and a start that takes a phone
 * seconds of one long task does not freeze the page as it opens.
 */
export function useShownWhenIdle<T extends Element>({
  touchWaitsForInput = false,
}: { touchWaitsForInput?: boolean } = {}): [RefCallback<T>, boolean] {
  const [element, setElement] = useState<T | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready || !element) return;
    let cancelled = false;
    const cancels: (() => void)[] = [];
    const whenIdle = () => {
      const done = () => {
        if (!cancelled) setReady(true);
      };
      if (typeof window.requestIdleCallback === 'function') {
        const id = window.requestIdleCallback(done, { timeout: IDLE_TIMEOUT_MS });
        cancels.push(() => window.cancelIdleCallback(id));
      } else {
        const id = window.setTimeout(done, 0);
        cancels.push(() => window.clearTimeout(id));
      }
    };
    const afterInput = () => {
      const touch =
        touchWaitsForInput && typeof window.matchMedia === 'function'
          ? window.matchMedia('(pointer: coarse)').matches
          : false;
      if (!touch) return whenIdle();
      const used = () => {
        for (const type of INPUT_EVENTS) window.removeEventListener(type, used, true);
        whenIdle();
      };
      // Capture: a scroll of an inner box, or a touch on a part that stops it, counts too.
      for (const type of INPUT_EVENTS) window.addEventListener(type, used, true);
      cancels.push(() => {
        for (const type of INPUT_EVENTS) window.removeEventListener(type, used, true);
      });
    };
    const afterLoad = () => {
      if (document.readyState === 'complete') return afterInput();
      window.addEventListener('load', afterInput, { once: true });
      cancels.push(() => window.removeEventListener('load', afterInput));
    };
    if (typeof IntersectionObserver === 'undefined') {
      afterLoad();
    } else {
      const observer = new IntersectionObserver((entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        afterLoad();
      });
      observer.observe(element);
      cancels.push(() => observer.disconnect());
    }
    return () => {
      cancelled = true;
      for (const cancel of cancels) cancel();
    };
  }, [element, ready, touchWaitsForInput]);
  return [setElement, ready];
}

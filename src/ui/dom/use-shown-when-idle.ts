import { useEffect, useState, type RefCallback } from 'react';

/** Longest wait for an idle moment once the element is on screen and the page has loaded. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * True once the element given to the ref callback is on screen, the page has loaded and the
 * browser is idle: for heavy parts (the 3D viewer) that must not compete with the page's first
 * paint and its data. Without IntersectionObserver, the element counts as on screen.
 */
export function useShownWhenIdle<T extends Element>(): [RefCallback<T>, boolean] {
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
    const afterLoad = () => {
      if (document.readyState === 'complete') return whenIdle();
      window.addEventListener('load', whenIdle, { once: true });
      cancels.push(() => window.removeEventListener('load', whenIdle));
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
  }, [element, ready]);
  return [setElement, ready];
}

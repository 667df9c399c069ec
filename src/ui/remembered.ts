/**
 * What this browser remembers for the screens (a list's page size or total, the sidebar's
 * collapse, …), in localStorage. Storage may be off (private windows, policies) or full: then
 * nothing is remembered and the screen keeps its default, never an error.
 */

/** The value remembered under `key`, or null. */
export function remembered(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Remembers `value` under `key`; null forgets it. */
export function remember(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Not remembered, still applied.
  }
}

import { useCallback, useLayoutEffect, useState } from 'react';

/** The longest a press holds what is shown, should its release never reach the window. */
export const HOLD_MAX_MS = 1500;

/**
 * `value` as it was when a pointer was pressed (the returned handler, on the element pressed),
 * until that pointer is released and the click the release makes has run. What arrives under a
 * press (a list's rows answering a search the user just typed) would otherwise move the pressed
 * row away between press and release, and the click would land on another row or on nothing.
 * A drag the browser takes over ends the hold (pointercancel), as does leaving the window.
 */
export function useHeldWhilePressed<T>(value: T): [shown: T, onPointerDown: () => void] {
  const [held, setHeld] = useState<{ value: T } | null>(null);
  const hold = useCallback(() => setHeld({ value }), [value]);
  const isHolding = held !== null;
  // A layout effect, so the release is listened for before the browser can deliver it.
  useLayoutEffect(() => {
    if (!isHolding) return;
    let releasing: ReturnType<typeof setTimeout> | undefined;
    // pointerup comes before the click it makes (in the same task): let go a task later.
    const release = () => {
      releasing ??= setTimeout(() => setHeld(null));
    };
    const longest = setTimeout(() => setHeld(null), HOLD_MAX_MS);
    // Captured, so a handler that stops the release on its way cannot keep the hold; blur is
    // the window's own (an element losing focus to the pressed link is not a release).
    const released = ['pointerup', 'pointercancel'] as const;
    for (const type of released) window.addEventListener(type, release, true);
    window.addEventListener('blur', release);
    return () => {
      for (const type of released) window.removeEventListener(type, release, true);
      window.removeEventListener('blur', release);
      clearTimeout(longest);
      clearTimeout(releasing);
    };
  }, [isHolding]);
  return [held ? held.value : value, hold];
}

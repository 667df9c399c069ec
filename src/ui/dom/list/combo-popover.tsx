import { useContext, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import {
  OverlayTriggerStateContext,
  Popover,
  type OverlayTriggerState,
  type PopoverProps,
} from 'react-aria-components';

interface ComboPopoverProps extends PopoverProps {
  /** The field the list belongs to (the box around the combo box's input). */
  fieldRef: RefObject<HTMLElement | null>;
}

/** Less than a pixel apart: the same place on screen (layout rounds to fractions). */
const samePlace = (a: number, b: number) => Math.abs(a - b) < 1;

/**
 * A combo box's list that stays open, beside its field, through a scroll that leaves the field
 * where it was on screen. React Aria closes a combo box's list on any scroll of the page around
 * it; but when content above the field grows or shrinks (a live refresh: a changelog row, a
 * notice), the browser scrolls the page by as much to keep what the user looks at in place
 * (scroll anchoring). That scroll moves nothing under the user's eyes or pointer, so it must
 * not take the list away under their click. A scroll that moves the field (the user's own)
 * still closes it.
 */
export function ComboPopover({ fieldRef, ...props }: ComboPopoverProps) {
  const state = useContext(OverlayTriggerStateContext);
  // Where the field was on screen as the list opened.
  const field = useRef<DOMRect | null>(null);
  // The scroll event being dispatched. Listened to from the field's first render on, so before
  // React Aria's own listener (added as the list opens) reads the same event.
  const scroll = useRef<Event | null>(null);
  useEffect(() => {
    const seen = (event: Event) => {
      scroll.current = event;
    };
    window.addEventListener('scroll', seen, { capture: true, passive: true });
    return () => window.removeEventListener('scroll', seen, { capture: true });
  }, []);
  const isOpen = state?.isOpen ?? false;
  useLayoutEffect(() => {
    field.current = isOpen ? (fieldRef.current?.getBoundingClientRect() ?? null) : null;
  }, [isOpen, fieldRef]);

  /** Whether React Aria's close is for a scroll that left the field in place (then kept open). */
  const keep = (): boolean => {
    const now = fieldRef.current?.getBoundingClientRect();
    const before = field.current;
    const inScroll = scroll.current !== null && scroll.current.eventPhase !== Event.NONE;
    if (!inScroll || !now || !before) return false;
    if (!samePlace(before.top, now.top) || !samePlace(before.left, now.left)) return false;
    // The list sits in the page's own coordinates, not beside the field's content: the scroll
    // moved it on screen. React Aria places its lists again when the window resizes; told so,
    // it puts this one back beside its field.
    window.dispatchEvent(new Event('resize'));
    return true;
  };
  const guarded: OverlayTriggerState | null = state && {
    ...state,
    close: () => {
      if (!keep()) state.close();
    },
  };
  return (
    <OverlayTriggerStateContext.Provider value={guarded}>
      <Popover {...props} />
    </OverlayTriggerStateContext.Provider>
  );
}

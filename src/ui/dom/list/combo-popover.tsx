import { useContext, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import {
  OverlayTriggerStateContext,
  Popover,
  type OverlayTriggerState,
  type PopoverProps,
} from 'react-aria-components';

interface ComboPopoverProps extends Omit<PopoverProps, 'ref'> {
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
  const popoverRef = useRef<HTMLElement>(null);
  // Where the field was on screen as the list opened.
  const field = useRef<DOMRect | null>(null);
  // The scroll event being dispatched, and how far it moved the page. Listened to from the
  // field's first render on, so before React Aria's own listener (added as the list opens)
  // reads the same event.
  const scroll = useRef<{ event: Event; x: number; y: number } | null>(null);
  const page = useRef({ x: 0, y: 0 });
  useEffect(() => {
    const seen = (event: Event) => {
      const moved = event.target === document;
      scroll.current = {
        event,
        x: moved ? window.scrollX - page.current.x : 0,
        y: moved ? window.scrollY - page.current.y : 0,
      };
      page.current = { x: window.scrollX, y: window.scrollY };
    };
    window.addEventListener('scroll', seen, { capture: true, passive: true });
    return () => window.removeEventListener('scroll', seen, { capture: true });
  }, []);
  const isOpen = state?.isOpen ?? false;
  useLayoutEffect(() => {
    field.current = isOpen ? (fieldRef.current?.getBoundingClientRect() ?? null) : null;
    page.current = { x: window.scrollX, y: window.scrollY };
  }, [isOpen, fieldRef]);

  /** Whether React Aria's close is for a scroll that left the field in place (then kept open). */
  const keep = (): boolean => {
    const now = fieldRef.current?.getBoundingClientRect();
    const before = field.current;
    const list = popoverRef.current;
    const current = scroll.current;
    const inScroll = current !== null && current.event.eventPhase !== Event.NONE;
    if (!inScroll || !now || !before || !list) return false;
    if (!samePlace(before.top, now.top) || !samePlace(before.left, now.left)) return false;
    // The list sits in the page's own coordinates (not beside the field's content): the page's
    // scroll moved it on screen, and it goes back beside its field by as much.
    shift(list, 'top', current.y);
    shift(list, 'bottom', -current.y);
    shift(list, 'left', current.x);
    shift(list, 'right', -current.x);
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
      <Popover {...props} ref={popoverRef} />
    </OverlayTriggerStateContext.Provider>
  );
}

/** Moves `list` by `by` pixels along the side React Aria placed it by (if that one). */
function shift(list: HTMLElement, side: 'top' | 'bottom' | 'left' | 'right', by: number) {
  const at = list.style[side];
  if (at && by !== 0) list.style[side] = `${parseFloat(at) + by}px`;
}

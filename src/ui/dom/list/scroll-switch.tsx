/**
 * Whether a paged list is read as one endless list instead: a pressed button beside the list's
 * title, remembered per list screen in this browser, so the list opens the same way next time.
 */
import { ToggleButton } from 'react-aria-components';
import { remember, remembered } from '../../remembered';

const KEY = 'avatar-studio:list-scroll:';

/** Whether the list was last read as one endless list in this browser. */
export function rememberedScroll(list: string): boolean {
  return remembered(KEY + list) === 'true';
}

function rememberScroll(list: string, scrolls: boolean) {
  remember(KEY + list, scrolls ? 'true' : null);
}

interface ScrollSwitchProps {
  /** Which list the choice is remembered for. */
  list: string;
  scrolls: boolean;
  onChange: (scrolls: boolean) => void;
  label: string;
}

/** Pressed: the list loads more rows as its end comes into view, without a pager. */
export function ScrollSwitch({ list, scrolls, onChange, label }: ScrollSwitchProps) {
  return (
    <ToggleButton
      className="button scroll-switch"
      isSelected={scrolls}
      onChange={(next) => {
        rememberScroll(list, next);
        onChange(next);
      }}
    >
      {label}
    </ToggleButton>
  );
}

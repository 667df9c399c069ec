import type { ReactNode } from 'react';
import { Spinner } from './spinner';

interface ActionButtonProps {
  children: ReactNode;
  /** While pending the button shows a spinner and this label, and ignores presses. */
  isPending?: boolean;
  pendingLabel?: string;
  onPress?: () => void;
  type?: 'button' | 'submit';
  variant?: 'primary' | 'secondary' | 'link' | 'danger';
  wide?: boolean;
  /** Unavailable: the button ignores presses (still focusable, so its reason can be read). */
  isDisabled?: boolean;
  /** Id of the text that says why the button is unavailable (or what it does). */
  describedBy?: string;
  /** The keyboard shortcut that presses it too (`aria-keyshortcuts`, e.g. "Control+S"). */
  keyShortcuts?: string;
}

/**
 * A button with a pending state. It stays focusable while pending (aria-disabled, not
 * disabled) so keyboard users keep their place, and screen readers hear it is busy.
 */
export function ActionButton({
  children,
  isPending = false,
  pendingLabel,
  onPress,
  type = 'button',
  variant = 'secondary',
  wide = false,
  isDisabled = false,
  describedBy,
  keyShortcuts,
}: ActionButtonProps) {
  return (
    <button
      type={type}
      className={['button', variant === 'secondary' ? '' : variant, wide ? 'wide' : '']
        .filter(Boolean)
        .join(' ')}
      aria-disabled={isPending || isDisabled || undefined}
      aria-describedby={describedBy}
      aria-keyshortcuts={keyShortcuts}
      aria-busy={isPending || undefined}
      data-pending={isPending || undefined}
      onClick={(event) => {
        if (isPending || isDisabled) {
          event.preventDefault();
          return;
        }
        onPress?.();
      }}
    >
      {isPending ? (
        <>
          <Spinner /> {pendingLabel ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
}

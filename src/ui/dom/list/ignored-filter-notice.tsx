import { ActionButton } from '../action-button';

/**
 * A polite live region above a list: empty, or saying the filter in the address was ignored.
 * It is on the page from the start, so screen readers announce the message when it appears.
 */
export function IgnoredFilterNotice({
  ignored,
  message,
  dismissLabel,
  onDismiss,
}: {
  ignored: boolean;
  message: string;
  dismissLabel: string;
  onDismiss: () => void;
}) {
  return (
    <div role="status" className={ignored ? 'alert info list-notice' : 'list-notice-empty'}>
      {ignored && (
        <>
          <span>{message}</span>{' '}
          <ActionButton variant="link" onPress={onDismiss}>
            {dismissLabel}
          </ActionButton>
        </>
      )}
    </div>
  );
}

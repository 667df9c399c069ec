/**
 * What happened, said once and announced: "Olive Cyber locked", with Undo where the inverse is
 * cheap. One queue for the app; `announce` may be called from anywhere in the signed-in area.
 * The region is rendered by the shell (lazily, so the sign-in page does not carry it).
 */
import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';

export interface ToastMessage {
  title: string;
  tone: 'success' | 'error' | 'info';
  /** An action offered in the toast, e.g. Undo. */
  action?: { label: string; onAction: () => void };
}

/** Toasts stay at least 5 s (accessibility); longer when they offer an action. */
const TIMEOUT_MS = 6000;
const WITH_ACTION_MS = 10_000;

const queue = new ToastQueue<ToastMessage>({ maxVisibleToasts: 3 });

/** Shows and announces `message`; returns a function that closes it. */
export function announce(message: ToastMessage): () => void {
  const key = queue.add(message, { timeout: message.action ? WITH_ACTION_MS : TIMEOUT_MS });
  return () => queue.close(key);
}

/** The region the toasts appear in (a landmark named by `label`). */
export function Toasts({ label, closeLabel }: { label: string; closeLabel: string }) {
  return (
    <ToastRegion queue={queue} className="toast-region" aria-label={label}>
      {({ toast }) => (
        <Toast toast={toast} className={`toast ${toast.content.tone}`}>
          <ToastContent className="toast-content">
            <Text slot="title">{toast.content.title}</Text>
          </ToastContent>
          {toast.content.action && (
            <Button
              className="button link toast-action"
              onPress={() => {
                toast.content.action?.onAction();
                queue.close(toast.key);
              }}
            >
              {toast.content.action.label}
            </Button>
          )}
          <Button slot="close" className="toast-close" aria-label={closeLabel}>
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}

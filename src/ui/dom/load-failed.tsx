import type { ReactNode } from 'react';
import { ActionButton } from './action-button';
import { Alert } from './alert';
import { useDocumentTitle } from './use-document-title';

/**
 * A detail page whose record could not be read, titled like the page it stands for. A record
 * that does not exist says so and shows the way back; a failure that may pass (network,
 * server) says why, with Retry.
 */
export function LoadFailed(props: {
  /** The heading, first in the tab's title: "Asset not found". */
  title: string;
  /** The screens' section, after it in the tab's title: "Assets". */
  section: string;
  message: string;
  /** A link to the list the record belongs to. */
  back: ReactNode;
  /** Offered for failures that may pass, never for a record that does not exist. */
  retry?: { label: string; onRetry: () => void };
}) {
  useDocumentTitle(props.title, props.section);
  return (
    <section className="load-failed" aria-labelledby="load-failed-title">
      <h1 id="load-failed-title">{props.title}</h1>
      {props.retry ? (
        <Alert tone="error">
          {props.message}
          <ActionButton onPress={props.retry.onRetry}>{props.retry.label}</ActionButton>
        </Alert>
      ) : (
        <p>{props.message}</p>
      )}
      <p>{props.back}</p>
    </section>
  );
}

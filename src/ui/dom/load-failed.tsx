import type { ReactNode } from 'react';
import { ActionButton } from './action-button';
import { Alert } from './alert';

/** A detail page whose record could not be read: the way back, why, and Retry. */
export function LoadFailed(props: {
  back: ReactNode;
  message: string;
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <section className="asset-page">
      {props.back}
      <Alert tone="error">
        {props.message}
        <ActionButton onPress={props.onRetry}>{props.retryLabel}</ActionButton>
      </Alert>
    </section>
  );
}

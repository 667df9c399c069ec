import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from './describe-error';

/**
 * Runs one API call at a time for a form: tracks progress and keeps the translated
 * error, so a failure is shown instead of swallowed. The form's own submit state covers
 * progress; `error` stays until the next attempt.
 */
export function useAsyncAction<Args extends unknown[]>(fn: (...args: Args) => Promise<unknown>) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const run = useCallback(
    async (...args: Args) => {
      setError(null);
      setPending(true);
      try {
        await fn(...args);
      } catch (e) {
        setError(describeError(e, t));
      } finally {
        setPending(false);
      }
    },
    [fn, t],
  );
  return { run, error, isPending };
}

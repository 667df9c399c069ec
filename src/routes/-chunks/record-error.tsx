import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError, isNotFoundError } from '../../api/error-info';
import { LoadFailed } from '../../ui/dom/load-failed';

/** What the error page of one kind of record says, in the user's language. */
interface RecordTexts {
  /** "Asset not found". */
  notFoundTitle: string;
  /** Why, and what may have happened. */
  notFound: string;
  /** "The asset could not be loaded". */
  failedTitle: string;
  /** The list's name, in the tab's title. */
  section: string;
  /** A link back to the list. */
  back: ReactNode;
}

/**
 * The error page of a screen that shows one record: an id the server does not know (404) is
 * "not found", with the way back and no Retry; any other failure (network, 5xx) says why,
 * with Retry (which loads the route again).
 */
export function RecordLoadFailed({ error, reset, ...texts }: ErrorComponentProps & RecordTexts) {
  const { t } = useTranslation();
  const router = useRouter();
  if (isNotFoundError(error)) {
    return (
      <LoadFailed
        title={texts.notFoundTitle}
        section={texts.section}
        message={texts.notFound}
        back={texts.back}
      />
    );
  }
  return (
    <LoadFailed
      title={texts.failedTitle}
      section={texts.section}
      message={describeError(error, t) ?? ''}
      back={texts.back}
      retry={{
        label: t('app.retry'),
        onRetry: () => {
          reset();
          void router.invalidate();
        },
      }}
    />
  );
}

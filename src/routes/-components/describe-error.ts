import type { TFunction } from 'i18next';

interface ErrorLike {
  code?: string | undefined;
  status?: number | string | undefined;
  message?: string | undefined;
}

const KNOWN_CODES = new Set([
  'FETCH_ERROR',
  'TIMEOUT_ERROR',
  'PARSING_ERROR',
  'USER_NOT_VERIFIED',
  'INVALID_CREDENTIALS',
  'RATE_LIMITED',
]);

/** Turns an API or session error into one sentence for the user; null when there is none. */
export function describeError(error: unknown, t: TFunction): string | null {
  if (!error) return null;
  const e = error as ErrorLike;
  const key = [e.code, typeof e.status === 'string' ? e.status : undefined].find(
    (k): k is string => typeof k === 'string' && KNOWN_CODES.has(k),
  );
  if (key) return t(`errors.${key}`);
  return e.message ? e.message : t('errors.generic', { message: JSON.stringify(error) });
}

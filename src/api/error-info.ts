/**
 * The serialisable shape of a failed call and how it reads to a user. Kept apart from
 * errors.ts (which needs ky) so the session machine and the account screens can use it
 * without loading the HTTP client at start-up.
 */
import type { TFunction } from 'i18next';

/**
 * Failures that never produced a usable HTTP answer; PASSKEY_ERROR: the browser's passkey prompt
 * ended without an answer, so nothing was sent.
 */
type ClientFailureStatus = 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR' | 'PASSKEY_ERROR';
export type ApiErrorStatus = number | ClientFailureStatus;

/** The plain, serialisable part of an ApiError: what machines keep in context and the UI shows. */
export interface ApiErrorInfo {
  status: ApiErrorStatus;
  code: string;
  message: string;
}

/** src/api rejects with ApiError only; anything else is reported as an unknown failure. */
export function errorInfo(error: unknown): ApiErrorInfo {
  const { status, code, message } = (error ?? {}) as Partial<ApiErrorInfo>;
  return {
    status: status ?? 'FETCH_ERROR',
    code: code ?? 'UNKNOWN_ERROR',
    message: message ?? String(error),
  };
}

/** Whether the server answered that what was asked for does not exist (404). */
export function isNotFoundError(error: unknown): boolean {
  return errorInfo(error).status === 404;
}

/**
 * The server's reason for refusing one field, from a 400 VALIDATION_ERROR whose message names
 * it ("password: is one of the most common passwords ..."); null when it names another.
 */
export function fieldErrorOf(error: unknown, field: string): string | null {
  const { code, message } = (error ?? {}) as Partial<ApiErrorInfo>;
  if (code !== 'VALIDATION_ERROR' || typeof message !== 'string') return null;
  const prefix = `${field}: `;
  const part = message.split('; ').find((reason) => reason.startsWith(prefix));
  return part ? part.slice(prefix.length) : null;
}

/** Codes with a sentence of their own in the `errors` texts. */
const KNOWN_CODES = new Set([
  'FETCH_ERROR',
  'TIMEOUT_ERROR',
  'PARSING_ERROR',
  'USER_NOT_VERIFIED',
  'INVALID_CREDENTIALS',
  'RATE_LIMITED',
  'INVALID_SECOND_FACTOR',
  'CHALLENGE_EXPIRED',
  'PASSKEY_CANCELLED',
]);

/** Turns an API or session error into one sentence for the user; null when there is none. */
export function describeError(error: unknown, t: TFunction): string | null {
  if (!error) return null;
  const e = error as Partial<Record<keyof ApiErrorInfo, unknown>>;
  const key = [e.code, typeof e.status === 'string' ? e.status : undefined].find(
    (k): k is string => typeof k === 'string' && KNOWN_CODES.has(k),
  );
  if (key) return t(`errors.${key}`);
  return typeof e.message === 'string' && e.message
    ? e.message
    : t('errors.generic', { message: JSON.stringify(error) });
}

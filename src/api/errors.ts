import { HTTPError, TimeoutError } from 'ky';
import { z } from 'zod/mini';
import { REFRESH_FAILURE_MESSAGES } from '../../contract/schemas';

import type { ApiErrorInfo, ApiErrorStatus } from './error-info';

interface ApiErrorInit extends ApiErrorInfo {
  data?: unknown;
  service?: string;
  cause?: unknown;
}

/** The one error type every call in src/api rejects with. */
export class ApiError extends Error implements ApiErrorInfo {
  override readonly name = 'ApiError';
  readonly status: ApiErrorStatus;
  readonly code: string;
  /** The parsed error body when the server sent one. */
  readonly data: unknown;
  /** Which resource module the failed call belongs to (see tagService). */
  service: string | undefined;

  constructor({ status, code, message, data, service, cause }: ApiErrorInit) {
    super(message, cause === undefined ? undefined : { cause });
    this.status = status;
    this.code = code;
    this.data = data;
    this.service = service;
  }

  toJSON(): ApiErrorInfo & { service?: string } {
    const { status, code, message, service } = this;
    return service === undefined ? { status, code, message } : { status, code, message, service };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const stringField = (body: unknown, key: string): string | undefined => {
  const value = isRecord(body) ? body[key] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** Builds the ApiError for an HTTP answer with status >= 300, keeping the server's code and message. */
function httpError(status: number, body: unknown, statusText = ''): ApiError {
  return new ApiError({
    status,
    code: stringField(body, 'code') ?? `HTTP_${status}`,
    message:
      stringField(body, 'message') ??
      (statusText !== '' ? statusText : `Request failed (${status})`),
    data: body,
  });
}

/** Normalises anything a request can throw (ky errors, fetch TypeErrors, JSON and zod failures). */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPError) {
    // The body is attached by src/api/http.ts's beforeError hook.
    const { data } = error as HTTPError & { data?: unknown };
    return httpError(error.response.status, data, error.response.statusText);
  }
  if (error instanceof TimeoutError) {
    return new ApiError({
      status: 'TIMEOUT_ERROR',
      code: 'TIMEOUT_ERROR',
      message: 'The request timed out',
      cause: error,
    });
  }
  if (error instanceof SyntaxError || error instanceof z.core.$ZodError) {
    return new ApiError({
      status: 'PARSING_ERROR',
      code: 'PARSING_ERROR',
      message: 'The response could not be read',
      cause: error,
    });
  }
  const aborted = error instanceof DOMException && error.name === 'AbortError';
  // fetch reports every transport failure as a TypeError (ky passes it on as it is).
  if (aborted || error instanceof TypeError) {
    return new ApiError({
      status: 'FETCH_ERROR',
      code: aborted ? 'ABORTED' : 'FETCH_ERROR',
      message: aborted ? 'The request was cancelled' : 'The server could not be reached',
      cause: error,
    });
  }
  return new ApiError({
    status: 'FETCH_ERROR',
    code: 'UNKNOWN_ERROR',
    message: error instanceof Error ? error.message : String(error),
    cause: error,
  });
}

/** Whether a cached read may try again: transport failures and 5xx only, never a cancellation. */
export function isRetryableError(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.code === 'ABORTED') return false;
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') return true;
  return typeof error.status === 'number' && error.status >= 500;
}

/** Whether a failed refresh means the session is over (spec §8), or the account disabled. */
export function isSessionEndingError(error: ApiError): boolean {
  if (error.status === 401 || error.status === 404) return true;
  if (error.code === 'ACCOUNT_DISABLED') return true;
  return REFRESH_FAILURE_MESSAGES.some((text) => error.message.includes(text));
}

type Work<T> = Promise<T> | (() => Promise<T>);

/** Returns a wrapper that stamps failures of one resource module with its service name and re-raises them. */
export function tagService(service: string) {
  return async <T>(work: Work<T>): Promise<T> => {
    try {
      return await (typeof work === 'function' ? work() : work);
    } catch (error) {
      const apiError = toApiError(error);
      apiError.service = service;
      throw apiError;
    }
  };
}

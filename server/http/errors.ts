/**
 * The single error vocabulary of the API. Routes throw `ApiError`s (usually through `fail`);
 * `onError` turns anything thrown into the `{ status, code, message }` body and never leaks a
 * stack trace.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ApiErrorBody } from '../../contract/schemas';
import { isDatabaseBusy, isDatabaseUnavailable } from '../db';
import { log } from '../log';
import { StorageUnavailableError } from '../storage';

export type ErrorStatus =
  400 | 401 | 403 | 404 | 405 | 409 | 412 | 413 | 415 | 416 | 422 | 429 | 500 | 501 | 502 | 503;

class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    /** More fields of the body (e.g. the conflicts of an EDIT_CONFLICT). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Throws an ApiError; typed `never` so callers can use it in expressions. */
export function fail(
  status: ErrorStatus,
  code: string,
  message: string,
  details?: Record<string, unknown>,
): never {
  throw new ApiError(status, code, message, details);
}

/** Sends an error body with the status it names. */
export function errorResponse(c: Context, status: ErrorStatus, code: string, message: string) {
  const body: ApiErrorBody = { status, code, message };
  return c.json(body, status);
}

const HTTP_CODES: Partial<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
};

/** Seconds a client is asked to wait before trying again while the database or files are unavailable. */
const DATABASE_RETRY_AFTER_S = 5;
/** Seconds a client is asked to wait when the server refused it for lack of a free connection. */
const BUSY_RETRY_AFTER_S = 2;

/**
 * Global error handler: known errors keep their status, an unavailable database is a 503 to
 * retry, anything else is a logged 500.
 */
export function onError(error: Error, c: Context) {
  if (error instanceof ApiError) {
    const { status, code, message, details } = error;
    return c.json({ ...details, status, code, message } satisfies ApiErrorBody, status);
  }
  if (error instanceof HTTPException && error.status < 500) {
    const status = error.status;
    const body: ApiErrorBody = {
      status,
      code: HTTP_CODES[status] ?? 'BAD_REQUEST',
      message: error.message || 'Bad request',
    };
    return c.json(body, status);
  }
  if (isDatabaseBusy(error)) {
    // Logged at most once a minute with the pool's figures (server/db.ts), and counted.
    c.header('Retry-After', String(BUSY_RETRY_AFTER_S));
    return errorResponse(c, 503, 'SERVER_BUSY', 'The server is busy; try again in a moment');
  }
  if (isDatabaseUnavailable(error)) {
    // Logged once per outage where it is noticed (server/db.ts), not once per request.
    c.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
    return errorResponse(
      c,
      503,
      'SERVICE_UNAVAILABLE',
      'The database is unavailable; try again in a few seconds',
    );
  }
  if (error instanceof StorageUnavailableError) {
    // Logged once per outage by the storage (server/s3-storage.ts).
    c.header('Retry-After', String(DATABASE_RETRY_AFTER_S));
    return errorResponse(
      c,
      503,
      'SERVICE_UNAVAILABLE',
      'The file store is unavailable; try again in a few seconds',
    );
  }
  log.error({ err: error, method: c.req.method }, 'Unhandled error');
  return errorResponse(c, 500, 'INTERNAL_ERROR', 'Something went wrong on our side');
}

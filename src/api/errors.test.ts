import { TimeoutError } from 'ky';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, isSessionEndingError, tagService, toApiError } from './errors';
import { httpError } from './testing';

const request = new Request('http://api.test/v1/x');

describe('toApiError', () => {
  it('keeps the server code, message and body of an HTTP error', async () => {
    const body = { status: 422, code: 'INVALID', message: 'Bad e-mail' };
    const error = await httpError(new Response(null, { status: 422 }));
    Object.assign(error, { data: body });

    expect(toApiError(error)).toMatchObject({
      status: 422,
      code: 'INVALID',
      message: 'Bad e-mail',
      data: body,
    });
  });

  it('maps transport, timeout and parsing failures to their statuses', () => {
    expect(toApiError(new TypeError('Failed to fetch')).status).toBe('FETCH_ERROR');
    expect(toApiError(new TimeoutError(request)).status).toBe('TIMEOUT_ERROR');
    expect(toApiError(new SyntaxError('Unexpected token')).status).toBe('PARSING_ERROR');
    expect(toApiError(z.string().safeParse(1).error).status).toBe('PARSING_ERROR');
    expect(toApiError(new DOMException('stop', 'AbortError')).code).toBe('ABORTED');
  });

  it('returns an ApiError unchanged', () => {
    const error = new ApiError({ status: 400, code: 'X', message: 'x' });
    expect(toApiError(error)).toBe(error);
  });
});

describe('isSessionEndingError', () => {
  const failure = (status: number, message: string) => new ApiError({ status, code: 'E', message });

  it('recognises the refresh failure messages and 401/404', () => {
    expect(isSessionEndingError(failure(400, 'Refresh token expired'))).toBe(true);
    expect(isSessionEndingError(failure(400, 'Refresh token revoked'))).toBe(true);
    expect(isSessionEndingError(failure(400, 'Refresh token not found'))).toBe(true);
    expect(isSessionEndingError(failure(401, 'whatever'))).toBe(true);
    expect(isSessionEndingError(failure(404, 'whatever'))).toBe(true);
    expect(isSessionEndingError(failure(500, 'Refresh failed'))).toBe(false);
    expect(isSessionEndingError(failure(403, 'Forbidden'))).toBe(false);
  });

  it('ends the session of a disabled account (403 ACCOUNT_DISABLED)', () => {
    const disabled = new ApiError({ status: 403, code: 'ACCOUNT_DISABLED', message: 'Disabled' });
    expect(isSessionEndingError(disabled)).toBe(true);
  });
});

describe('tagService', () => {
  const tag = tagService('cage-meshes');

  it('stamps the service on a rejected promise and re-raises', async () => {
    const failing = Promise.reject(new ApiError({ status: 500, code: 'E', message: 'boom' }));
    await expect(tag(failing)).rejects.toMatchObject({ service: 'cage-meshes', code: 'E' });
  });

  it('stamps the service on a throwing function, normalising foreign errors', async () => {
    await expect(
      tag(() => {
        throw new TypeError('Failed to fetch');
      }),
    ).rejects.toMatchObject({ service: 'cage-meshes', status: 'FETCH_ERROR' });
  });

  it('passes results through', async () => {
    await expect(tag(() => Promise.resolve(7))).resolves.toBe(7);
  });
});

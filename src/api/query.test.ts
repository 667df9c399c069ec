import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';
import {
  backoffDelay,
  BACKOFF_BASE_MS,
  CACHE_GC_MS,
  createQueryClient,
  MAX_RETRIES,
  shouldRetryQuery,
} from './query';

const fetchError = () =>
  new ApiError({ status: 'FETCH_ERROR', code: 'FETCH_ERROR', message: 'offline' });
const httpFailure = (status: number) =>
  new ApiError({ status, code: `HTTP_${status}`, message: 'failed' });

describe('backoffDelay', () => {
  const middle = () => 0.6; // jitter factor 1.0: the un-jittered delay

  it('starts at 300 ms and doubles per attempt', () => {
    expect(BACKOFF_BASE_MS).toBe(300);
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, middle))).toEqual([
      300, 600, 1200, 2400, 4800, 9600,
    ]);
  });

  it('caps the exponent at 5', () => {
    expect(backoffDelay(6, middle)).toBe(9600);
    expect(backoffDelay(50, middle)).toBe(9600);
  });

  it('keeps the jitter between 0.4 and 1.4 times the delay', () => {
    expect(backoffDelay(2, () => 0)).toBe(480);
    expect(backoffDelay(2, () => 0.999_999)).toBe(1679);
    for (let i = 0; i < 200; i += 1) {
      const delay = backoffDelay(3);
      expect(delay).toBeGreaterThanOrEqual(0.4 * 2400);
      expect(delay).toBeLessThan(1.4 * 2400);
    }
  });
});

describe('shouldRetryQuery', () => {
  it('retries transport failures and 5xx only', () => {
    expect(shouldRetryQuery(0, fetchError())).toBe(true);
    expect(
      shouldRetryQuery(0, new ApiError({ status: 'TIMEOUT_ERROR', code: 'T', message: '' })),
    ).toBe(true);
    expect(shouldRetryQuery(0, httpFailure(503))).toBe(true);
    expect(shouldRetryQuery(0, httpFailure(404))).toBe(false);
    expect(
      shouldRetryQuery(0, new ApiError({ status: 'PARSING_ERROR', code: 'P', message: '' })),
    ).toBe(false);
    expect(
      shouldRetryQuery(0, new ApiError({ status: 'FETCH_ERROR', code: 'ABORTED', message: '' })),
    ).toBe(false);
    expect(shouldRetryQuery(0, new Error('bug'))).toBe(false);
  });

  it('stops after three retries', () => {
    expect(MAX_RETRIES).toBe(3);
    expect(shouldRetryQuery(2, fetchError())).toBe(true);
    expect(shouldRetryQuery(3, fetchError())).toBe(false);
  });
});

describe('createQueryClient', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a failing read with backoff, at most three times', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(fetchError()));

    const result = client
      .fetchQuery({ queryKey: ['flaky'], queryFn })
      .catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(60_000);

    expect(await result).toBeInstanceOf(ApiError);
    expect(queryFn).toHaveBeenCalledTimes(1 + MAX_RETRIES);
  });

  it('does not retry a 4xx', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(httpFailure(403)));

    const result = client.fetchQuery({ queryKey: ['denied'], queryFn }).catch(() => 'failed');
    await vi.advanceTimersByTimeAsync(60_000);

    expect(await result).toBe('failed');
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('never retries a mutation', async () => {
    const client = createQueryClient();
    const mutationFn = vi.fn(() => Promise.reject(fetchError()));

    const result = client
      .getMutationCache()
      .build(client, { mutationFn })
      .execute(undefined)
      .catch(() => 'failed');
    await vi.advanceTimersByTimeAsync(60_000);

    expect(await result).toBe('failed');
    expect(mutationFn).toHaveBeenCalledTimes(1);
  });

  it('keeps unused data for 60 s', async () => {
    const client = createQueryClient();
    await client.fetchQuery({ queryKey: ['counts'], queryFn: () => Promise.resolve(42) });

    await vi.advanceTimersByTimeAsync(CACHE_GC_MS - 1);
    expect(client.getQueryData(['counts'])).toBe(42);
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryData(['counts'])).toBeUndefined();
  });
});

import { QueryClient } from '@tanstack/query-core';
import { isRetryableError } from './errors';

/** Spec §7/§9: cached data is kept this long after its last observer goes away. */
export const CACHE_GC_MS = 60_000;
export const BACKOFF_BASE_MS = 300;
const BACKOFF_MAX_EXPONENT = 5;
export const MAX_RETRIES = 3;
/** The jittered delay lies in [JITTER_MIN, JITTER_MIN + 1) times the un-jittered one. */
const JITTER_MIN = 0.4;

/** Delay before retry number `attempt` (0-based): 300 ms doubled per attempt, exponent capped at 5, jittered. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt, 0), BACKOFF_MAX_EXPONENT);
  // Jitter spreads the retries of many clients that failed together (e.g. after a deploy).
  return Math.floor(BACKOFF_BASE_MS * 2 ** exponent * (JITTER_MIN + random()));
}

/** Whether a failed query may run again: transport failures and 5xx, at most MAX_RETRIES times. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && isRetryableError(error);
}

/** Builds a QueryClient with the app's cache and retry policy; mutations never retry. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: CACHE_GC_MS,
        retry: shouldRetryQuery,
        retryDelay: (failureCount) => backoffDelay(failureCount),
      },
      mutations: { retry: false },
    },
  });
}

/** The app's cache. */
/** The app's cache. Loaded with the first screen that reads through it, not at start-up. */
export const queryClient = createQueryClient();
queryClient.mount();

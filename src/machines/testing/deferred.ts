/**
 * Fake promise actors for machine tests: each call waits in a list until the test settles it,
 * so a test decides when (and how) every API call of the machine answers.
 */
import { expect } from 'vitest';
import { fromPromise } from 'xstate';

export interface Deferred<I, O> {
  input: I;
  /** The actor's abort signal: aborted when the machine stops the call. */
  signal: AbortSignal;
  settled: boolean;
  /** Answers the call (`ok`) or fails it (`error`), then lets the actor react. */
  settle: (outcome: { ok: O } | { error: Error }) => Promise<void>;
}

/** Lets the actor react to a settled promise; the simulated clock does not touch real timers. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The promise function behind deferredActor, for tests that wrap it themselves. */
export const deferredCall =
  <I, O>(calls: Deferred<I, O>[]) =>
  ({ input, signal }: { input: I; signal: AbortSignal }) =>
    new Promise<O>((resolve, reject) => {
      const call: Deferred<I, O> = {
        input,
        signal,
        settled: false,
        settle: async (outcome) => {
          call.settled = true;
          if ('ok' in outcome) resolve(outcome.ok);
          else reject(outcome.error);
          await flush();
        },
      };
      calls.push(call);
    });

/** A promise actor whose calls wait in `calls` until the test settles them. */
export const deferredActor = <I, O>(calls: Deferred<I, O>[]) =>
  fromPromise<O, I>(deferredCall(calls));

/** The one call of `calls` in flight; fails the test when there are none or several. */
export function liveCall<I, O>(calls: Deferred<I, O>[]): Deferred<I, O> {
  const live = calls.filter((call) => !call.settled);
  expect(live).toHaveLength(1);
  return live[0]!;
}

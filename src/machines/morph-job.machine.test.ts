import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../api/errors';
import type { MorphQueueEntry, MorphStatusList } from '../api/schemas';
import {
  MORPH_POLL_MAX_FAILURES,
  morphJobMachine,
  pollDelay,
  selectIsStalled,
  selectJobs,
  selectMorphError,
  type GenerateInput,
} from './morph-job.machine';

const entry = (id: string, bodyAssetId: string): MorphQueueEntry => ({
  id,
  sourceAssetId: 'a1',
  sourceAssetName: 'Jacket',
  bodyAssetId,
  status: 'queued',
  progress: 0,
  error: null,
  morphedAssetId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

type Answer = MorphStatusList | Error;

/** Runs `work` as a promise: a throw becomes a rejection. */
const settle = <T>(work: () => T) => new Promise<T>((resolve) => resolve(work()));

/** A job machine whose status reads answer the scripted answers in order. */
function job(answers: Answer[]) {
  const generated: GenerateInput[] = [];
  const reads: string[][] = [];
  const actor = createActor(
    morphJobMachine.provide({
      actors: {
        generate: fromPromise<MorphQueueEntry[], GenerateInput>(({ input }) =>
          settle(() => {
            generated.push(input);
            return input.bodyAssetIds.map((body, index) => entry(`q${index + 1}`, body));
          }),
        ),
        status: fromPromise<MorphStatusList, { ids: string[] }>(({ input }) =>
          settle(() => {
            reads.push(input.ids);
            const answer = answers.shift();
            if (!answer || answer instanceof Error) throw answer ?? new Error('no answer');
            return answer;
          }),
        ),
      },
    }),
  ).start();
  return { actor, generated, reads };
}

const status = (id: string, state: MorphStatusList[number]['status'], progress: number) => ({
  id,
  status: state,
  progress,
  error: state === 'failed' ? 'No model' : null,
  morphedAssetId: state === 'completed' ? `m-${id}` : null,
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('morph job machine', () => {
  it('queues one job per body and polls every second until all are done', async () => {
    const { actor, generated, reads } = job([
      [status('q1', 'processing', 50), status('q2', 'queued', 0)],
      [status('q1', 'completed', 100), status('q2', 'failed', 0)],
    ]);
    actor.send({ type: 'GENERATE', sourceAssetId: 'a1', bodyAssetIds: ['b1', 'b2'] });
    await vi.advanceTimersByTimeAsync(0);
    expect(generated).toEqual([{ sourceAssetId: 'a1', bodyAssetIds: ['b1', 'b2'] }]);
    expect(selectJobs(actor.getSnapshot()).map((j) => j.status)).toEqual(['queued', 'queued']);

    await vi.advanceTimersByTimeAsync(999);
    expect(reads).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads).toEqual([['q1', 'q2']]);
    expect(selectJobs(actor.getSnapshot())[0]).toMatchObject({
      status: 'processing',
      progress: 50,
    });

    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches('finished')).toBe(true);
    expect(selectJobs(actor.getSnapshot())).toMatchObject([
      { id: 'q1', bodyAssetId: 'b1', status: 'completed', morphedAssetId: 'm-q1' },
      { id: 'q2', bodyAssetId: 'b2', status: 'failed', error: 'No model' },
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads).toHaveLength(2);
  });

  it('backs off after a failed status read and recovers', async () => {
    const { actor, reads } = job([
      new ApiError({ status: 503, code: 'HTTP_503', message: 'Busy' }),
      [status('q1', 'completed', 100)],
    ]);
    actor.send({ type: 'GENERATE', sourceAssetId: 'a1', bodyAssetIds: ['b1'] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toHaveLength(1);
    expect(selectMorphError(actor.getSnapshot())).toMatchObject({ status: 503 });
    await vi.advanceTimersByTimeAsync(1999);
    expect(reads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads).toHaveLength(2);
    expect(actor.getSnapshot().matches('finished')).toBe(true);
    expect(selectMorphError(actor.getSnapshot())).toBeNull();
  });

  it(`stops after ${MORPH_POLL_MAX_FAILURES} failed reads in a row; RETRY polls again`, async () => {
    const failure = new ApiError({ status: 'FETCH_ERROR', code: 'FETCH_ERROR', message: 'Down' });
    const { actor, reads } = job([
      ...Array.from({ length: MORPH_POLL_MAX_FAILURES }, () => failure),
      [status('q1', 'completed', 100)],
    ]);
    actor.send({ type: 'GENERATE', sourceAssetId: 'a1', bodyAssetIds: ['b1'] });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(reads).toHaveLength(MORPH_POLL_MAX_FAILURES);
    expect(selectIsStalled(actor.getSnapshot())).toBe(true);
    expect(selectMorphError(actor.getSnapshot())).toMatchObject({ code: 'FETCH_ERROR' });

    actor.send({ type: 'RETRY' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(actor.getSnapshot().matches('finished')).toBe(true);
  });

  it('shows a refused generation and can try again', async () => {
    const actor = createActor(
      morphJobMachine.provide({
        actors: {
          generate: fromPromise<MorphQueueEntry[], GenerateInput>(() =>
            settle(() => {
              throw new ApiError({ status: 400, code: 'VALIDATION_ERROR', message: 'Not a body' });
            }),
          ),
        },
      }),
    ).start();
    actor.send({ type: 'GENERATE', sourceAssetId: 'a1', bodyAssetIds: ['x'] });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectMorphError(actor.getSnapshot())).toMatchObject({ message: 'Not a body' });
  });

  it('doubles the wait per failure up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(pollDelay)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 16_000, 16_000,
    ]);
  });
});

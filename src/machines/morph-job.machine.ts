/**
 * Generating morphed assets and following them through the morph queue: GENERATE queues one
 * job per body asset, then the queue status is polled about every second until every job is
 * completed or failed. A status read that fails waits longer each time (doubling up to
 * MORPH_POLL_MAX_MS) and, after MORPH_POLL_MAX_FAILURES in a row, stops with the error;
 * RETRY polls again. While the live stream is up (LIVE), the queue's own events say when to
 * read (CHANGED), and the timer only reads every MORPH_LIVE_POLL_MS in case one is missed.
 */
import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { ApiErrorInfo } from '../api/error-info';
import { toApiError } from '../api/errors';
import { invalidateLists } from '../api/lists';
import { generateMorphedAssets, morphQueueStatus } from '../api/morphs';
import type { MorphQueueEntry, MorphStatus, MorphStatusList } from '../../contract/schemas';

export const MORPH_POLL_MS = 1000;
export const MORPH_POLL_MAX_MS = 16_000;
export const MORPH_POLL_MAX_FAILURES = 6;
/** With the live stream up: a read this often at most, unless an event asks for one. */
export const MORPH_LIVE_POLL_MS = 15_000;

/** One job as the screen shows it. */
export interface MorphJob {
  id: string;
  bodyAssetId: string;
  /** What the job is shown as: the body asset's name. */
  bodyAssetName: string;
  status: MorphStatus;
  /** Percent done, 0 to 100. */
  progress: number;
  error: string | null;
  morphedAssetId: string | null;
}

export interface MorphJobContext {
  jobs: MorphJob[];
  /** Status reads that failed in a row. */
  failures: number;
  error: ApiErrorInfo | null;
  /** The live stream is up: morph queue events announce each change. */
  live: boolean;
}

export type MorphJobEvent =
  | { type: 'GENERATE'; sourceAssetId: string; bodyAssetIds: string[] }
  | { type: 'RETRY' }
  /** The live stream came up or went down. */
  | { type: 'LIVE'; connected: boolean }
  /** A live event says a job changed: read now. */
  | { type: 'CHANGED' };

export interface GenerateInput {
  sourceAssetId: string;
  bodyAssetIds: string[];
}

/** The morph queue and the morphed assets lists. */
const showsMorphs = (endpoint: string) => /morph/.test(endpoint);

const isDone = (status: MorphStatus) => status === 'completed' || status === 'failed';

const toJob = (entry: MorphQueueEntry): MorphJob => ({
  id: entry.id,
  bodyAssetId: entry.bodyAssetId,
  bodyAssetName: entry.bodyAssetName,
  status: entry.status,
  progress: entry.progress,
  error: entry.error,
  morphedAssetId: entry.morphedAssetId,
});

/**
 * The wait before the next status read: 1 s, or after failures 2 s, 4 s, ... up to the cap;
 * MORPH_LIVE_POLL_MS while the live stream announces the changes.
 */
export function pollDelay(failures: number, live = false): number {
  if (live) return MORPH_LIVE_POLL_MS;
  return Math.min(MORPH_POLL_MS * 2 ** failures, MORPH_POLL_MAX_MS);
}

export const morphJobMachine = setup({
  types: {
    context: {} as MorphJobContext,
    events: {} as MorphJobEvent,
  },
  actors: {
    // The request alone: the asset page provides the asset feature's queueMorphs, which also
    // refreshes what the new jobs change (features/assets/page/asset-morphs.tsx).
    generate: fromPromise<MorphQueueEntry[], GenerateInput>(({ input }) =>
      generateMorphedAssets(input),
    ),
    status: fromPromise<MorphStatusList, { ids: string[] }>(async ({ input, signal }) => {
      const statuses = await morphQueueStatus(input.ids, { signal });
      if (statuses.some((entry) => isDone(entry.status))) await invalidateLists(showsMorphs);
      return statuses;
    }),
  },
  delays: {
    POLL: ({ context }) => pollDelay(context.failures, context.live),
  },
  actions: {
    clear: assign({ jobs: [], failures: 0, error: null }),
    setJobs: assign((_, params: { entries: MorphQueueEntry[] }) => ({
      jobs: params.entries.map(toJob),
    })),
    updateJobs: assign(({ context }, params: { statuses: MorphStatusList }) => ({
      failures: 0,
      error: null,
      jobs: context.jobs.map((job) => {
        const status = params.statuses.find((entry) => entry.id === job.id);
        return status ? { ...job, ...status } : job;
      }),
    })),
    countFailure: assign(({ context }, params: { error: unknown }) => ({
      failures: context.failures + 1,
      error: toApiError(params.error).toJSON(),
    })),
    setError: assign((_, params: { error: unknown }) => ({
      error: toApiError(params.error).toJSON(),
    })),
    resetFailures: assign({ failures: 0, error: null }),
    setLive: assign(({ event }) => {
      assertEvent(event, 'LIVE');
      return { live: event.connected };
    }),
  },
  guards: {
    allDone: ({ context }) => context.jobs.every((job) => isDone(job.status)),
    // Checked before this failure is counted.
    gaveUp: ({ context }) => context.failures + 1 >= MORPH_POLL_MAX_FAILURES,
  },
}).createMachine({
  id: 'morphJob',
  context: { jobs: [], failures: 0, error: null, live: false },
  initial: 'idle',
  on: { LIVE: { actions: 'setLive' } },
  states: {
    idle: {
      on: { GENERATE: { target: 'generating', actions: 'clear' } },
    },
    generating: {
      invoke: {
        src: 'generate',
        input: ({ event }): GenerateInput => {
          assertEvent(event, 'GENERATE');
          return { sourceAssetId: event.sourceAssetId, bodyAssetIds: event.bodyAssetIds };
        },
        onDone: {
          target: 'polling',
          actions: { type: 'setJobs', params: ({ event }) => ({ entries: event.output }) },
        },
        onError: {
          target: 'idle',
          actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    polling: {
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'allDone', target: '#morphJob.finished' }, 'waiting'] },
        waiting: {
          after: { POLL: 'reading' },
          on: {
            CHANGED: 'reading',
            // The wait starts over with the new delay.
            LIVE: { target: 'waiting', reenter: true, actions: 'setLive' },
          },
        },
        reading: {
          invoke: {
            src: 'status',
            input: ({ context }) => ({ ids: context.jobs.map((job) => job.id) }),
            onDone: {
              target: 'checking',
              actions: { type: 'updateJobs', params: ({ event }) => ({ statuses: event.output }) },
            },
            onError: [
              {
                target: '#morphJob.stalled',
                guard: 'gaveUp',
                actions: { type: 'countFailure', params: ({ event }) => ({ error: event.error }) },
              },
              {
                target: 'waiting',
                actions: { type: 'countFailure', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
      },
    },
    stalled: {
      on: { RETRY: { target: 'polling', actions: 'resetFailures' } },
    },
    finished: {
      on: { GENERATE: { target: 'generating', actions: 'clear' } },
    },
  },
});

export type MorphJobMachine = typeof morphJobMachine;
export type MorphJobSnapshot = SnapshotFrom<MorphJobMachine>;

export const selectJobs = (snapshot: MorphJobSnapshot) => snapshot.context.jobs;
export const selectMorphError = (snapshot: MorphJobSnapshot) => snapshot.context.error;
export const selectIsGenerating = (snapshot: MorphJobSnapshot) => snapshot.matches('generating');
export const selectIsFollowing = (snapshot: MorphJobSnapshot) => snapshot.matches('polling');
export const selectIsStalled = (snapshot: MorphJobSnapshot) => snapshot.matches('stalled');

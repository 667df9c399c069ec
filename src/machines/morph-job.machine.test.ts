/**
 * Model-based tests (src/machines/testing/path-tests.ts): a small abstract model of following
 * morph jobs (queue one job per body, read their status about every second until all are done;
 * a failed read waits 2 s, 4 s, ... up to 16 s and the sixth in a row stops until RETRY)
 * generates paths; each drives the real machine on a simulated clock, with fake generate and
 * status actors whose calls the path's events settle, and together they must reach every state
 * and transition of the real machine.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, not, setup, SimulatedClock } from 'xstate';
import { ApiError } from '../api/errors';
import type { MorphQueueEntry, MorphStatusList } from '../../contract/schemas';
import {
  MORPH_LIVE_POLL_MS,
  MORPH_POLL_MAX_FAILURES,
  morphJobMachine,
  selectIsFollowing,
  selectIsGenerating,
  selectIsStalled,
  selectJobs,
  selectMorphError,
  type GenerateInput,
  type MorphJob,
} from './morph-job.machine';
import { describeMachinePaths, pathSuite, type PathTools } from './testing/path-tests';
import { deferredActor, liveCall, type Deferred } from './testing/deferred';

// ---------------------------------------------------------------- the fake morph queue

const GENERATE: GenerateInput = { sourceAssetId: 'a1', bodyAssetIds: ['b1', 'b2'] };

const entry = (id: string, bodyAssetId: string): MorphQueueEntry => ({
  id,
  sourceAssetId: 'a1',
  sourceAssetName: 'Jacket',
  bodyAssetId,
  bodyAssetName: `Body ${bodyAssetId}`,
  status: 'queued',
  progress: 0,
  error: null,
  morphedAssetId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** What the jobs of GENERATE show: as queued, while one runs, once both are over. */
type JobsShown = 'queued' | 'running' | 'done';

const STATUSES: Record<Exclude<JobsShown, 'queued'>, MorphStatusList> = {
  running: [
    { id: 'q1', status: 'processing', progress: 50, error: null, morphedAssetId: null },
    { id: 'q2', status: 'queued', progress: 0, error: null, morphedAssetId: null },
  ],
  done: [
    { id: 'q1', status: 'completed', progress: 100, error: null, morphedAssetId: 'm1' },
    { id: 'q2', status: 'failed', progress: 0, error: 'No model', morphedAssetId: null },
  ],
};

/** The jobs q1 (body b1) and q2 (body b2) as the screen shows them after `statuses`. */
const jobsOf = (statuses: MorphStatusList): MorphJob[] =>
  statuses.map((status, index) => ({
    ...status,
    bodyAssetId: `b${index + 1}`,
    bodyAssetName: `Body b${index + 1}`,
  }));

const JOBS: Record<JobsShown, MorphJob[]> = {
  queued: jobsOf(
    ['q1', 'q2'].map((id) => ({
      id,
      status: 'queued',
      progress: 0,
      error: null,
      morphedAssetId: null,
    })),
  ),
  running: jobsOf(STATUSES.running),
  done: jobsOf(STATUSES.done),
};

/** The wait before each read, by failed reads in a row: doubling from 1 s, capped at 16 s. */
const WAIT_MS = [1000, 2000, 4000, 8000, 16_000, 16_000];

const GENERATE_FAILURE = new ApiError({
  status: 400,
  code: 'VALIDATION_ERROR',
  message: 'Not a body',
});
const READ_FAILURE = new ApiError({ status: 503, code: 'HTTP_503', message: 'Busy' });

// ---------------------------------------------------------------- the fake actors

function harness({ inspect, clock }: PathTools) {
  const generates: Deferred<GenerateInput, MorphQueueEntry[]>[] = [];
  const reads: Deferred<{ ids: string[] }, MorphStatusList>[] = [];
  const actor = createActor(
    morphJobMachine.provide({
      actors: { generate: deferredActor(generates), status: deferredActor(reads) },
    }),
    { inspect, clock },
  ).start();
  return {
    actor,
    clock,
    snapshot: () => actor.getSnapshot(),
    live: () => [...generates, ...reads].filter((call) => !call.settled),
    currentGenerate: () => liveCall(generates),
    currentRead: () => liveCall(reads),
  };
}
type Harness = ReturnType<typeof harness>;

// ---------------------------------------------------------------- the abstract model

interface MorphModel {
  jobs: JobsShown | null;
  /** Failed reads in a row. */
  failures: number;
  error: 'generate' | 'read' | null;
  /** Whether the clock already stands 1 ms before the next read is due. */
  almostDue: boolean;
  /** The live stream is up: reads come on CHANGED, the timer waits MORPH_LIVE_POLL_MS. */
  live: boolean;
}

type MorphEvent = {
  type:
    | 'GENERATE'
    | 'GENERATE_OK'
    | 'GENERATE_FAIL'
    | 'ALMOST_DUE'
    | 'DUE'
    | 'READ_RUNNING'
    | 'READ_DONE'
    | 'READ_FAIL'
    | 'RETRY'
    | 'STREAM_UP'
    | 'STREAM_DOWN'
    | 'CHANGED';
};

/** The stream comes up or goes down; a wait under way starts over with its new delay. */
const stream = (live: boolean, target?: 'waiting') => ({
  guard: ({ context }: { context: MorphModel }) => context.live !== live,
  ...(target ? { target } : {}),
  actions: assign<MorphModel, MorphEvent, undefined, MorphEvent, never>({ live, almostDue: false }),
});

const generate = {
  target: 'generating',
  actions: assign<MorphModel, MorphEvent, undefined, MorphEvent, never>({
    jobs: null,
    failures: 0,
    error: null,
  }),
} as const;

const answered = (jobs: JobsShown) =>
  assign<MorphModel, MorphEvent, undefined, MorphEvent, never>({ jobs, failures: 0, error: null });

const failedRead = assign<MorphModel, MorphEvent, undefined, MorphEvent, never>(({ context }) => ({
  failures: context.failures + 1,
  error: 'read',
}));

const morphModel = setup({
  types: { context: {} as MorphModel, events: {} as MorphEvent },
  guards: {
    almostDue: ({ context }) => context.almostDue,
    lastChance: ({ context }) => context.failures + 1 === MORPH_POLL_MAX_FAILURES,
  },
}).createMachine({
  id: 'morphModel',
  context: { jobs: null, failures: 0, error: null, almostDue: false, live: false },
  initial: 'idle',
  states: {
    idle: { on: { GENERATE: generate, STREAM_UP: stream(true), STREAM_DOWN: stream(false) } },
    generating: {
      on: {
        GENERATE_OK: { target: 'waiting', actions: assign({ jobs: 'queued' }) },
        GENERATE_FAIL: { target: 'idle', actions: assign({ error: 'generate' }) },
      },
    },
    waiting: {
      on: {
        ALMOST_DUE: {
          guard: not('almostDue'),
          target: 'waiting',
          actions: assign({ almostDue: true }),
        },
        DUE: { guard: 'almostDue', target: 'reading', actions: assign({ almostDue: false }) },
        CHANGED: { target: 'reading', actions: assign({ almostDue: false }) },
        STREAM_UP: stream(true, 'waiting'),
        STREAM_DOWN: stream(false, 'waiting'),
      },
    },
    reading: {
      on: {
        READ_RUNNING: { target: 'waiting', actions: answered('running') },
        READ_DONE: { target: 'finished', actions: answered('done') },
        READ_FAIL: [
          { guard: 'lastChance', target: 'stalled', actions: failedRead },
          { target: 'waiting', actions: failedRead },
        ],
      },
    },
    stalled: {
      on: { RETRY: { target: 'waiting', actions: assign({ failures: 0, error: null }) } },
    },
    finished: { on: { GENERATE: generate } },
  },
});

// ---------------------------------------------------------------- checks and events

type ModelSnapshot = { context: MorphModel };

/** Nothing is read any more, however long the screen stays open. */
function expectNoMoreReads(h: Harness) {
  h.clock.increment(10 * 60_000);
  expect(h.live()).toEqual([]);
}

function checks(h: Harness) {
  const shows = (m: MorphModel) => {
    expect(selectJobs(h.snapshot())).toEqual(m.jobs ? JOBS[m.jobs] : []);
    expect(selectMorphError(h.snapshot())).toEqual(
      m.error === 'generate'
        ? GENERATE_FAILURE.toJSON()
        : m.error === 'read'
          ? READ_FAILURE.toJSON()
          : null,
    );
  };
  return {
    idle: ({ context: m }: ModelSnapshot) => {
      expect(h.snapshot().matches('idle')).toBe(true);
      shows(m);
      expect(h.live()).toEqual([]);
    },
    generating: ({ context: m }: ModelSnapshot) => {
      expect(selectIsGenerating(h.snapshot())).toBe(true);
      shows(m);
      expect(h.currentGenerate().input).toEqual(GENERATE);
      expect(h.live()).toHaveLength(1);
    },
    waiting: ({ context: m }: ModelSnapshot) => {
      expect(h.snapshot().matches({ polling: 'waiting' })).toBe(true);
      expect(h.snapshot().context.live).toBe(m.live);
      expect(selectIsFollowing(h.snapshot())).toBe(true);
      shows(m);
      expect(h.live()).toEqual([]);
    },
    reading: ({ context: m }: ModelSnapshot) => {
      expect(h.snapshot().matches({ polling: 'reading' })).toBe(true);
      expect(selectIsFollowing(h.snapshot())).toBe(true);
      shows(m);
      expect(h.currentRead().input).toEqual({ ids: ['q1', 'q2'] });
      expect(h.live()).toHaveLength(1);
    },
    stalled: ({ context: m }: ModelSnapshot) => {
      expect(selectIsStalled(h.snapshot())).toBe(true);
      shows(m);
      expectNoMoreReads(h);
    },
    finished: ({ context: m }: ModelSnapshot) => {
      expect(h.snapshot().matches('finished')).toBe(true);
      expect(selectIsFollowing(h.snapshot())).toBe(false);
      shows(m);
      expectNoMoreReads(h);
    },
  };
}

function events(h: Harness) {
  return {
    GENERATE: () => {
      h.actor.send({ type: 'GENERATE', ...GENERATE });
    },
    GENERATE_OK: async () => {
      const call = h.currentGenerate();
      await call.settle({
        ok: call.input.bodyAssetIds.map((body, index) => entry(`q${index + 1}`, body)),
      });
    },
    GENERATE_FAIL: () => h.currentGenerate().settle({ error: GENERATE_FAILURE }),
    // The next read is due WAIT_MS[failures] after the last answer: not a millisecond earlier.
    ALMOST_DUE: ({ state }: { state: ModelSnapshot }) => {
      const { live, failures } = state.context;
      h.clock.increment((live ? MORPH_LIVE_POLL_MS : (WAIT_MS[failures] as number)) - 1);
    },
    DUE: () => {
      h.clock.increment(1);
    },
    READ_RUNNING: () => h.currentRead().settle({ ok: STATUSES.running }),
    READ_DONE: () => h.currentRead().settle({ ok: STATUSES.done }),
    READ_FAIL: () => h.currentRead().settle({ error: READ_FAILURE }),
    RETRY: () => {
      h.actor.send({ type: 'RETRY' });
    },
    STREAM_UP: () => h.actor.send({ type: 'LIVE', connected: true }),
    STREAM_DOWN: () => h.actor.send({ type: 'LIVE', connected: false }),
    CHANGED: () => h.actor.send({ type: 'CHANGED' }),
  };
}

const system = (tools: PathTools) => {
  const h = harness(tools);
  return { actor: h.actor, states: checks(h), events: events(h) };
};

const ANSWERS: readonly MorphEvent['type'][] = ['READ_RUNNING', 'READ_DONE'];

describeMachinePaths(morphJobMachine, {
  suites: [
    pathSuite({ name: 'following morph jobs (model)', model: morphModel, system }),
    pathSuite({
      name: 'answers after failed reads (model)',
      model: morphModel,
      // Shortest paths answer at the first read; here reads answer only after failures, so that
      // an answer is seen to end the backoff and clear the error.
      options: {
        filterEvents: (snapshot, event) =>
          snapshot.can(event) && (snapshot.context.failures > 0 || !ANSWERS.includes(event.type)),
      },
      system,
    }),
  ],
});

describe('morph job machine — spec rules', () => {
  const start = () => harness({ clock: new SimulatedClock() } as PathTools);
  const queued = [entry('q1', 'b1'), entry('q2', 'b2')];
  /** Lets `ms` pass, checking that nothing is requested before the last millisecond. */
  const waitExactly = (h: Harness, ms: number) => {
    h.clock.increment(ms - 1);
    expect(h.live()).toEqual([]);
    h.clock.increment(1);
  };
  /** GENERATE, and the server queued both jobs: the machine now follows them. */
  const startQueued = async () => {
    const h = start();
    h.actor.send({ type: 'GENERATE', ...GENERATE });
    await h.currentGenerate().settle({ ok: queued });
    return h;
  };

  it('generating queues one job per body asset and shows each as queued', async () => {
    const h = start();
    h.actor.send({ type: 'GENERATE', ...GENERATE });
    expect(selectIsGenerating(h.snapshot())).toBe(true);
    expect(h.currentGenerate().input).toEqual(GENERATE);
    await h.currentGenerate().settle({ ok: queued });
    expect(selectJobs(h.snapshot())).toEqual(JOBS.queued);
    expect(selectIsFollowing(h.snapshot())).toBe(true);
  });

  it('a refused request shows its error and follows nothing', async () => {
    const h = start();
    h.actor.send({ type: 'GENERATE', ...GENERATE });
    await h.currentGenerate().settle({ error: GENERATE_FAILURE });
    expect(selectMorphError(h.snapshot())?.code).toBe('VALIDATION_ERROR');
    expect(selectIsFollowing(h.snapshot())).toBe(false);
    h.clock.increment(60_000);
    expect(h.live()).toEqual([]);
  });

  it('the status of the queued jobs is read about every second (1 s, not a millisecond earlier)', async () => {
    const h = await startQueued();
    waitExactly(h, 1000);
    expect(h.currentRead().input).toEqual({ ids: ['q1', 'q2'] });
  });

  it('progress and status of each job update from every read', async () => {
    const h = await startQueued();
    h.clock.increment(1000);
    await h.currentRead().settle({ ok: STATUSES.running });
    expect(selectJobs(h.snapshot())).toEqual(JOBS.running);
  });

  it('following stops once every job is completed or failed', async () => {
    const h = await startQueued();
    h.clock.increment(1000);
    await h.currentRead().settle({ ok: STATUSES.done });
    expect(selectIsFollowing(h.snapshot())).toBe(false);
    expect(selectJobs(h.snapshot())).toEqual(JOBS.done);
    h.clock.increment(60_000);
    expect(h.live()).toEqual([]);
  });

  it('a failed read waits longer each time: 2 s, then 4 s', async () => {
    const h = await startQueued();
    h.clock.increment(1000);
    await h.currentRead().settle({ error: READ_FAILURE });
    expect(selectIsFollowing(h.snapshot())).toBe(true);
    waitExactly(h, 2000);
    await h.currentRead().settle({ error: READ_FAILURE });
    waitExactly(h, 4000);
    expect(h.live()).toHaveLength(1);
  });

  it('after six failed reads in a row following stalls with the error until Retry', async () => {
    const h = await startQueued();
    for (const wait of [1000, 2000, 4000, 8000, 16_000, 16_000]) {
      h.clock.increment(wait);
      await h.currentRead().settle({ error: READ_FAILURE });
    }
    expect(selectIsStalled(h.snapshot())).toBe(true);
    expect(selectMorphError(h.snapshot())?.code).toBe('HTTP_503');
    h.clock.increment(60_000);
    expect(h.live()).toEqual([]);
    h.actor.send({ type: 'RETRY' });
    h.clock.increment(1000);
    await h.currentRead().settle({ ok: STATUSES.running });
    expect(selectMorphError(h.snapshot())).toBeNull();
    expect(selectIsFollowing(h.snapshot())).toBe(true);
  });

  it('a successful read clears an earlier read error and the wait goes back to 1 s', async () => {
    const h = await startQueued();
    h.clock.increment(1000);
    await h.currentRead().settle({ error: READ_FAILURE });
    h.clock.increment(2000);
    await h.currentRead().settle({ ok: STATUSES.running });
    expect(selectMorphError(h.snapshot())).toBeNull();
    waitExactly(h, 1000);
    expect(h.live()).toHaveLength(1);
  });

  it('new jobs can be generated once the last ones are over', async () => {
    const h = await startQueued();
    h.clock.increment(1000);
    await h.currentRead().settle({ ok: STATUSES.done });
    h.actor.send({ type: 'GENERATE', sourceAssetId: 'a1', bodyAssetIds: ['b3'] });
    expect(selectIsGenerating(h.snapshot())).toBe(true);
    expect(selectJobs(h.snapshot())).toEqual([]);
  });
});

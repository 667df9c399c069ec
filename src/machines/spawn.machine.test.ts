import { createActor, createMachine, SimulatedClock, type Snapshot } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  FADE_OUT_MS,
  selectAnimationPhase,
  selectEffectPhase,
  selectViewerState,
  spawnMachine,
} from './spawn.machine';

/**
 * Abstract model of spec §2 (no `after`, so xstate/graph can walk it): the model loads with or
 * without an effect and a spawn animation (or fails); each part plays, ends, fades for 0.5 s;
 * both done means spawned. `FADE_ELAPSED` stands for the simulated clock moving by 0.5 s.
 * State names spell what the real actor must show: "<effect>/<animation>".
 */
/** One part that is already playing: it ends, then fades out over 0.5 s. */
function partTree(name: 'EFFECT' | 'ANIMATION') {
  return {
    initial: 'playing',
    states: {
      playing: { on: { [`${name}_ENDED`]: 'fading' } },
      fading: { on: { FADE_ELAPSED: 'done' } },
      done: {},
    },
  };
}

const model = createMachine({
  id: 'abstract',
  initial: 'loading',
  states: {
    loading: {
      on: {
        LOAD_FULL: 'spawning.full',
        LOAD_NO_EFFECT: 'spawning.noEffect',
        LOAD_NO_ANIMATION: 'spawning.noAnimation',
        LOAD_BARE: 'spawned',
        LOAD_FAILED: 'error',
      },
    },
    spawning: {
      initial: 'full',
      states: {
        full: {
          type: 'parallel',
          states: { effect: partTree('EFFECT'), animation: partTree('ANIMATION') },
        },
        noEffect: partTree('ANIMATION'),
        noAnimation: partTree('EFFECT'),
      },
    },
    spawned: {},
    error: {},
  },
});

type Phase = 'playing' | 'fading' | 'done';

/** What the real actor must show in an abstract state. */
function expected(snapshot: Snapshot<unknown> & { value: unknown }): {
  state: string;
  effect?: Phase;
  animation?: Phase;
  callbacks: number;
} {
  const value = snapshot.value as string | Record<string, unknown>;
  if (value === 'loading') return { state: 'loading', callbacks: 0 };
  if (value === 'error') return { state: 'error', callbacks: 0 };
  if (value === 'spawned') return { state: 'spawned', callbacks: 1 };
  const spawning = (value as { spawning: string | Record<string, unknown> }).spawning;
  const [variant, inner] = Object.entries(spawning)[0] as [string, unknown];
  const phases =
    variant === 'full'
      ? (inner as { effect: Phase; animation: Phase })
      : variant === 'noEffect'
        ? { effect: 'done' as Phase, animation: inner as Phase }
        : { effect: inner as Phase, animation: 'done' as Phase };
  const bothDone = phases.effect === 'done' && phases.animation === 'done';
  return bothDone
    ? { state: 'spawned', effect: 'done', animation: 'done', callbacks: 1 }
    : { state: 'spawning', ...phases, callbacks: 0 };
}

function systemUnderTest() {
  const clock = new SimulatedClock();
  const calls = { loaded: 0, spawnFinished: 0, errors: [] as unknown[] };
  const actor = createActor(
    spawnMachine.provide({
      actions: {
        notifyLoaded: () => void calls.loaded++,
        notifySpawnFinished: () => void calls.spawnFinished++,
        notifyError: (_, { error }) => void calls.errors.push(error),
      },
    }),
    { clock },
  ).start();
  return { clock, calls, actor };
}

describe('spawn machine (model-based)', () => {
  const testModel = createTestModel(model);
  const paths = testModel.getSimplePaths();

  it('walks every abstract state', () => {
    const visited = new Set(
      paths.flatMap((p) =>
        [p.state, ...p.steps.map((s) => s.state)].map((s) => JSON.stringify(s.value)),
      ),
    );
    const reachable = new Set(
      Object.values(testModel.getAdjacencyMap()).map(({ state }) =>
        JSON.stringify((state as { value: unknown }).value),
      ),
    );
    expect([...visited].sort()).toEqual([...reachable].sort());
  });

  for (const path of paths) {
    it(path.description, async () => {
      const sut = systemUnderTest();
      const send = sut.actor.send.bind(sut.actor);
      await path.test({
        states: {
          '*': (abstract) => {
            const want = expected(abstract as Snapshot<unknown> & { value: unknown });
            const real = sut.actor.getSnapshot();
            expect(selectViewerState(real)).toBe(want.state);
            if (want.effect && want.state === 'spawning') {
              expect(selectEffectPhase(real)).toBe(want.effect);
              expect(selectAnimationPhase(real)).toBe(want.animation);
            }
            // The spawn-finished callback fires exactly once, and only when both parts are done.
            expect(sut.calls.spawnFinished).toBe(want.callbacks);
            if (want.state === 'error') expect(sut.calls.errors).toHaveLength(1);
          },
        },
        events: {
          LOAD_FULL: () => send({ type: 'MODEL_LOADED', effect: true, animation: true }),
          LOAD_NO_EFFECT: () => send({ type: 'MODEL_LOADED', effect: false, animation: true }),
          LOAD_NO_ANIMATION: () => send({ type: 'MODEL_LOADED', effect: true, animation: false }),
          LOAD_BARE: () => send({ type: 'MODEL_LOADED', effect: false, animation: false }),
          LOAD_FAILED: () => send({ type: 'MODEL_FAILED', error: new Error('404') }),
          EFFECT_ENDED: () => send({ type: 'EFFECT_ENDED' }),
          ANIMATION_ENDED: () => send({ type: 'ANIMATION_ENDED' }),
          FADE_ELAPSED: () => sut.clock.increment(FADE_OUT_MS),
        },
      });
      sut.actor.stop();
    });
  }
});

describe('spawn machine timing', () => {
  it('keeps fading until the full 0.5 s has passed', () => {
    const { actor, clock, calls } = systemUnderTest();
    actor.send({ type: 'MODEL_LOADED', effect: true, animation: false });
    actor.send({ type: 'EFFECT_ENDED' });
    clock.increment(FADE_OUT_MS - 1);
    expect(selectEffectPhase(actor.getSnapshot())).toBe('fading');
    expect(calls.spawnFinished).toBe(0);
    clock.increment(1);
    expect(selectViewerState(actor.getSnapshot())).toBe('spawned');
    expect(calls.spawnFinished).toBe(1);
  });

  it('fires no spawn callback after a load failure, and spawns again after a new LOAD', () => {
    const { actor, calls } = systemUnderTest();
    actor.send({ type: 'MODEL_FAILED', error: new Error('corrupt') });
    expect(calls).toMatchObject({ loaded: 0, spawnFinished: 0 });
    actor.send({ type: 'LOAD' });
    actor.send({ type: 'MODEL_LOADED', effect: false, animation: false });
    expect(calls).toMatchObject({ loaded: 1, spawnFinished: 1 });
    // Late or duplicate events from the old model change nothing.
    actor.send({ type: 'EFFECT_ENDED' });
    actor.send({ type: 'ANIMATION_ENDED' });
    expect(calls.spawnFinished).toBe(1);
  });
});

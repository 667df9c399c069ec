import { assign, createActor, createMachine, SimulatedClock } from 'xstate';
import { describe, expect, it } from 'vitest';
import { describeMachinePaths, pathSuite, type PathTools } from './testing/path-tests';
import {
  selectAnimationPhase,
  selectEffectPhase,
  selectError,
  selectViewerState,
  spawnMachine,
} from './spawn.machine';

/**
 * Abstract model of spec §2 (no `after`, so xstate/graph can walk it): the model loads with or
 * without an effect and a spawn animation (or fails); each part plays, ends, fades for 0.5 s;
 * both done means spawned. `FADE_ELAPSED` stands for the simulated clock moving by 0.5 s.
 * A new model source (`LOAD`) starts over from any state; the model takes it once per path, so
 * that the states after it are new ones the paths walk again. A view that can no longer draw
 * (`RENDER_FAILED`) is an error from any state.
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
  types: {} as { context: { reloaded: boolean; renderFailed: boolean } },
  context: { reloaded: false, renderFailed: false },
  initial: 'loading',
  on: {
    LOAD: { target: '.loading', actions: assign({ reloaded: true }) },
    RENDER_FAILED: { target: '.error', actions: assign({ renderFailed: true }) },
  },
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
function expected(snapshot: { value: unknown }): {
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

function systemUnderTest({ inspect, clock }: Partial<PathTools> = {}) {
  clock ??= new SimulatedClock();
  const calls = { loaded: 0, spawnFinished: 0, errors: [] as unknown[] };
  const actor = createActor(
    spawnMachine.provide({
      actions: {
        notifyLoaded: () => void calls.loaded++,
        notifySpawnFinished: () => void calls.spawnFinished++,
        notifyError: (_, { error }) => void calls.errors.push(error),
      },
    }),
    { clock, inspect },
  ).start();
  return { clock, calls, actor };
}

describeMachinePaths(spawnMachine, {
  suites: [
    pathSuite({
      name: 'spawn sequence (spec §2 model)',
      model,
      options: {
        // LOAD and RENDER_FAILED once per path each (so the states after them are walked
        // again), and no RENDER_FAILED on top of an error.
        filterEvents: (snapshot, event) =>
          (event.type !== 'LOAD' || !snapshot.context.reloaded) &&
          (event.type !== 'RENDER_FAILED' ||
            (!snapshot.context.renderFailed && !snapshot.matches('error'))),
      },
      system: ({ inspect, clock }) => {
        const sut = systemUnderTest({ inspect, clock });
        const send = sut.actor.send.bind(sut.actor);
        return {
          actor: sut.actor,
          states: {
            '*': (abstract) => {
              const want = expected(abstract);
              const real = sut.actor.getSnapshot();
              expect(selectViewerState(real)).toBe(want.state);
              if (want.effect && want.state === 'spawning') {
                expect(selectEffectPhase(real)).toBe(want.effect);
                expect(selectAnimationPhase(real)).toBe(want.animation);
              }
              // The spawn-finished callback fires exactly once, and only when both parts are done.
              // An error after spawning (RENDER_FAILED) leaves the one call that happened.
              if (want.state === 'error') expect(sut.calls.spawnFinished).toBeLessThanOrEqual(1);
              else expect(sut.calls.spawnFinished).toBe(want.callbacks);
              if (want.state === 'error') expect(sut.calls.errors).toHaveLength(1);
            },
          },
          events: {
            LOAD_FULL: () => send({ type: 'MODEL_LOADED', effect: true, animation: true }),
            LOAD_NO_EFFECT: () => send({ type: 'MODEL_LOADED', effect: false, animation: true }),
            LOAD_NO_ANIMATION: () => send({ type: 'MODEL_LOADED', effect: true, animation: false }),
            LOAD_BARE: () => send({ type: 'MODEL_LOADED', effect: false, animation: false }),
            LOAD_FAILED: () => send({ type: 'MODEL_FAILED', error: new Error('404') }),
            RENDER_FAILED: () => send({ type: 'RENDER_FAILED', error: new Error('context lost') }),
            EFFECT_ENDED: () => send({ type: 'EFFECT_ENDED' }),
            ANIMATION_ENDED: () => send({ type: 'ANIMATION_ENDED' }),
            FADE_ELAPSED: () => sut.clock.increment(500),
            // The callbacks are counted per loaded model.
            LOAD: () => {
              sut.calls.spawnFinished = 0;
              sut.calls.errors.length = 0;
              send({ type: 'LOAD' });
            },
          },
        };
      },
    }),
  ],
});

describe('spawn machine — spec rules', () => {
  it('keeps fading until the full 0.5 s has passed', () => {
    const { actor, clock, calls } = systemUnderTest();
    actor.send({ type: 'MODEL_LOADED', effect: true, animation: false });
    actor.send({ type: 'EFFECT_ENDED' });
    clock.increment(499);
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
  it('announces loaded when the model is in, then spawning plays the effect and the animation side by side', () => {
    const { actor, calls } = systemUnderTest();
    expect(selectViewerState(actor.getSnapshot())).toBe('loading');
    actor.send({ type: 'MODEL_LOADED', effect: true, animation: true });
    expect(calls.loaded).toBe(1);
    expect(selectViewerState(actor.getSnapshot())).toBe('spawning');
    expect(selectEffectPhase(actor.getSnapshot())).toBe('playing');
    expect(selectAnimationPhase(actor.getSnapshot())).toBe('playing');
  });

  it('spawn is finished only when both the effect and the animation are done', () => {
    const { actor, clock, calls } = systemUnderTest();
    actor.send({ type: 'MODEL_LOADED', effect: true, animation: true });
    actor.send({ type: 'EFFECT_ENDED' });
    clock.increment(500);
    expect(selectEffectPhase(actor.getSnapshot())).toBe('done');
    expect(calls.spawnFinished).toBe(0);
    actor.send({ type: 'ANIMATION_ENDED' });
    clock.increment(500);
    expect(calls.spawnFinished).toBe(1);
    expect(selectViewerState(actor.getSnapshot())).toBe('spawned');
  });

  it('the spawn animation also fades out over 0.5 s at its end', () => {
    const { actor, clock } = systemUnderTest();
    actor.send({ type: 'MODEL_LOADED', effect: false, animation: true });
    actor.send({ type: 'ANIMATION_ENDED' });
    expect(selectAnimationPhase(actor.getSnapshot())).toBe('fading');
    clock.increment(499);
    expect(selectAnimationPhase(actor.getSnapshot())).toBe('fading');
    clock.increment(1);
    expect(selectViewerState(actor.getSnapshot())).toBe('spawned');
  });

  it('a model with neither an effect nor an animation is spawned at once', () => {
    const { actor, calls } = systemUnderTest();
    actor.send({ type: 'MODEL_LOADED', effect: false, animation: false });
    expect(selectViewerState(actor.getSnapshot())).toBe('spawned');
    expect(calls).toMatchObject({ loaded: 1, spawnFinished: 1 });
  });

  it('a model that fails to load is an error with its reason, and no loaded callback', () => {
    const { actor, calls } = systemUnderTest();
    const reason = new Error('not a glTF file');
    actor.send({ type: 'MODEL_FAILED', error: reason });
    expect(selectViewerState(actor.getSnapshot())).toBe('error');
    expect(calls.errors).toEqual([reason]);
    expect(calls.loaded).toBe(0);
  });

  it('keeps the reason of the failure for the view to show, until the next LOAD (Retry)', () => {
    const { actor } = systemUnderTest();
    const reason = new Error('HTTP 503');
    actor.send({ type: 'MODEL_FAILED', error: reason });
    expect(selectError(actor.getSnapshot())).toBe(reason);
    actor.send({ type: 'LOAD' });
    expect(selectViewerState(actor.getSnapshot())).toBe('loading');
    expect(selectError(actor.getSnapshot())).toBeUndefined();
    const lost = new Error('WebGL context lost');
    actor.send({ type: 'MODEL_LOADED', effect: false, animation: false });
    actor.send({ type: 'RENDER_FAILED', error: lost });
    expect(selectError(actor.getSnapshot())).toBe(lost);
  });

  it('a view that can no longer draw is an error even mid-spawn, and the spawn never finishes', () => {
    const { actor, clock, calls } = systemUnderTest();
    actor.send({ type: 'MODEL_LOADED', effect: true, animation: false });
    actor.send({ type: 'RENDER_FAILED', error: new Error('context lost') });
    expect(selectViewerState(actor.getSnapshot())).toBe('error');
    actor.send({ type: 'EFFECT_ENDED' });
    clock.increment(500);
    expect(calls.spawnFinished).toBe(0);
  });

  it('a new model source starts over: loading again, and spawn finished is announced once more', () => {
    const { actor, calls } = systemUnderTest();
    actor.send({ type: 'MODEL_LOADED', effect: false, animation: false });
    actor.send({ type: 'LOAD' });
    expect(selectViewerState(actor.getSnapshot())).toBe('loading');
    actor.send({ type: 'MODEL_LOADED', effect: false, animation: false });
    expect(calls).toMatchObject({ loaded: 2, spawnFinished: 2 });
  });
});

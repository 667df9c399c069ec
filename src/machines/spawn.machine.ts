import { assign, emit, setup, type SnapshotFrom } from 'xstate';
import { FADE_OUT_S, type SpawnPartPhase, type ViewerState } from '../domain/viewer';

/** The fade-out as the machine's delay. */
export const FADE_OUT_MS = FADE_OUT_S * 1000;

export type SpawnEvent =
  /** A new model source: start over. */
  | { type: 'LOAD' }
  /** The model is ready; the flags say whether an effect / a spawn animation will play. */
  | { type: 'MODEL_LOADED'; effect: boolean; animation: boolean }
  | { type: 'MODEL_FAILED'; error: unknown }
  /** The view can no longer draw (e.g. the WebGL context was lost for good). */
  | { type: 'RENDER_FAILED'; error: unknown }
  /** The effect's (or animation's) last loop reached its last frame, which it now holds. */
  | { type: 'EFFECT_ENDED' }
  | { type: 'ANIMATION_ENDED' };

/** What the machine tells its owner (the view turns these into callbacks). */
export type SpawnEmitted =
  { type: 'loaded' } | { type: 'spawnFinished' } | { type: 'error'; error: unknown };

/**
 * The viewer's spawn sequence (spec §2): the model loads, then the spawn effect and the
 * spawn animation play side by side, each fading out over FADE_OUT_MS at its end; spawning is
 * finished when both are done. A part that is missing counts as done at once. The view
 * supplies the notify* actions (callbacks) with `.provide()`.
 */
export const spawnMachine = setup({
  types: {
    events: {} as SpawnEvent,
    /** `error`: why the viewer is in its error state (cleared by the next LOAD). */
    context: {} as { effect: boolean; animation: boolean; error?: unknown },
    emitted: {} as SpawnEmitted,
  },
  actions: {
    // By default the notifications are emitted (actor.on('spawnFinished', ...)); tests may
    // replace them with .provide().
    notifyLoaded: emit({ type: 'loaded' }),
    notifySpawnFinished: emit({ type: 'spawnFinished' }),
    notifyError: emit((_, params: { error: unknown }) => ({ type: 'error', error: params.error })),
    // The view shows the reason of the error state.
    rememberError: assign({ error: (_, params: { error: unknown }) => params.error }),
    forgetError: assign({ error: undefined }),
  },
  delays: { FADE_OUT: FADE_OUT_MS },
  guards: {
    hasEffect: ({ context }) => context.effect,
    hasAnimation: ({ context }) => context.animation,
  },
}).createMachine({
  id: 'spawn',
  context: { effect: false, animation: false },
  initial: 'loading',
  on: {
    LOAD: { target: '.loading', reenter: true, actions: 'forgetError' },
    // Whatever the spawn was doing, a view that cannot draw is an error until the next LOAD.
    RENDER_FAILED: {
      target: '.error',
      actions: [
        { type: 'rememberError', params: ({ event }) => ({ error: event.error }) },
        { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
      ],
    },
  },
  states: {
    loading: {
      on: {
        MODEL_LOADED: {
          target: 'spawning',
          actions: [
            assign({
              effect: ({ event }) => event.effect,
              animation: ({ event }) => event.animation,
            }),
            'notifyLoaded',
          ],
        },
        MODEL_FAILED: {
          target: 'error',
          actions: [
            { type: 'rememberError', params: ({ event }) => ({ error: event.error }) },
            { type: 'notifyError', params: ({ event }) => ({ error: event.error }) },
          ],
        },
      },
    },
    spawning: {
      type: 'parallel',
      onDone: 'spawned',
      states: {
        effect: {
          initial: 'starting',
          states: {
            starting: { always: [{ guard: 'hasEffect', target: 'playing' }, { target: 'done' }] },
            playing: { on: { EFFECT_ENDED: 'fading' } },
            fading: { after: { FADE_OUT: 'done' } },
            done: { type: 'final' },
          },
        },
        animation: {
          initial: 'starting',
          states: {
            starting: {
              always: [{ guard: 'hasAnimation', target: 'playing' }, { target: 'done' }],
            },
            playing: { on: { ANIMATION_ENDED: 'fading' } },
            fading: { after: { FADE_OUT: 'done' } },
            done: { type: 'final' },
          },
        },
      },
    },
    spawned: { entry: 'notifySpawnFinished' },
    error: {},
  },
});

type SpawnSnapshot = SnapshotFrom<typeof spawnMachine>;

export const selectViewerState = (snapshot: SpawnSnapshot): ViewerState =>
  (['spawning', 'spawned', 'error'] as const).find((s) => snapshot.matches(s)) ?? 'loading';

/** Why the viewer is in its error state (undefined in every other state). */
export const selectError = (snapshot: SpawnSnapshot): unknown =>
  snapshot.matches('error') ? snapshot.context.error : undefined;

function partPhase(snapshot: SpawnSnapshot, part: 'effect' | 'animation'): SpawnPartPhase {
  if (snapshot.matches({ spawning: { [part]: 'playing' } })) return 'playing';
  if (snapshot.matches({ spawning: { [part]: 'fading' } })) return 'fading';
  // Before spawning the part has not started; the view shows nothing of it either way.
  return snapshot.matches('loading') ? 'playing' : 'done';
}

export const selectEffectPhase = (snapshot: SpawnSnapshot) => partPhase(snapshot, 'effect');
export const selectAnimationPhase = (snapshot: SpawnSnapshot) => partPhase(snapshot, 'animation');

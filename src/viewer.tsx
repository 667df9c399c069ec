// The public avatar viewer: the canvas view (src/ui/canvas) driven by the spawn machine.
// It is the entry of the library build (npm run build:viewer) and of the /embed route, and is
// always loaded lazily: nothing on the app's start-up path imports it.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { inspect } from './devtools/inspect';
import {
  selectAnimationPhase,
  selectEffectPhase,
  selectError,
  selectViewerState,
  spawnMachine,
} from './machines/spawn.machine';
import { AvatarView, type AvatarViewProps } from './ui/canvas/avatar-view';
import type { AvatarViewerOptions } from './ui/canvas/viewer-options';

export { preloadAvatar } from './ui/canvas/preload';
export { NoMeshError } from './ui/canvas/no-mesh';

export type {
  AvatarViewerHandle,
  AvatarViewerOptions,
  AvatarViewerTexts,
  PreloadOptions,
  SpawnAnimationOptions,
  SpawnEffectOptions,
} from './ui/canvas/viewer-options';
// The postMessage protocol of the /embed iframe, for pages that embed it.
export type {
  EmbedEvent,
  EmbedModelSource,
  EmbedOptionChanges,
  EmbedOptions,
  EmbedRequest,
} from './embed-protocol';
export type { ViewerState } from './domain/viewer';
export type { ExponentialFogOptions, FogOptions, LinearFogOptions } from './ui/canvas/fog';
export { isValidModelSource, INVALID_MODEL_WARNING } from './ui/canvas/model-source';
export { ENVIRONMENT_PRESETS } from './ui/canvas/environments';
export { AO_MODES, QUALITIES } from './ui/canvas/quality';

export interface AvatarViewerProps extends AvatarViewerOptions {
  /** A model load started (also on every model switch). */
  onLoading?: () => void;
  /** The model is ready; the spawn sequence starts. */
  onLoaded?: () => void;
  /** Spawn effect and spawn animation are both done; fires once per loaded model. */
  onSpawnFinished?: () => void;
  /** The model could not be loaded (or the WebGL context was lost for good). */
  onError?: (error: unknown) => void;
}

/** The embeddable avatar viewer (spec §2). */
export function AvatarViewer({
  onLoading,
  onLoaded,
  onSpawnFinished,
  onError,
  ...options
}: AvatarViewerProps) {
  const callbacks = useRef({ onLoading, onLoaded, onSpawnFinished, onError });
  useEffect(() => {
    callbacks.current = { onLoading, onLoaded, onSpawnFinished, onError };
  });
  const actor = useActorRef(spawnMachine, { inspect });
  useEffect(() => {
    const subscriptions = [
      actor.on('loaded', () => callbacks.current.onLoaded?.()),
      actor.on('spawnFinished', () => callbacks.current.onSpawnFinished?.()),
      actor.on('error', ({ error }) => callbacks.current.onError?.(error)),
    ];
    return () => subscriptions.forEach((s) => s.unsubscribe());
  }, [actor]);
  const state = useSelector(actor, selectViewerState);
  const error = useSelector(actor, selectError);
  const effectPhase = useSelector(actor, selectEffectPhase);
  const animationPhase = useSelector(actor, selectAnimationPhase);

  const binding = useMemo(
    (): Omit<
      AvatarViewProps,
      keyof AvatarViewerOptions | 'state' | 'error' | 'effectPhase' | 'animationPhase'
    > => ({
      onLoadStart: () => {
        actor.send({ type: 'LOAD' });
        callbacks.current.onLoading?.();
      },
      onModelLoaded: (parts) => actor.send({ type: 'MODEL_LOADED', ...parts }),
      onModelFailed: (error) => actor.send({ type: 'MODEL_FAILED', error }),
      onRenderFailed: (error) => actor.send({ type: 'RENDER_FAILED', error }),
      onEffectEnded: () => actor.send({ type: 'EFFECT_ENDED' }),
      onAnimationEnded: () => actor.send({ type: 'ANIMATION_ENDED' }),
    }),
    [actor],
  );

  return (
    <AvatarView
      {...options}
      {...binding}
      state={state}
      error={error}
      effectPhase={effectPhase}
      animationPhase={animationPhase}
    />
  );
}

import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import type { Group } from 'three';
import type { SpawnPartPhase, ViewerState } from '../../domain/viewer';
import { AvatarModel } from './avatar-model';
import { Pose } from './pose';
import { DotLoader } from './dot-loader';
import { EnvironmentLighting } from './environment-lighting';
import { INVALID_MODEL_WARNING, isValidModelSource } from './model-source';
import { decoderOptions, environmentOf } from './preload';
import { WarmUp } from './warm-up';
import { GpuTiming, SceneFog, SceneLights } from './scene-options';
import { SpawnEffect } from './spawn-effect';
import { useLoadedAssets } from './use-loaded-assets';
import { useReducedMotion } from './use-reduced-motion';
import { useRenderRoot } from './use-render-root';
import { useViewerControls } from './use-viewer-controls';
import { ViewerCanvas } from './viewer-canvas';
import type { AvatarViewerOptions } from './viewer-options';
import { DEFAULT_TEXTS, ErrorState, FirstFrame } from './viewer-states';

const PostEffects = lazy(() => import('./post-effects'));

/** What the spawn sequencer (src/machines/spawn.machine.ts) tells the view and hears back. */
interface SpawnBinding {
  state: ViewerState;
  /** Why the viewer is in its error state. */
  error: unknown;
  effectPhase: SpawnPartPhase;
  animationPhase: SpawnPartPhase;
  onLoadStart: () => void;
  onModelLoaded: (parts: { effect: boolean; animation: boolean }) => void;
  onModelFailed: (error: unknown) => void;
  onEffectEnded: () => void;
  onAnimationEnded: () => void;
}

export interface AvatarViewProps extends AvatarViewerOptions, SpawnBinding {
  /** The picture cannot be drawn any more (the WebGL context was lost for good). */
  onRenderFailed: (error: Error) => void;
}

/** The avatar viewer's view: canvas, loading and error states, interaction. */
export function AvatarView(props: AvatarViewProps) {
  const valid = isValidModelSource(props.modelSrc);
  useEffect(() => {
    if (!valid) console.warn(INVALID_MODEL_WARNING);
  }, [valid, props.modelSrc]);
  return valid ? <ValidAvatarView {...props} /> : null;
}

function ValidAvatarView({ ref, ...props }: AvatarViewProps) {
  const { label = '3D avatar viewer' } = props;
  const texts = { ...DEFAULT_TEXTS, ...props.texts };
  const reducedMotion = useReducedMotion();
  // Retry: the same sources loaded once more (failed loads are not cached).
  const [attempt, setAttempt] = useState(0);
  const environment = environmentOf(props);
  const { state, onRenderFailed } = props;
  const { three, onCreated } = useRenderRoot(ref, onRenderFailed);
  const loaded = useLoadedAssets(
    {
      models: [props.modelSrc].flat(),
      // Reduced motion: no spawn motion at all, so those parts count as done at once.
      effect: reducedMotion ? undefined : props.spawnEffect?.src,
      effectAnimation: reducedMotion ? undefined : props.spawnEffect?.animationSrc,
      spawnAnimation: reducedMotion ? undefined : props.spawnAnimation?.src,
      idle: props.animationSrc,
    },
    decoderOptions(props),
    environment,
    attempt,
    props,
  );
  const [pose] = useState(() => new Pose());
  const avatarGroup = useRef<Group>(null);
  // Debug mode: the average GPU time per frame (ms), once measured.
  const [gpuMs, setGpuMs] = useState<number | null>(null);
  const debug = props.debug ?? false;
  const gpuTimeId = useId();
  const gpuTime = debug && gpuMs !== null ? `GPU ${gpuMs.toFixed(2)} ms` : null;
  const { root, handlers } = useViewerControls({
    three,
    pose,
    state,
    lockVertical: props.lockVertical ?? false,
    zoom: props.zoom ?? false,
  });

  const spawning = state === 'spawning' || state === 'spawned';
  const [x = 0, y = -1, z = 0] = props.position ?? [];
  const scale = props.scale ?? 1;
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio;

  return (
    <div
      ref={root}
      // An image's content is hidden from assistive technology: in the error state the
      // message and the Retry button must be reachable.
      role={state === 'error' ? 'group' : 'img'}
      aria-roledescription={state === 'error' ? undefined : 'interactive 3D avatar'}
      aria-label={label}
      aria-describedby={gpuTime ? gpuTimeId : undefined}
      aria-busy={state === 'loading'}
      data-state={state}
      tabIndex={0}
      className={props.className}
      style={{
        position: 'relative',
        width: '100%',
        height: '100%',
        // Vertical swipes scroll the page when vertical movement is locked.
        touchAction: props.lockVertical ? 'pan-y' : 'none',
        cursor: 'grab',
        ...props.style,
      }}
      {...handlers}
    >
      {state !== 'error' && (
        <ViewerCanvas
          onError={onRenderFailed}
          // Nothing is drawn while the avatar waits for its environment (see below).
          frameloop={loaded && !loaded.lit ? 'never' : 'demand'}
          dpr={[dpr / 2, 2]}
          camera={{ fov: 50, position: [0, 0, 5] }}
          gl={{ alpha: true, antialias: true, preserveDrawingBuffer: true }}
          shadows={props.shadows}
          onCreated={onCreated}
          style={{ background: 'transparent' }}
        >
          <SceneLights shadows={props.shadows} />
          <SceneFog options={props.fog} />
          {debug && <GpuTiming onGpuTime={setGpuMs} />}
          <Suspense fallback={null}>
            <EnvironmentLighting file={environment} />
          </Suspense>
          {loaded && (
            // Built as soon as the models are in, shown once the environment is too: the
            // first frame of the avatar is lit as it stays.
            <group ref={avatarGroup} position={[x, y, z]} scale={scale} visible={loaded.lit}>
              {state === 'loading' && loaded.lit && (
                <FirstFrame
                  key={loaded.key}
                  onDrawn={() =>
                    props.onModelLoaded({
                      effect: Boolean(loaded.effect),
                      animation: Boolean(loaded.spawnClip),
                    })
                  }
                />
              )}
              <AvatarModel
                models={loaded.models}
                idle={loaded.idle}
                spawnClip={loaded.spawnClip}
                spawnLoop={props.spawnAnimation?.loop ?? 1}
                animationPhase={props.animationPhase}
                onAnimationEnded={props.onAnimationEnded}
                emotion={props.emotion}
                pose={pose}
                snap={props.snap ?? false}
                float={(props.float ?? false) && !reducedMotion}
                fit={props.fit ?? false}
                placement={{ position: [x, y, z], scale }}
                shadows={props.shadows ?? false}
              />
              {loaded.effect && props.effectPhase !== 'done' && (
                <SpawnEffect
                  effect={loaded.effect}
                  clip={loaded.effectClip}
                  loop={props.spawnEffect?.loop ?? 1}
                  phase={props.effectPhase}
                  onEnded={props.onEffectEnded}
                />
              )}
            </group>
          )}
          {loaded && !loaded.lit && <WarmUp key={loaded.key} avatar={avatarGroup} />}
          {props.ao && spawning && (
            <Suspense fallback={null}>
              <PostEffects
                mode={props.ao}
                quality={props.quality}
                halfResolution={props.aoHalfResolution ?? false}
              />
            </Suspense>
          )}
        </ViewerCanvas>
      )}
      {gpuTime && (
        <output id={gpuTimeId} aria-label="GPU time per frame" aria-live="off" style={gpuTimeStyle}>
          {gpuTime}
        </output>
      )}
      {state === 'loading' && <DotLoader label={texts.loading} />}
      {state === 'error' && (
        <ErrorState texts={texts} error={props.error} onRetry={() => setAttempt((n) => n + 1)} />
      )}
    </div>
  );
}

const gpuTimeStyle = {
  position: 'absolute',
  top: 4,
  left: 4,
  padding: '2px 6px',
  borderRadius: 4,
  background: 'rgb(0 0 0 / 0.6)',
  color: '#fff',
  font: '12px monospace',
  pointerEvents: 'none',
} as const;

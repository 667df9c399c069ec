import { useFrame, type RootState } from '@react-three/fiber';
import { MathUtils, type PerspectiveCamera } from 'three';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type Ref,
} from 'react';
import type { SpawnPartPhase, ViewerState } from '../../domain/viewer';
import { AvatarModel } from './avatar-model';
import { Pose } from './pose';
import { DEFAULT_DRACO_DECODER_PATH } from './decoders';
import { DotLoader } from './dot-loader';
import { EnvironmentLighting, environmentTexture } from './environment-lighting';
import { DEFAULT_ENVIRONMENT, environmentFile } from './environments';
import type { FogOptions } from './fog';
import {
  acquireModel,
  preloadModel,
  releaseModel,
  type DecoderOptions,
  type ModelAsset,
} from './model-cache';
import { INVALID_MODEL_WARNING, isValidModelSource, type ModelSource } from './model-source';
import type { AoMode, Quality } from './quality';
import { GpuTiming, SceneFog } from './scene-options';
import { SpawnEffect } from './spawn-effect';
import { useReducedMotion } from './use-reduced-motion';
import { ViewerCanvas } from './viewer-canvas';

const PostEffects = lazy(() => import('./post-effects'));

/** Spec §9: radians of rotation per pixel dragged. */
const ROTATION_PER_PIXEL = 0.005;
/** Radians per arrow-key press. */
const ROTATION_PER_KEY = 0.1;
/** Optional zoom: how far the camera may zoom out and in (1: the default view). */
const ZOOM_RANGE = { min: 0.5, max: 4 } as const;
/** Zoom factor per pixel of wheel scroll (a 100 px notch: about 1.2 times). */
const ZOOM_PER_WHEEL_PIXEL = 0.002;
/** Zoom factor per + or - key press. */
const ZOOM_PER_KEY = 1.25;
/** Spec §9: ambient light intensity. */
const AMBIENT_INTENSITY = 0.5;
/** Spec §9: shadow map size. */
const SHADOW_MAP_SIZE = 512;
/** Spec §9: default capture format and quality (quality applies to lossy formats only). */
const CAPTURE_DEFAULTS = { type: 'image/png', quality: 0.1 } as const;
const LOSSY = new Set(['image/jpeg', 'image/webp']);
/** Without a restored WebGL context after this long, the viewer shows its error state. */
const CONTEXT_RESTORE_TIMEOUT_MS = 5000;

/** Spec §3: the spawn effect (its own clip, or one from animationSrc) played `loop` times. */
export interface SpawnEffectOptions {
  src: ModelSource;
  animationSrc?: ModelSource;
  loop?: number;
}
export interface SpawnAnimationOptions {
  src: ModelSource;
  loop?: number;
}

/** The viewer's own words: its loading and error states (defaults in English). */
export interface AvatarViewerTexts {
  /** Accessible name of the dot loader. */
  loading: string;
  /** Said when the model cannot be loaded or drawn, above the reason. */
  failed: string;
  /** The button that loads the model again. */
  retry: string;
}

const DEFAULT_TEXTS: AvatarViewerTexts = {
  loading: 'Loading avatar',
  failed: 'The avatar could not be loaded.',
  retry: 'Try again',
};
/** The longest reason shown under the error message. */
const MAX_REASON_LENGTH = 200;

export interface AvatarViewerHandle {
  /** The current picture as a data URL (default image/png; quality only for lossy types). */
  capture: (type?: string, quality?: number) => string | null;
}

/** Every option of the embeddable viewer (spec §2, §3). */
export interface AvatarViewerOptions {
  modelSrc: ModelSource | ModelSource[];
  /** Uniform scale of the avatar. */
  scale?: number;
  /** A preset name (see environments.ts) or the location of an .hdr/.exr file. */
  environment?: string;
  /** Where the avatar's feet stand; the camera looks at (0, 0, 0) from (0, 0, 5). */
  position?: [number, number, number];
  style?: CSSProperties;
  className?: string;
  shadows?: boolean;
  float?: boolean;
  fit?: boolean;
  snap?: boolean;
  lockVertical?: boolean;
  /** Morph target name → influence (0..1). */
  emotion?: Record<string, number>;
  /** An idle animation played in a loop once spawned. */
  animationSrc?: ModelSource;
  spawnEffect?: SpawnEffectOptions;
  spawnAnimation?: SpawnAnimationOptions;
  /**
   * Zoom with the mouse wheel, a two-finger pinch or the + and - keys (default off: the wheel
   * scrolls the page and the view keeps its framing).
   */
  zoom?: boolean;
  /** Ambient-occlusion display mode; no occlusion pass without it. */
  ao?: AoMode;
  quality?: Quality;
  /** Compute the ambient occlusion at half resolution (0.5 scale), for slower devices. */
  aoHalfResolution?: boolean;
  /** Folder holding draco_decoder.wasm and draco_wasm_wrapper.js. */
  dracoDecoderPath?: string;
  /**
   * Folder holding the environment presets' prefiltered `.pmrem` files (default: the app's
   * `environments/`).
   */
  environmentPath?: string;
  /** An ES module exporting MeshoptDecoder (default: three's, bundled). */
  meshoptDecoderPath?: string;
  /**
   * Fog (default none): `{ type: 'linear', color, near?, far? }` or
   * `{ type: 'exponential', color, density? }`; another type draws without fog and is logged.
   */
  fog?: FogOptions;
  /**
   * Debug mode (default off): shows the average GPU time per frame, measured with the WebGL2
   * timer-query extension; where that is unavailable, it is disabled with a console warning.
   */
  debug?: boolean;
  /** Accessible name of the viewer. */
  label?: string;
  /** The texts of the loading and error states, for localisation. */
  texts?: Partial<AvatarViewerTexts>;
  ref?: Ref<AvatarViewerHandle>;
}

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

interface Loaded {
  models: ModelAsset[];
  effect?: ModelAsset;
  effectClip?: ModelAsset['animations'][number];
  spawnClip?: ModelAsset['animations'][number];
  idle?: ModelAsset['animations'][number];
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

/** Sets the camera's zoom factor (kept in ZOOM_RANGE) and draws a frame if it changed. */
function setZoom(three: RootState | null, next: (zoom: number) => number) {
  const camera = three?.camera as PerspectiveCamera | undefined;
  if (!camera) return;
  const zoom = MathUtils.clamp(next(camera.zoom), ZOOM_RANGE.min, ZOOM_RANGE.max);
  if (zoom === camera.zoom) return;
  camera.zoom = zoom;
  camera.updateProjectionMatrix();
  three?.invalidate();
}

/** The viewer's options that say what it loads first: its model and its environment. */
export type PreloadOptions = Pick<
  AvatarViewerOptions,
  'modelSrc' | 'environment' | 'environmentPath' | 'dracoDecoderPath' | 'meshoptDecoderPath'
>;

const decoderOptions = (options: PreloadOptions): DecoderOptions => ({
  dracoDecoderPath: options.dracoDecoderPath ?? DEFAULT_DRACO_DECODER_PATH,
  meshoptDecoderPath: options.meshoptDecoderPath,
});

const environmentOf = (options: PreloadOptions) =>
  environmentFile(options.environment ?? DEFAULT_ENVIRONMENT, options.environmentPath);

/**
 * Starts loading what a viewer with these options will show, its model(s) and environment,
 * before the viewer is rendered: a page that knows its model early (/embed, from its address)
 * calls it first thing, so the download and parse run while the page itself starts up. A
 * viewer then takes them from the same caches; an invalid source is left for it to report.
 */
export function preloadAvatar(options: PreloadOptions) {
  if (!isValidModelSource(options.modelSrc)) return;
  for (const source of [options.modelSrc].flat()) preloadModel(source, decoderOptions(options));
  void environmentTexture(environmentOf(options)).catch(() => {});
}

function ValidAvatarView({ ref, ...props }: AvatarViewProps) {
  const { label = '3D avatar viewer' } = props;
  const texts = { ...DEFAULT_TEXTS, ...props.texts };
  const reducedMotion = useReducedMotion();
  // Retry: the same sources loaded once more (failed loads are not cached).
  const [attempt, setAttempt] = useState(0);
  const environment = environmentOf(props);
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
  const three = useRef<RootState | null>(null);
  // Debug mode: the average GPU time per frame (ms), once measured.
  const [gpuMs, setGpuMs] = useState<number | null>(null);
  const debug = props.debug ?? false;
  const gpuTimeId = useId();
  const gpuTime = debug && gpuMs !== null ? `GPU ${gpuMs.toFixed(2)} ms` : null;

  useImperativeHandle(ref, () => ({
    capture: (type = CAPTURE_DEFAULTS.type, quality = CAPTURE_DEFAULTS.quality) =>
      three.current?.gl.domElement.toDataURL(type, LOSSY.has(type) ? quality : undefined) ?? null,
  }));

  // A lost WebGL context that the browser restores is rebuilt by three.js itself (every
  // resource uploads again) and drawn anew; one not restored within CONTEXT_RESTORE_TIMEOUT_MS
  // is reported (onRenderFailed), which puts the viewer in its error state until the next model.
  const { state, onRenderFailed } = props;
  const restoreTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(restoreTimer.current), []);
  // The canvas' listeners outlive renders: they call the newest version of this.
  const lostForGood = useRef(() => {});
  useEffect(() => {
    lostForGood.current = () => onRenderFailed(new Error('WebGL context lost'));
  });
  const onCreated = useCallback((root: RootState) => {
    three.current = root;
    // three.js asks for every shader's compile log when it links it, which waits for the
    // compile; production builds leave the checks out (three's advice), so the first frame's
    // texture uploads go on while its shaders compile.
    root.gl.debug.checkShaderErrors = import.meta.env.DEV;
    const canvas = root.gl.domElement;
    canvas.addEventListener('webglcontextlost', (event) => {
      // Without this the browser never restores the context.
      event.preventDefault();
      // R3F drops the context of a canvas it has unmounted: nothing is lost then.
      if (!canvas.isConnected) return;
      clearTimeout(restoreTimer.current);
      restoreTimer.current = setTimeout(() => lostForGood.current(), CONTEXT_RESTORE_TIMEOUT_MS);
    });
    canvas.addEventListener('webglcontextrestored', () => {
      clearTimeout(restoreTimer.current);
      root.invalidate();
    });
  }, []);

  const turn = (yaw: number, pitch: number) => {
    pose.turn(yaw, pitch, props.lockVertical ?? false);
    three.current?.invalidate();
  };

  // Optional zoom: the camera's zoom factor, so it keeps the position `fit` gave it.
  const zoomEnabled = props.zoom ?? false;
  const zoomBy = (factor: number) => setZoom(three.current, (zoom) => zoom * factor);
  const latestZoomBy = useRef(zoomBy);
  useEffect(() => {
    latestZoomBy.current = zoomBy;
  });
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!zoomEnabled || !element) return;
    // Not React's onWheel: its listener is passive, and the page must not scroll as well.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      latestZoomBy.current(Math.exp(-event.deltaY * ZOOM_PER_WHEEL_PIXEL));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [zoomEnabled]);
  // Zoom switched off: back to the default view.
  useEffect(() => {
    if (!zoomEnabled) setZoom(three.current, () => 1);
  }, [zoomEnabled]);

  const last = useRef<{ x: number; y: number } | null>(null);
  // Pointers down on the viewer, for the two-finger pinch.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinchDistance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const pinch = useRef(0);
  const onPointerDown = (event: PointerEvent) => {
    // Nothing to turn; capturing the pointer would keep the click from the Retry button.
    if (state === 'error') return;
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (zoomEnabled && pointers.current.size === 2) {
      // A second finger: pinching zooms, and turns nothing.
      pinch.current = pinchDistance();
      last.current = null;
      return;
    }
    last.current = { x: event.clientX, y: event.clientY };
    pose.grab();
  };
  const onPointerMove = (event: PointerEvent) => {
    if (pointers.current.has(event.pointerId)) {
      pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    }
    if (zoomEnabled && pointers.current.size === 2 && pinch.current > 0) {
      const distance = pinchDistance();
      if (distance > 0) zoomBy(distance / pinch.current);
      pinch.current = distance;
      return;
    }
    if (!last.current) return;
    turn(
      (event.clientX - last.current.x) * ROTATION_PER_PIXEL,
      (event.clientY - last.current.y) * ROTATION_PER_PIXEL,
    );
    last.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent) => {
    pointers.current.delete(event.pointerId);
    pinch.current = 0;
    last.current = null;
    pose.release();
    // Starts the snap back, if any.
    three.current?.invalidate();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const zoomStep = zoomEnabled
      ? { '+': ZOOM_PER_KEY, '=': ZOOM_PER_KEY, '-': 1 / ZOOM_PER_KEY }[event.key]
      : undefined;
    if (zoomStep) {
      event.preventDefault();
      zoomBy(zoomStep);
      return;
    }
    const step = {
      ArrowLeft: [-ROTATION_PER_KEY, 0],
      ArrowRight: [ROTATION_PER_KEY, 0],
      ArrowUp: [0, -ROTATION_PER_KEY],
      ArrowDown: [0, ROTATION_PER_KEY],
    }[event.key];
    if (!step) return;
    event.preventDefault();
    turn(step[0]!, step[1]!);
  };

  const spawning = state === 'spawning' || state === 'spawned';
  const [x = 0, y = -1, z = 0] = props.position ?? [];
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
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    >
      {state !== 'error' && (
        <ViewerCanvas
          onError={onRenderFailed}
          frameloop="demand"
          dpr={[dpr / 2, 2]}
          camera={{ fov: 50, position: [0, 0, 5] }}
          gl={{ alpha: true, antialias: true, preserveDrawingBuffer: true }}
          shadows={props.shadows}
          onCreated={onCreated}
          style={{ background: 'transparent' }}
        >
          <ambientLight intensity={AMBIENT_INTENSITY} />
          <SceneFog options={props.fog} />
          {debug && <GpuTiming onGpuTime={setGpuMs} />}
          {props.shadows && (
            <directionalLight
              castShadow
              position={[2, 4, 3]}
              intensity={1}
              shadow-mapSize={[SHADOW_MAP_SIZE, SHADOW_MAP_SIZE]}
            />
          )}
          <Suspense fallback={null}>
            <EnvironmentLighting file={environment} />
          </Suspense>
          {loaded && (
            <group position={[x, y, z]} scale={props.scale ?? 1}>
              {state === 'loading' && (
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
        <ErrorState
          texts={texts}
          reason={errorReason(props.error)}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      )}
    </div>
  );
}

/**
 * Calls `onDrawn` once the frame that first draws the avatar is on screen: that frame runs
 * this callback before it renders (shader compiles, and prefiltering an .exr/.hdr environment),
 * and the next animation frame starts only after it was shown. So `loaded`, the spawn and
 * `spawnFinished` are never announced before the avatar can be seen.
 */
function FirstFrame({ onDrawn }: { onDrawn: () => void }) {
  const drawn = useRef(false);
  const latest = useRef(onDrawn);
  useEffect(() => {
    latest.current = onDrawn;
  });
  useFrame(() => {
    if (drawn.current) return;
    drawn.current = true;
    requestAnimationFrame(() => latest.current());
  });
  return null;
}

/** A short reason for the error state: the error's message, cut to MAX_REASON_LENGTH. */
function errorReason(error: unknown): string {
  const message = (
    error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  ).trim();
  return message.length > MAX_REASON_LENGTH
    ? `${message.slice(0, MAX_REASON_LENGTH - 1)}…`
    : message;
}

/** The error state: what went wrong, and a button that loads the model again. */
function ErrorState(props: { texts: AvatarViewerTexts; reason: string; onRetry: () => void }) {
  return (
    <div style={errorStyle}>
      <p role="alert" style={{ margin: 0 }}>
        {props.texts.failed}
        {props.reason && (
          <>
            <br />
            <small style={{ overflowWrap: 'anywhere' }}>{props.reason}</small>
          </>
        )}
      </p>
      <button type="button" className="avatar-viewer-retry" onClick={props.onRetry}>
        {props.texts.retry}
      </button>
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

const errorStyle = {
  position: 'absolute',
  inset: 0,
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 12,
  padding: 16,
  textAlign: 'center',
  cursor: 'auto',
} as const;

/** A stable identity for a source (Blobs by object identity) to key loads on. */
const blobIds = new WeakMap<Blob, number>();
let nextBlobId = 0;
function sourceKey(source: ModelSource | ModelSource[] | undefined): string {
  if (source === undefined) return '';
  if (Array.isArray(source)) return JSON.stringify(source.map(sourceKey));
  if (typeof source === 'string') return source;
  if (!blobIds.has(source)) blobIds.set(source, ++nextBlobId);
  return `blob:${blobIds.get(source)}`;
}

/**
 * Loads the model (and the optional effect and animations) through the model cache and
 * reports the outcome. Optional parts that fail to load are skipped with a warning; only the
 * model itself decides between spawning and the error state. The environment map is awaited
 * too (not keyed: a new one relights the avatar without a new spawn), so the first frame of
 * the avatar is lit as it will stay; a broken one leaves the ambient light (LightingBoundary).
 */
function useLoadedAssets(
  sources: {
    models: ModelSource[];
    effect?: ModelSource;
    effectAnimation?: ModelSource;
    spawnAnimation?: ModelSource;
    idle?: ModelSource;
  },
  decoders: DecoderOptions,
  environment: string,
  /** A new attempt loads the same sources again. */
  attempt: number,
  callbacks: Pick<SpawnBinding, 'onLoadStart' | 'onModelLoaded' | 'onModelFailed'>,
) {
  const [loaded, setLoaded] = useState<(Loaded & { key: string }) | null>(null);
  const key =
    JSON.stringify(Object.values(sources).map(sourceKey)) + JSON.stringify(decoders) + attempt;
  // The load effect runs per key; it reads the newest values through this ref.
  const latest = useRef({ sources, decoders, environment, callbacks });
  useEffect(() => {
    latest.current = { sources, decoders, environment, callbacks };
  });

  useEffect(() => {
    const { callbacks: current, sources: wanted, decoders: options } = latest.current;
    const lighting = environmentTexture(latest.current.environment).catch(() => undefined);
    let cancelled = false;
    const held: ModelSource[] = [];
    const take = (source: ModelSource) => {
      held.push(source);
      return acquireModel(source, options);
    };
    const optional = (source: ModelSource | undefined) =>
      source === undefined
        ? Promise.resolve(undefined)
        : take(source).catch((error: unknown) => {
            console.warn('Optional viewer asset could not be loaded', source, error);
            return undefined;
          });
    current.onLoadStart();
    void (async () => {
      try {
        const [models, effect, effectAnimation, spawnAnimation, idle] = await Promise.all([
          Promise.all(wanted.models.map(take)),
          optional(wanted.effect),
          optional(wanted.effectAnimation),
          optional(wanted.spawnAnimation),
          optional(wanted.idle),
          lighting,
        ]);
        if (cancelled) return;
        const next = {
          key,
          models,
          effect,
          effectClip: (effectAnimation ?? effect)?.animations[0],
          spawnClip: spawnAnimation?.animations[0],
          idle: idle?.animations[0],
        };
        // Announced (onModelLoaded) once a frame with the avatar has been drawn: see FirstFrame.
        setLoaded(next);
      } catch (error) {
        if (!cancelled) current.onModelFailed(error);
      }
    })();
    return () => {
      cancelled = true;
      held.forEach(releaseModel);
    };
  }, [key]);

  // Until the current sources are in, nothing of the previous model is shown.
  return loaded?.key === key ? loaded : null;
}

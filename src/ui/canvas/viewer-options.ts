// The embeddable viewer's public options (spec §2, §3): what a page hands the viewer.
import type { CSSProperties, Ref } from 'react';
import type { FogOptions } from './fog';
import type { ModelSource } from './model-source';
import type { AoMode, Quality } from './quality';

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
  /** Said instead of `failed` (and without Retry) when the model has no mesh to show. */
  noMesh: string;
}

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

/** The viewer's options that say what it loads first: its model and its environment. */
export type PreloadOptions = Pick<
  AvatarViewerOptions,
  'modelSrc' | 'environment' | 'environmentPath' | 'dracoDecoderPath' | 'meshoptDecoderPath'
>;

// The postMessage protocol of the /embed iframe: what the embedding page may post to it and
// what it posts back. Types only (the library build exports them from src/viewer.tsx); the
// route validates incoming messages with zod in src/routes/-embed/messages.ts.
import type { FogOptions } from './ui/canvas/fog';
import type { AoMode, Quality } from './ui/canvas/quality';

/**
 * One model file handed over in a message: a `.glb`/`.fbx` address, a binary glTF data URL,
 * a `Blob` (`model/gltf-binary`; untyped and `application/octet-stream` Blobs are taken as
 * binary glTF too) or the file's bytes as an `ArrayBuffer`.
 */
export type EmbedModelSource = string | Blob | ArrayBuffer;

/** The viewer options of /embed: its query parameters, also settable by message. */
export interface EmbedOptions {
  /** A preset name or the location of an .hdr/.exr file. */
  environment?: string;
  /** An idle animation played in a loop once spawned. */
  animationSrc?: EmbedModelSource;
  spawnEffect?: EmbedModelSource;
  /** The clip of the spawn effect, when it is not in the effect's own file. */
  spawnEffectAnimation?: EmbedModelSource;
  /** How many times the spawn effect plays (default 1). */
  spawnEffectLoop?: number;
  spawnAnimation?: EmbedModelSource;
  /** How many times the spawn animation plays (default 1). */
  spawnAnimationLoop?: number;
  /** Morph target name → influence (0..1). */
  emotion?: Record<string, number>;
  ao?: AoMode;
  quality?: Quality;
  /** Ambient occlusion computed at half resolution (0.5 scale). */
  aoHalfResolution?: boolean;
  scale?: number;
  fit?: boolean;
  float?: boolean;
  snap?: boolean;
  lockVertical?: boolean;
  shadows?: boolean;
  /** Wheel, pinch and +/- key zoom (default off). */
  zoom?: boolean;
  /** Fog (default none): linear (color, near, far) or exponential (color, density). */
  fog?: FogOptions;
  /** Shows the GPU time per frame where the timer-query extension is available (default off). */
  debug?: boolean;
}

/** Option changes: a value replaces the option (and wins over the address), `null` unsets it. */
export type EmbedOptionChanges = { [K in keyof EmbedOptions]?: EmbedOptions[K] | null };

/** What the embedding page may post to the /embed iframe. */
export type EmbedRequest =
  /** Show this model (or these models, combined), with optional option changes. */
  | ({ type: 'load'; modelSrc: EmbedModelSource | EmbedModelSource[] } & EmbedOptionChanges)
  /** Change options of the live viewer: no new page load, the avatar stays. */
  | ({ type: 'set' } & EmbedOptionChanges)
  /** Answered with a `capture` event (default image/png; quality applies to lossy types). */
  | { type: 'capture'; mimeType?: string; quality?: number };

/** What the /embed iframe posts to the embedding page. */
export type EmbedEvent =
  /** The iframe listens for requests now (posted once it has started). */
  | { type: 'ready' }
  /** A model started loading (also on every model switch and on Retry). */
  | { type: 'loading' }
  | { type: 'loaded' }
  /** The spawn effect and the spawn animation are both done. */
  | { type: 'spawnFinished' }
  /**
   * `cause: 'viewer'`: the model could not be loaded or drawn (the viewer shows the reason and
   * a Retry button); with `code: 'noMesh'` it loaded but has no mesh to show (an animation
   * clip: the viewer says so, without Retry). `cause: 'request'`: a posted message was not
   * understood (sent only to its sender) and changed nothing.
   */
  | { type: 'error'; message: string; cause: 'viewer' | 'request'; code?: 'noMesh' }
  /** The answer to a capture request: the picture, or null while nothing is drawn. */
  | { type: 'capture'; dataUrl: string | null };

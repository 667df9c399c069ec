/** The coarse state the viewer exposes as `data-state`. */
export type ViewerState = 'loading' | 'spawning' | 'spawned' | 'error';

/** What a view shows for one part of the spawn (effect, animation): playing, fading out, or gone. */
export type SpawnPartPhase = 'playing' | 'fading' | 'done';

/** Spec §9: each spawn effect or animation fades out over 0.5 s at its end. */
export const FADE_OUT_S = 0.5;

import { AnimationClip, VectorKeyframeTrack, type KeyframeTrack } from 'three';

/** Mixamo exports work in centimetres; the avatars are in metres. */
const MIXAMO_POSITION_SCALE = 0.01;

const MIXAMO_PREFIX = /^mixamorig:?/;

/** A bone-track name without the mixamo prefix: `mixamorig:Hips.position` → `Hips.position`. */
export function stripMixamoPrefix(trackName: string): string {
  return trackName.replace(MIXAMO_PREFIX, '');
}

/**
 * A copy of `clip` that drives Ready Player Me skeletons: track names lose the mixamo bone
 * prefix and position tracks are scaled from centimetres to metres.
 */
export function normalizeMixamoClip(clip: AnimationClip): AnimationClip {
  const tracks = clip.tracks.map((track): KeyframeTrack => {
    const name = stripMixamoPrefix(track.name);
    if (track.name.endsWith('.position') && MIXAMO_PREFIX.test(track.name)) {
      const values = Float32Array.from(track.values, (v) => v * MIXAMO_POSITION_SCALE);
      return new VectorKeyframeTrack(name, Array.from(track.times), Array.from(values));
    }
    const copy = track.clone();
    copy.name = name;
    return copy;
  });
  return new AnimationClip(clip.name, clip.duration, tracks, clip.blendMode);
}

import {
  AnimationClip,
  NumberKeyframeTrack,
  QuaternionKeyframeTrack,
  VectorKeyframeTrack,
} from 'three';
import { describe, expect, it } from 'vitest';
import { normalizeMixamoClip, stripMixamoPrefix } from './mixamo';

describe('stripMixamoPrefix', () => {
  it.each([
    ['mixamorigHips.position', 'Hips.position'],
    ['mixamorig:Spine.quaternion', 'Spine.quaternion'],
    ['Head.quaternion', 'Head.quaternion'],
    ['Wolf3D_Head.morphTargetInfluences', 'Wolf3D_Head.morphTargetInfluences'],
  ])('%s → %s', (input, expected) => expect(stripMixamoPrefix(input)).toBe(expected));
});

describe('normalizeMixamoClip', () => {
  const clip = new AnimationClip('idle', 1, [
    new VectorKeyframeTrack('mixamorigHips.position', [0, 1], [100, 200, 300, -50, 0, 50]),
    new QuaternionKeyframeTrack('mixamorig:Spine.quaternion', [0, 1], [0, 0, 0, 1, 0, 0, 0, 1]),
    new NumberKeyframeTrack('Wolf3D_Head.morphTargetInfluences[mouthOpen]', [0], [1]),
  ]);

  it('scales mixamo position tracks by 0.01 and strips the prefix from every track', () => {
    const out = normalizeMixamoClip(clip);
    expect(out.tracks.map((t) => t.name)).toEqual([
      'Hips.position',
      'Spine.quaternion',
      'Wolf3D_Head.morphTargetInfluences[mouthOpen]',
    ]);
    expect(Array.from(out.tracks[0]!.values)).toEqual([1, 2, 3, -0.5, 0, 0.5]);
    expect(Array.from(out.tracks[1]!.values)).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    expect(out.duration).toBe(1);
  });

  it('leaves the input clip untouched', () => {
    normalizeMixamoClip(clip);
    expect(clip.tracks[0]!.name).toBe('mixamorigHips.position');
    expect(clip.tracks[0]!.values[0]).toBe(100);
  });
});

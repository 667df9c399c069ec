import { describe, expect, it } from 'vitest';
import { AnimationClip, AnimationMixer, NumberKeyframeTrack, Object3D } from 'three';
import { fadeOutSpawn, playSpawn } from './spawn-animation';

/** An avatar stand-in whose x position is what the animations move; it rests at x = 0. */
function setUp() {
  const avatar = new Object3D();
  const mixer = new AnimationMixer(avatar);
  // The spawn animation walks from x = 0 to x = 2 in 1 s; the idle clip stands at x = 5.
  const spawnClip = new AnimationClip('spawn', 1, [
    new NumberKeyframeTrack('.position[x]', [0, 1], [0, 2]),
  ]);
  const idleClip = new AnimationClip('idle', 1, [
    new NumberKeyframeTrack('.position[x]', [0, 1], [5, 5]),
  ]);
  const spawn = mixer.clipAction(spawnClip);
  let ended = 0;
  mixer.addEventListener('finished', () => ended++);
  playSpawn(spawn, 1);
  return { avatar, mixer, spawn, idle: mixer.clipAction(idleClip), ended: () => ended };
}

describe('the spawn animation', () => {
  it('holds its last frame when it ends', () => {
    const { avatar, mixer, ended } = setUp();
    mixer.update(1);
    expect(ended()).toBe(1);
    expect(avatar.position.x).toBeCloseTo(2);
    mixer.update(3);
    expect(avatar.position.x).toBeCloseTo(2);
  });

  it('without an idle clip, fades out over 0.5 s from its held last frame, then holds the rest pose', () => {
    const { avatar, mixer, spawn } = setUp();
    mixer.update(1);
    const over = fadeOutSpawn(spawn, undefined, mixer.time);
    expect(over).toBeCloseTo(mixer.time + 0.5);
    mixer.update(0.25);
    // Half way: half the held last frame (2), half the rest pose (0).
    expect(avatar.position.x).toBeCloseTo(1);
    mixer.update(0.25);
    mixer.update(0.01);
    expect(avatar.position.x).toBeCloseTo(0);
    mixer.update(2);
    expect(avatar.position.x).toBeCloseTo(0);
  });

  it('with an idle clip, fades out over 0.5 s into it, from its held last frame', () => {
    const { avatar, mixer, spawn, idle } = setUp();
    mixer.update(1);
    fadeOutSpawn(spawn, idle, mixer.time);
    mixer.update(0.25);
    expect(avatar.position.x).toBeCloseTo(3.5);
    mixer.update(0.25);
    mixer.update(0.01);
    expect(avatar.position.x).toBeCloseTo(5);
  });

  it('plays `loop` times before it holds', () => {
    const { avatar, mixer, spawn, ended } = setUp();
    playSpawn(spawn.reset(), 2);
    mixer.update(1.5);
    expect(ended()).toBe(0);
    expect(avatar.position.x).toBeCloseTo(1);
    mixer.update(0.5);
    expect(ended()).toBe(1);
    expect(avatar.position.x).toBeCloseTo(2);
  });
});

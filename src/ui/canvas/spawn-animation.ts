import { LoopOnce, LoopRepeat, type AnimationAction } from 'three';
import { FADE_OUT_S } from '../../domain/viewer';

/**
 * Starts the spawn animation: `loop` plays, then it holds its last frame (clamped) until
 * fadeOutSpawn. Each call to the mixer's update moves it on.
 */
export function playSpawn(spawn: AnimationAction, loop: number) {
  spawn.setLoop(loop > 1 ? LoopRepeat : LoopOnce, loop);
  spawn.clampWhenFinished = true;
  spawn.play();
}

/**
 * Ends the spawn animation (spec §2): it keeps holding its last frame while its weight fades
 * out over FADE_OUT_S, into the idle clip when one follows, otherwise into the model's own rest
 * pose, which then holds. Answers the mixer time at which the fade is over.
 */
export function fadeOutSpawn(
  spawn: AnimationAction,
  idle: AnimationAction | undefined,
  mixerTime: number,
): number {
  if (idle) {
    idle.reset().play();
    spawn.crossFadeTo(idle, FADE_OUT_S, false);
  } else {
    spawn.fadeOut(FADE_OUT_S);
  }
  return mixerTime + FADE_OUT_S;
}

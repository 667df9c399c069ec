import { MathUtils, type Object3D } from 'three';

/** How far the avatar tilts when dragged vertically (unless vertical movement is locked). */
const MAX_PITCH = 0.35;
/** Snap-back speed (exponential damping rate per second). */
const SNAP_RATE = 8;

/** Where the user has turned the avatar; shared by the input handlers and the frame loop. */
export class Pose {
  private yaw = 0;
  private pitch = 0;
  private dragging = false;

  /** Turns by the given angles (radians); pitch is ignored when `lockVertical`. */
  turn(yaw: number, pitch: number, lockVertical: boolean) {
    this.yaw += yaw;
    if (!lockVertical) this.pitch = MathUtils.clamp(this.pitch + pitch, -MAX_PITCH, MAX_PITCH);
  }

  grab() {
    this.dragging = true;
  }

  release() {
    this.dragging = false;
  }

  /** One frame of easing back to the start angle; true while still moving. */
  snapBack(step: number): boolean {
    if (this.dragging || (this.yaw === 0 && this.pitch === 0)) return false;
    const settle = (angle: number) =>
      Math.abs(angle) < 1e-3 ? 0 : MathUtils.damp(angle, 0, SNAP_RATE, step);
    this.yaw = settle(this.yaw);
    this.pitch = settle(this.pitch);
    return true;
  }

  applyTo(object: Object3D) {
    object.rotation.x = this.pitch;
    object.rotation.y = this.yaw;
  }
}

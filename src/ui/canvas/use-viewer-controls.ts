// How the viewer is turned and zoomed: pointer drags (mouse, touch, pen), a two-finger pinch,
// the wheel and the keyboard.
import type { RootState } from '@react-three/fiber';
import { MathUtils, type PerspectiveCamera } from 'three';
import { useEffect, useRef, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import type { ViewerState } from '../../domain/viewer';
import type { Pose } from './pose';

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

/**
 * The viewer's controls: `root` goes on the viewer's element (for the wheel), `handlers` are
 * its pointer and key listeners. Dragging turns `pose`; with `zoom`, the wheel, a pinch and
 * the + and - keys zoom.
 */
export function useViewerControls(options: {
  three: RefObject<RootState | null>;
  pose: Pose;
  state: ViewerState;
  lockVertical: boolean;
  zoom: boolean;
}) {
  const { three, pose, state, lockVertical, zoom: zoomEnabled } = options;
  const turn = (yaw: number, pitch: number) => {
    pose.turn(yaw, pitch, lockVertical);
    three.current?.invalidate();
  };

  // Optional zoom: the camera's zoom factor, so it keeps the position `fit` gave it.
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
  }, [zoomEnabled, three]);

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

  return {
    root,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp,
      onPointerCancel: onPointerUp,
      onKeyDown,
    },
  };
}

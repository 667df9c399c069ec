// Scene options of the viewer that live inside its R3F root: its lights, fog, and debug mode's
// GPU timing.
import { addAfterEffect, useFrame, useThree } from '@react-three/fiber';
import { useEffect, useRef } from 'react';
import type { Scene } from 'three';
import { createFog, type FogOptions } from './fog';
import { DEBUG_UNAVAILABLE_WARNING, GpuTimer } from './gpu-timer';

/** Spec §9: ambient light intensity. */
const AMBIENT_INTENSITY = 0.5;
/** Spec §9: shadow map size. */
const SHADOW_MAP_SIZE = 512;

/** The ambient light, and with `shadows` a light that casts them. */
export function SceneLights({ shadows }: { shadows?: boolean }) {
  return (
    <>
      <ambientLight intensity={AMBIENT_INTENSITY} />
      {shadows && (
        <directionalLight
          castShadow
          position={[2, 4, 3]}
          intensity={1}
          shadow-mapSize={[SHADOW_MAP_SIZE, SHADOW_MAP_SIZE]}
        />
      )}
    </>
  );
}

/** Sets the scene's fog (three.js recompiles the materials it changes). */
function setFog(scene: Scene, fog: Scene['fog']) {
  scene.fog = fog;
}

/** How often debug mode reads the finished timer queries (ms). */
const GPU_TIME_POLL_MS = 250;

/**
 * The scene's fog; none without options. Options it cannot use (an unsupported type, invalid
 * values) leave the scene without fog and are logged once per change, never per frame.
 */
export function SceneFog({ options }: { options?: FogOptions }) {
  const scene = useThree((state) => state.scene);
  const invalidate = useThree((state) => state.invalidate);
  // Keyed by value: a new but equal object literal on every render changes nothing.
  const key = options === undefined ? '' : JSON.stringify(options);
  useEffect(() => {
    if (!key) return;
    const result = createFog(JSON.parse(key) as FogOptions);
    if ('problem' in result) {
      console.error(`Avatar viewer: drawing without fog: ${result.problem}`);
      return;
    }
    setFog(scene, result.fog);
    invalidate();
    return () => {
      setFog(scene, null);
      invalidate();
    };
  }, [key, scene, invalidate]);
  return null;
}

/**
 * Debug mode: measures the GPU time of every frame drawn (a timer query from before the first
 * frame callback to after the render) and reports the average of the latest frames to
 * `onGpuTime` (null once it stops). Without EXT_disjoint_timer_query_webgl2 it measures
 * nothing and says so once.
 */
export function GpuTiming({ onGpuTime }: { onGpuTime: (ms: number | null) => void }) {
  const gl = useThree((state) => state.gl);
  const timer = useRef<GpuTimer | null>(null);
  const report = useRef(onGpuTime);
  useEffect(() => {
    report.current = onGpuTime;
  });
  useEffect(() => {
    const current = GpuTimer.create(gl.getContext());
    if (!current) {
      console.warn(DEBUG_UNAVAILABLE_WARNING);
      return;
    }
    timer.current = current;
    // After every frame of every root: ends this root's query, if this frame began one.
    const removeAfterEffect = addAfterEffect(() => current.end());
    const poll = setInterval(() => {
      const ms = current.poll();
      if (ms !== null) report.current(ms);
    }, GPU_TIME_POLL_MS);
    return () => {
      clearInterval(poll);
      removeAfterEffect();
      current.dispose();
      timer.current = null;
      report.current(null);
    };
  }, [gl]);
  // Before every other frame callback (the lowest priority runs first; a negative one does
  // not take rendering over).
  useFrame(() => timer.current?.begin(), Number.MIN_SAFE_INTEGER);
  return null;
}

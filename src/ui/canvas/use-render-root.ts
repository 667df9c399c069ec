// The viewer's R3F root: its picture for capture, and a lost WebGL context.
import type { RootState } from '@react-three/fiber';
import { useCallback, useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { AvatarViewerHandle } from './viewer-options';

/** Spec §9: default capture format and quality (quality applies to lossy formats only). */
const CAPTURE_DEFAULTS = { type: 'image/png', quality: 0.1 } as const;
const LOSSY = new Set(['image/jpeg', 'image/webp']);
/** Without a restored WebGL context after this long, the viewer shows its error state. */
const CONTEXT_RESTORE_TIMEOUT_MS = 5000;

/**
 * Holds the viewer's R3F root (pass `onCreated` to the canvas): `ref` gets the capture handle,
 * and a context lost for good is reported to `onRenderFailed`.
 */
export function useRenderRoot(
  ref: Ref<AvatarViewerHandle> | undefined,
  onRenderFailed: (error: Error) => void,
) {
  const three = useRef<RootState | null>(null);
  useImperativeHandle(ref, () => ({
    capture: (type = CAPTURE_DEFAULTS.type, quality = CAPTURE_DEFAULTS.quality) =>
      three.current?.gl.domElement.toDataURL(type, LOSSY.has(type) ? quality : undefined) ?? null,
  }));

  // A lost WebGL context that the browser restores is rebuilt by three.js itself (every
  // resource uploads again) and drawn anew; one not restored within CONTEXT_RESTORE_TIMEOUT_MS
  // is reported (onRenderFailed), which puts the viewer in its error state until the next model.
  const restoreTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(restoreTimer.current), []);
  // The canvas' listeners outlive renders: they call the newest version of this.
  const lostForGood = useRef(() => {});
  useEffect(() => {
    lostForGood.current = () => onRenderFailed(new Error('WebGL context lost'));
  });
  const onCreated = useCallback((root: RootState) => {
    three.current = root;
    // three.js asks for every shader's compile log when it links it, which waits for the
    // compile; production builds leave the checks out (three's advice), so the first frame's
    // texture uploads go on while its shaders compile.
    root.gl.debug.checkShaderErrors = import.meta.env.DEV;
    const canvas = root.gl.domElement;
    canvas.addEventListener('webglcontextlost', (event) => {
      // Without this the browser never restores the context.
      event.preventDefault();
      // R3F drops the context of a canvas it has unmounted: nothing is lost then.
      if (!canvas.isConnected) return;
      clearTimeout(restoreTimer.current);
      restoreTimer.current = setTimeout(() => lostForGood.current(), CONTEXT_RESTORE_TIMEOUT_MS);
    });
    canvas.addEventListener('webglcontextrestored', () => {
      clearTimeout(restoreTimer.current);
      root.invalidate();
    });
  }, []);
  return { three, onCreated };
}

import { useFrame, useThree } from '@react-three/fiber';
import { N8AOPostPass } from 'n8ao';
import { EffectComposer, RenderPass } from 'postprocessing';
import { useEffect, useMemo } from 'react';
import { aoConfig, type AoMode, type Quality } from './quality';

export interface PostEffectsProps {
  mode: AoMode;
  quality?: Quality;
  /** Occlusion at half resolution (n8ao's halfRes: 0.5 scale, upsampled). */
  halfResolution?: boolean;
}

/**
 * Ambient occlusion (n8ao on a postprocessing composer). Loaded with a dynamic import after
 * the first frame, so the occlusion code never delays first paint.
 */
export default function PostEffects({ mode, quality, halfResolution = false }: PostEffectsProps) {
  const { gl, scene, camera, size, invalidate } = useThree();
  const { composer, ao, autoClear } = useMemo(() => {
    // postprocessing turns the renderer's autoClear off for its own passes: restored on
    // unmount, or R3F's frames would be drawn over the last occlusion picture.
    const autoClear = gl.autoClear;
    const composer = new EffectComposer(gl);
    composer.addPass(new RenderPass(scene, camera));
    const ao = new N8AOPostPass(scene, camera, size.width, size.height);
    composer.addPass(ao);
    return { composer, ao, autoClear };
    // The composer is rebuilt only for a new renderer, scene or camera; size is set below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [gl, scene, camera]);

  useEffect(() => {
    // Every §9 default (or the preset's values) is written, so n8ao's own defaults never
    // decide; halfRes changes size its targets again.
    Object.assign(ao.configuration, aoConfig(quality, halfResolution));
    ao.setDisplayMode(mode);
    invalidate();
  }, [ao, mode, quality, halfResolution, invalidate]);

  useEffect(() => {
    composer.setSize(size.width, size.height);
    invalidate();
  }, [composer, size, invalidate]);

  useEffect(
    () => () => {
      composer.dispose();
      gl.autoClear = autoClear;
      // Occlusion switched off: R3F draws again, but only when asked (frameloop "demand").
      invalidate();
    },
    [gl, composer, autoClear, invalidate],
  );

  // A positive priority takes over rendering from R3F: each frame goes through the composer.
  useFrame((_, delta) => composer.render(delta), 1);
  return null;
}

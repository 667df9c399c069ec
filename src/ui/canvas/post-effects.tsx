import { useFrame, useThree } from '@react-three/fiber';
import { N8AOPostPass } from 'n8ao';
import { EffectComposer, RenderPass } from 'postprocessing';
import { useEffect, useMemo } from 'react';
import { aoConfig, type AoMode, type Quality } from './quality';

/**
 * Ambient occlusion (n8ao on a postprocessing composer). Loaded with a dynamic import after
 * the first frame, so the occlusion code never delays first paint.
 */
export default function PostEffects({ mode, quality }: { mode: AoMode; quality?: Quality }) {
  const { gl, scene, camera, size, invalidate } = useThree();
  const { composer, ao } = useMemo(() => {
    const composer = new EffectComposer(gl);
    composer.addPass(new RenderPass(scene, camera));
    const ao = new N8AOPostPass(scene, camera, size.width, size.height);
    composer.addPass(ao);
    return { composer, ao };
    // The composer is rebuilt only for a new renderer, scene or camera; size is set below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [gl, scene, camera]);

  useEffect(() => {
    Object.assign(ao.configuration, aoConfig(quality));
    ao.setDisplayMode(mode);
    invalidate();
  }, [ao, mode, quality, invalidate]);

  useEffect(() => {
    composer.setSize(size.width, size.height);
    invalidate();
  }, [composer, size, invalidate]);

  useEffect(() => () => composer.dispose(), [composer]);

  // A positive priority takes over rendering from R3F: each frame goes through the composer.
  useFrame((_, delta) => composer.render(delta), 1);
  return null;
}

import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useMemo, useRef } from 'react';
import {
  AnimationMixer,
  LoopOnce,
  LoopRepeat,
  Mesh,
  type AnimationClip,
  type Material,
} from 'three';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { FADE_OUT_S, type SpawnPartPhase } from '../../domain/viewer';
import { disposeClone, type ModelAsset } from './model-cache';

const MAX_STEP_S = 0.1;

export interface SpawnEffectProps {
  effect: ModelAsset;
  clip?: AnimationClip;
  loop: number;
  phase: SpawnPartPhase;
  onEnded: () => void;
}

/** The spawn effect: plays its clip `loop` times, holds the last frame and fades out. */
export function SpawnEffect({ effect, clip, loop, phase, onEnded }: SpawnEffectProps) {
  const invalidate = useThree((s) => s.invalidate);
  // Own materials, so fading this effect never touches the cached template.
  const { object, materials } = useMemo(() => {
    const copy = cloneSkinned(effect.scene);
    const owned: Material[] = [];
    copy.traverse((o) => {
      if (!(o instanceof Mesh)) return;
      o.material = [o.material as Material | Material[]].flat().map((m) => {
        const material = m.clone();
        material.transparent = true;
        owned.push(material);
        return material;
      });
      if ((o.material as Material[]).length === 1) o.material = (o.material as Material[])[0]!;
    });
    return { object: copy, materials: owned };
  }, [effect]);
  useEffect(
    () => () => {
      materials.forEach((m) => m.dispose());
      disposeClone(object);
    },
    [materials, object],
  );

  const mixer = useMemo(() => new AnimationMixer(object), [object]);
  const ended = useRef(onEnded);
  useEffect(() => {
    ended.current = onEnded;
  }, [onEnded]);

  useEffect(() => {
    if (!clip) {
      // Nothing to play: the effect is over as soon as it is shown.
      ended.current();
      return;
    }
    const action = mixer.clipAction(clip);
    action.setLoop(loop > 1 ? LoopRepeat : LoopOnce, loop);
    action.clampWhenFinished = true;
    action.play();
    const onFinished = () => ended.current();
    mixer.addEventListener('finished', onFinished);
    invalidate();
    return () => {
      mixer.removeEventListener('finished', onFinished);
      mixer.stopAllAction();
      mixer.uncacheRoot(object);
    };
  }, [mixer, clip, loop, object, invalidate]);

  const fadeStart = useRef<number | null>(null);
  useFrame((state, delta) => {
    mixer.update(Math.min(delta, MAX_STEP_S));
    let moving = clip ? (mixer.existingAction(clip)?.isRunning() ?? false) : false;
    if (phase === 'fading') {
      fadeStart.current ??= state.clock.elapsedTime;
      const left = 1 - (state.clock.elapsedTime - fadeStart.current) / FADE_OUT_S;
      setOpacity(materials, Math.max(0, left));
      moving = left > 0;
    }
    if (moving) state.invalidate();
  });
  useEffect(() => {
    if (phase === 'fading') invalidate();
  }, [phase, invalidate]);

  return <primitive object={object} />;
}

function setOpacity(materials: Material[], opacity: number) {
  for (const material of materials) material.opacity = opacity;
}

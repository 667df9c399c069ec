import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import {
  AnimationMixer,
  Box3,
  Group,
  MathUtils,
  Mesh,
  MeshStandardMaterial,
  SkinnedMesh,
  Sphere,
  Vector3,
  type AnimationAction,
  type AnimationClip,
  type BufferGeometry,
  type PerspectiveCamera,
} from 'three';
import { clone as cloneSkinned } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { disposeClone, type ModelAsset } from './model-cache';
import type { Pose } from './pose';
import type { SpawnPartPhase } from '../../domain/viewer';
import { fadeOutSpawn, playSpawn } from './spawn-animation';

/** Spec §9: default emissive intensity of the avatar's glowing materials. */
const EMISSIVE_INTENSITY = 3.3;
/** Longest step the animations take per frame: after an idle pause, no jump to the end. */
const MAX_STEP_S = 0.1;

export interface AvatarModelProps {
  models: ModelAsset[];
  idle?: AnimationClip;
  spawnClip?: AnimationClip;
  spawnLoop: number;
  animationPhase: SpawnPartPhase;
  onAnimationEnded: () => void;
  emotion?: Record<string, number>;
  pose: Pose;
  snap: boolean;
  float: boolean;
  fit: boolean;
  /**
   * Where the avatar's parent group stands and how it scales it: `fit` frames the avatar anew
   * when they change.
   */
  placement: { position: readonly [number, number, number]; scale: number };
  shadows: boolean;
}

/** The avatar: cloned from the cached models, animated, posed by the user, framed if asked. */
export function AvatarModel(props: AvatarModelProps) {
  const { models, idle, spawnClip, spawnLoop, animationPhase, emotion, pose } = props;
  const root = useRef<Group>(null);
  const { camera, invalidate } = useThree();

  // Each viewer animates its own skeleton; geometry and materials stay shared with the cache.
  const avatar = useMemo(() => {
    const group = new Group();
    for (const { scene } of models) group.add(cloneSkinned(scene));
    group.traverse((object) => {
      if (!(object instanceof Mesh)) return;
      object.castShadow = object.receiveShadow = true;
      for (const material of [object.material].flat()) {
        if (
          material instanceof MeshStandardMaterial &&
          (material.emissiveMap || material.emissive.getHex())
        ) {
          material.emissiveIntensity = EMISSIVE_INTENSITY;
        }
      }
    });
    return group;
  }, [models]);

  const mixer = useMemo(() => new AnimationMixer(avatar), [avatar]);
  const actions = useRef<{ idle?: AnimationAction; spawn?: AnimationAction }>({});
  // The mixer time at which the spawn animation's fade-out is over (0: none under way).
  const fadeOver = useRef(0);

  useEffect(() => {
    const idleAction = idle && mixer.clipAction(idle);
    const spawnAction =
      spawnClip && animationPhase === 'playing' ? mixer.clipAction(spawnClip) : undefined;
    actions.current = { idle: idleAction, spawn: spawnAction };
    fadeOver.current = 0;
    if (spawnAction) {
      playSpawn(spawnAction, spawnLoop);
    } else {
      idleAction?.play();
    }
    const onFinished = ({ action }: { action: AnimationAction }) => {
      if (action === spawnAction) props.onAnimationEnded();
    };
    mixer.addEventListener('finished', onFinished);
    invalidate();
    return () => {
      mixer.removeEventListener('finished', onFinished);
      mixer.stopAllAction();
    };
    // The spawn animation starts once per model; later phase changes are handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mixer, idle, spawnClip, spawnLoop]);

  useEffect(() => {
    const { idle: idleAction, spawn } = actions.current;
    if (animationPhase === 'fading' && spawn) {
      fadeOver.current = fadeOutSpawn(spawn, idleAction, mixer.time);
      invalidate();
    }
  }, [animationPhase, mixer, invalidate]);

  // Emotion: every named morph target is set, index 0 included; targets no longer named go back to 0.
  const shownEmotion = useRef<Record<string, number>>({});
  useEffect(() => {
    const next = emotion ?? {};
    const names = new Set([...Object.keys(shownEmotion.current), ...Object.keys(next)]);
    avatar.traverse((object) => {
      const mesh = object as Mesh;
      if (!mesh.morphTargetDictionary || !mesh.morphTargetInfluences) return;
      for (const name of names) {
        const index = mesh.morphTargetDictionary[name];
        if (index !== undefined) mesh.morphTargetInfluences[index] = next[name] ?? 0;
      }
    });
    shownEmotion.current = next;
    invalidate();
  }, [avatar, emotion, invalidate]);

  // Fit: move the camera back until the model's bounding sphere fills the view, the narrower of
  // its two fields (a portrait canvas, a phone's, is narrower than it is tall), and again when
  // the canvas changes shape. The canvas is never 0 px high (viewer-canvas.tsx).
  const [x, y, z] = props.placement.position;
  const { scale } = props.placement;
  const aspect = useThree((state) => state.size.width / state.size.height);
  useLayoutEffect(() => {
    const perspective = camera as PerspectiveCamera;
    if (!props.fit || !root.current) {
      perspective.position.set(0, 0, 5);
      perspective.lookAt(0, 0, 0);
      invalidate();
      return;
    }
    // World matrices as a render makes them: updateMatrixWorld also gives each skinned mesh
    // the inverse of its own (its bindMatrixInverse), which updateWorldMatrix leaves as it was.
    root.current.updateWorldMatrix(true, false);
    root.current.updateMatrixWorld(true);
    // Bounds of every mesh at rest. A skinned mesh's are where its bones put its vertices: a
    // quantized skinned mesh (a delivery version, gltfpack's output) stores its vertices in
    // [-1, 1] and leaves their scale and offset to its inverse bind matrices, so its geometry's
    // own box is not where it shows.
    const box = new Box3();
    avatar.traverse((object) => {
      if (!(object instanceof Mesh)) return;
      let bounds: Box3 | null;
      if (object instanceof SkinnedMesh) {
        object.computeBoundingBox();
        bounds = object.boundingBox;
      } else {
        const geometry = object.geometry as BufferGeometry;
        if (!geometry.boundingBox) geometry.computeBoundingBox();
        bounds = geometry.boundingBox;
      }
      if (bounds) box.union(bounds.clone().applyMatrix4(object.matrixWorld));
    });
    const sphere = box.getBoundingSphere(new Sphere());
    const vertical = MathUtils.degToRad(perspective.fov / 2);
    const horizontal = Math.atan(Math.tan(vertical) * aspect);
    const distance = sphere.radius / Math.sin(Math.min(vertical, horizontal));
    perspective.position.copy(sphere.center).add(new Vector3(0, 0, distance));
    perspective.lookAt(sphere.center);
    perspective.updateProjectionMatrix();
    invalidate();
  }, [avatar, camera, props.fit, invalidate, x, y, z, scale, aspect]);

  useEffect(
    () => () => {
      mixer.uncacheRoot(avatar);
      disposeClone(avatar);
    },
    [mixer, avatar],
  );

  // Float and snap move the avatar from the next frame on: draw one, even if nothing else moves.
  useEffect(() => invalidate(), [props.float, props.snap, invalidate]);

  useFrame((state, delta) => {
    const group = root.current;
    if (!group) return;
    const step = Math.min(delta, MAX_STEP_S);
    mixer.update(step);
    // A held (paused) spawn animation that fades out still moves until the fade is over.
    let moving = isAnimating(actions.current) || mixer.time < fadeOver.current;
    if (props.snap && pose.snapBack(step)) moving = true;
    pose.applyTo(group);
    if (props.float) {
      // A gentle sway: a few centimetres up and down and a slight roll.
      const t = state.clock.elapsedTime;
      group.position.y = Math.sin(t * 1.2) * 0.04;
      group.rotation.z = Math.sin(t * 0.8) * 0.015;
      moving = true;
    } else {
      group.position.y = group.rotation.z = 0;
    }
    if (moving) state.invalidate();
  });

  return (
    <group ref={root}>
      <primitive object={avatar} />
      {props.shadows && (
        <mesh rotation-x={-Math.PI / 2} receiveShadow>
          <planeGeometry args={[6, 6]} />
          <shadowMaterial opacity={0.25} />
        </mesh>
      )}
    </group>
  );
}

function isAnimating({ idle, spawn }: { idle?: AnimationAction; spawn?: AnimationAction }) {
  return Boolean(idle?.isRunning() || spawn?.isRunning());
}

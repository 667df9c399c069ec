// Loading a viewer's model, spawn parts and idle animation, keyed by their sources.
import { useEffect, useRef, useState } from 'react';
import { environmentTexture } from './environment-lighting';
import { acquireModel, releaseModel, type DecoderOptions, type ModelAsset } from './model-cache';
import type { ModelSource } from './model-source';
import { NoMeshError, showsNoMesh } from './no-mesh';

interface Loaded {
  models: ModelAsset[];
  effect?: ModelAsset;
  effectClip?: ModelAsset['animations'][number];
  spawnClip?: ModelAsset['animations'][number];
  idle?: ModelAsset['animations'][number];
}

/** A stable identity for a source (Blobs by object identity) to key loads on. */
const blobIds = new WeakMap<Blob, number>();
let nextBlobId = 0;
function sourceKey(source: ModelSource | ModelSource[] | undefined): string {
  if (source === undefined) return '';
  if (Array.isArray(source)) return JSON.stringify(source.map(sourceKey));
  if (typeof source === 'string') return source;
  if (!blobIds.has(source)) blobIds.set(source, ++nextBlobId);
  return `blob:${blobIds.get(source)}`;
}

/**
 * Loads the model (and the optional effect and animations) through the model cache and
 * reports the outcome. Optional parts that fail to load are skipped with a warning; only the
 * model itself decides between spawning and the error state. The environment map is awaited
 * too (not keyed: a new one relights the avatar without a new spawn), so the first frame of
 * the avatar is lit as it will stay; a broken one leaves the ambient light (LightingBoundary).
 */
export function useLoadedAssets(
  sources: {
    models: ModelSource[];
    effect?: ModelSource;
    effectAnimation?: ModelSource;
    spawnAnimation?: ModelSource;
    idle?: ModelSource;
  },
  decoders: DecoderOptions,
  environment: string,
  /** A new attempt loads the same sources again. */
  attempt: number,
  callbacks: { onLoadStart: () => void; onModelFailed: (error: unknown) => void },
) {
  const [loaded, setLoaded] = useState<(Loaded & { key: string; lit: boolean }) | null>(null);
  const key =
    JSON.stringify(Object.values(sources).map(sourceKey)) + JSON.stringify(decoders) + attempt;
  // The load effect runs per key; it reads the newest values through this ref.
  const latest = useRef({ sources, decoders, environment, callbacks });
  useEffect(() => {
    latest.current = { sources, decoders, environment, callbacks };
  });

  useEffect(() => {
    const { callbacks: current, sources: wanted, decoders: options } = latest.current;
    const lighting = environmentTexture(latest.current.environment).catch(() => undefined);
    let cancelled = false;
    const held: ModelSource[] = [];
    const take = (source: ModelSource) => {
      held.push(source);
      return acquireModel(source, options);
    };
    const optional = (source: ModelSource | undefined) =>
      source === undefined
        ? Promise.resolve(undefined)
        : take(source).catch((error: unknown) => {
            console.warn('Optional viewer asset could not be loaded', source, error);
            return undefined;
          });
    current.onLoadStart();
    void (async () => {
      try {
        const [models, effect, effectAnimation, spawnAnimation, idle] = await Promise.all([
          Promise.all(wanted.models.map(take)),
          optional(wanted.effect),
          optional(wanted.effectAnimation),
          optional(wanted.spawnAnimation),
          optional(wanted.idle),
        ]);
        if (cancelled) return;
        // An animation clip given as the model would spawn an empty scene.
        if (showsNoMesh(models.map((model) => model.scene))) throw new NoMeshError();
        const next = {
          key,
          models,
          effect,
          effectClip: (effectAnimation ?? effect)?.animations[0],
          spawnClip: spawnAnimation?.animations[0],
          idle: idle?.animations[0],
        };
        // The scene is built while the environment may still be on its way, and shown (`lit`)
        // once it is in. Announced (onModelLoaded) once a frame with the avatar has been drawn:
        // see FirstFrame.
        setLoaded({ ...next, lit: false });
        await lighting;
        if (cancelled) return;
        setLoaded({ ...next, lit: true });
      } catch (error) {
        if (!cancelled) current.onModelFailed(error);
      }
    })();
    return () => {
      cancelled = true;
      held.forEach(releaseModel);
    };
  }, [key]);

  // Until the current sources are in, nothing of the previous model is shown.
  return loaded?.key === key ? loaded : null;
}

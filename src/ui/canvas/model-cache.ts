import { get as idbGet, set as idbSet } from 'idb-keyval';
import type { AnimationClip, Material, Object3D, Texture } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { dracoLoader, meshoptDecoder } from './decoders';
import { normalizeMixamoClip } from './mixamo';
import type { ModelSource } from './model-source';

/**
 * Spec §9 "model cache lifespan 100", in seconds: a parsed model nobody shows any more stays
 * ready for reuse this long (switching back and forth costs no download or parse), then it
 * leaves the cache. Its GPU copies are freed as soon as it is hidden.
 */
export const MODEL_CACHE_LIFESPAN_S = 100;

export interface DecoderOptions {
  dracoDecoderPath: string;
  meshoptDecoderPath?: string;
}

/** A parsed model file: its scene graph (a template to clone) and its animations. */
export interface ModelAsset {
  scene: Object3D;
  animations: AnimationClip[];
}

interface Entry {
  asset: Promise<ModelAsset>;
  users: number;
  expiry?: ReturnType<typeof setTimeout>;
}

const cache = new Map<ModelSource, Entry>();

/** Takes `source` from the cache (loading it on a miss); pair with `releaseModel`. */
export function acquireModel(source: ModelSource, decoders: DecoderOptions): Promise<ModelAsset> {
  let entry = cache.get(source);
  if (!entry) {
    const asset = loadModel(source, decoders);
    entry = { asset, users: 0 };
    cache.set(source, entry);
    // A failed load is not cached: the next viewer tries again.
    asset.catch(() => cache.delete(source));
  }
  clearTimeout(entry.expiry);
  entry.users++;
  return entry.asset;
}

/** Gives `source` back: when nobody shows it, its GPU resources go now and it expires later. */
export function releaseModel(source: ModelSource) {
  const entry = cache.get(source);
  if (!entry || --entry.users > 0) return;
  void entry.asset.then(
    ({ scene }) => disposeObject(scene),
    () => {},
  );
  entry.expiry = setTimeout(() => cache.delete(source), MODEL_CACHE_LIFESPAN_S * 1000);
}

/**
 * Frees every geometry, material and texture under `root` on the GPU. three uploads them
 * again if the (cached) object is shown later, so this is safe for shared templates.
 */
export function disposeObject(root: Object3D) {
  root.traverse((object) => {
    const mesh = object as Partial<{
      geometry: { dispose(): void };
      material: Material | Material[];
    }>;
    mesh.geometry?.dispose();
    for (const material of [mesh.material ?? []].flat()) disposeMaterial(material);
  });
}

export function disposeMaterial(material: Material) {
  for (const value of Object.values(material)) {
    if ((value as Texture | null)?.isTexture) (value as Texture).dispose();
  }
  material.dispose();
}

async function loadModel(source: ModelSource, decoders: DecoderOptions): Promise<ModelAsset> {
  const { bytes, keep } = await modelBytes(source);
  const asset = await parseModel(bytes, decoders);
  // Only bytes that parsed are kept: a corrupt download must not outlive a reload.
  keep();
  return asset;
}

async function parseModel(bytes: ArrayBuffer, decoders: DecoderOptions): Promise<ModelAsset> {
  const header = new TextDecoder().decode(bytes.slice(0, 4));
  if (header !== 'glTF') {
    // FBX is rare: its loader (and fflate) is a chunk of its own, fetched only when needed.
    const { FBXLoader } = await import('three/examples/jsm/loaders/FBXLoader.js');
    const group = new FBXLoader().parse(bytes, '');
    return { scene: group, animations: group.animations.map(normalizeMixamoClip) };
  }
  const loader = new GLTFLoader()
    .setDRACOLoader(dracoLoader(decoders.dracoDecoderPath))
    .setMeshoptDecoder(await meshoptDecoder(decoders.meshoptDecoderPath));
  const gltf = await loader.parseAsync(bytes, '');
  return { scene: gltf.scene, animations: gltf.animations.map(normalizeMixamoClip) };
}

const IDB_PREFIX = 'avatar-viewer:';

/**
 * The file's bytes. Downloads are kept in IndexedDB under their absolute address, so a
 * revisit loads without the network; storage failures (private mode, quota) only cost that.
 */
async function modelBytes(source: ModelSource): Promise<{ bytes: ArrayBuffer; keep: () => void }> {
  const keep = () => {};
  if (typeof source !== 'string') return { bytes: await source.arrayBuffer(), keep };
  if (source.startsWith('data:')) return { bytes: await (await fetch(source)).arrayBuffer(), keep };
  const key = IDB_PREFIX + new URL(source, document.baseURI).href;
  const stored = await idbGet<ArrayBuffer>(key).catch(() => undefined);
  if (stored) return { bytes: stored, keep };
  const response = await fetch(source);
  if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  return { bytes, keep: () => void idbSet(key, bytes).catch(() => {}) };
}

import { createStore, delMany, get, set, update, type UseStore } from 'idb-keyval';
import type { AnimationClip, Material, Object3D, SkinnedMesh, Texture } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { bytesSource, checkModelLimits } from '../../../core/files/gltf-limits';
import {
  DRACO_EXTENSION,
  dracoLoader,
  glbExtensionsUsed,
  MESHOPT_EXTENSION,
  meshoptDecoder,
} from './decoders';
import { normalizeMixamoClip } from './mixamo';
import type { ModelSource } from './model-source';
import { policyError, watchPolicyViolations } from './policy-violations';
import { isNeutralTexture, shareShaderPrograms } from './shared-programs';

/**
 * Spec §9 "model cache lifespan 100", in seconds: a parsed model nobody shows any more stays
 * ready for reuse this long (switching back and forth costs no download or parse), then it
 * leaves the cache. Its GPU copies are freed as soon as it is hidden.
 */
const MODEL_CACHE_LIFESPAN_S = 100;

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

/** The cache's entry for `source`, loading it on a miss. */
function entryOf(source: ModelSource, decoders: DecoderOptions): Entry {
  let entry = cache.get(source);
  if (!entry) {
    const asset = loadModel(source, decoders);
    entry = { asset, users: 0 };
    cache.set(source, entry);
    // A failed load is not cached: the next viewer tries again.
    asset.catch(() => cache.delete(source));
  }
  return entry;
}

/** Takes `source` from the cache (loading it on a miss); pair with `releaseModel`. */
export function acquireModel(source: ModelSource, decoders: DecoderOptions): Promise<ModelAsset> {
  const entry = entryOf(source, decoders);
  clearTimeout(entry.expiry);
  entry.users++;
  return entry.asset;
}

/**
 * Starts loading `source` before any viewer asks for it (a page that knows its model early);
 * a viewer that takes it then finds it loaded or on its way. Nobody taking it, it expires as a
 * released model does (nothing of it is on the GPU yet).
 */
export function preloadModel(source: ModelSource, decoders: DecoderOptions) {
  const entry = entryOf(source, decoders);
  if (entry.users > 0 || entry.expiry !== undefined) return;
  entry.expiry = setTimeout(() => {
    if (entry.users === 0) cache.delete(source);
  }, MODEL_CACHE_LIFESPAN_S * 1000);
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
function disposeObject(root: Object3D) {
  root.traverse((object) => {
    const mesh = object as Partial<{
      geometry: { dispose(): void };
      material: Material | Material[];
    }>;
    mesh.geometry?.dispose();
    for (const material of [mesh.material ?? []].flat()) disposeMaterial(material);
  });
}

/**
 * Frees what a `SkeletonUtils.clone` of a cached model owns itself: each skinned mesh's
 * skeleton (its bone texture). Geometry and materials are the template's, freed by
 * `releaseModel`.
 */
export function disposeClone(root: Object3D) {
  root.traverse((object) => {
    if ((object as SkinnedMesh).isSkinnedMesh) (object as SkinnedMesh).skeleton.dispose();
  });
}

function disposeMaterial(material: Material) {
  for (const value of Object.values(material)) {
    const texture = value as Texture | null;
    if (texture?.isTexture && !isNeutralTexture(texture)) texture.dispose();
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
  // A model over the limits would cost gigabytes (or the tab) to parse: refused from its JSON.
  const overLimit = await checkModelLimits(bytesSource(new Uint8Array(bytes)));
  if (overLimit) throw overLimit;
  // Decoders are fetched only for the models that declare their compression.
  const used = glbExtensionsUsed(bytes);
  const loader = new GLTFLoader();
  if (used.includes(DRACO_EXTENSION)) {
    loader.setDRACOLoader(await dracoLoader(decoders.dracoDecoderPath));
  }
  if (used.includes(MESHOPT_EXTENSION)) {
    loader.setMeshoptDecoder(await meshoptDecoder(decoders.meshoptDecoderPath));
  }
  const gltf = await loader.parseAsync(bytes, '');
  // Fewer shader programs to build before the first frame, for the same picture.
  shareShaderPrograms(gltf.scene);
  return { scene: gltf.scene, animations: gltf.animations.map(normalizeMixamoClip) };
}

/** Total bytes of downloaded model files kept in IndexedDB; the least recently used go first. */
const STORED_BYTES_LIMIT = 100 * 1024 * 1024;
/** The IndexedDB database and object store holding the downloaded files. */
const STORE_NAMES = { database: 'avatar-viewer', store: 'models' } as const;
/** Key of the size and last-use bookkeeping (model keys are absolute http(s) addresses). */
const INDEX_KEY = '#index';

/** Size and last use of every stored file, by address. */
export type StoredIndex = Record<string, { size: number; usedAt: number }>;

let store: UseStore | undefined;
/** Opened on first use only: a viewer that only shows Blobs or data URLs never touches IDB. */
const modelStore = () => (store ??= createStore(STORE_NAMES.database, STORE_NAMES.store));

/**
 * Removes the least recently used entries from `index` until the rest fit in `limit` bytes;
 * returns the removed addresses.
 */
export function evictOverLimit(index: StoredIndex, limit: number): string[] {
  let total = Object.values(index).reduce((sum, entry) => sum + entry.size, 0);
  const evicted: string[] = [];
  const oldestFirst = Object.entries(index).sort(([, a], [, b]) => a.usedAt - b.usedAt);
  for (const [url, { size }] of oldestFirst) {
    if (total <= limit) break;
    delete index[url];
    total -= size;
    evicted.push(url);
  }
  return evicted;
}

/** Keeps a download for offline revisits, within STORED_BYTES_LIMIT. */
async function storeBytes(url: string, bytes: ArrayBuffer) {
  if (bytes.byteLength > STORED_BYTES_LIMIT) return;
  await set(url, bytes, modelStore());
  await touchStored(url, bytes.byteLength);
}

/** Records a use of `url` (and its size), evicting what no longer fits. */
async function touchStored(url: string, size: number) {
  let evicted: string[] = [];
  await update<StoredIndex>(
    INDEX_KEY,
    (index = {}) => {
      const next = { ...index, [url]: { size, usedAt: Date.now() } };
      evicted = evictOverLimit(next, STORED_BYTES_LIMIT);
      return next;
    },
    modelStore(),
  );
  if (evicted.length > 0) await delMany(evicted, modelStore());
}

/** The stored copy of `url`, if any. */
async function storedBytes(url: string): Promise<ArrayBuffer | undefined> {
  const bytes = await get<ArrayBuffer>(url, modelStore());
  if (bytes) void touchStored(url, bytes.byteLength).catch(() => {});
  return bytes;
}

/**
 * The file's bytes. Addresses are fetched from the network first (a changed avatar at the
 * same address is never shown stale); a download is kept in IndexedDB under its absolute
 * address, so when the network fails (offline, host down) a revisit still loads. Blobs and
 * data URLs carry their bytes and are never stored. Storage failures (private mode, quota)
 * cost only the offline copy.
 */
async function modelBytes(source: ModelSource): Promise<{ bytes: ArrayBuffer; keep: () => void }> {
  const keep = () => {};
  if (typeof source !== 'string') return { bytes: await source.arrayBuffer(), keep };
  if (source.startsWith('data:')) return { bytes: await (await fetch(source)).arrayBuffer(), keep };
  const url = new URL(source, document.baseURI).href;
  watchPolicyViolations();
  let response: Response;
  try {
    response = await fetch(url);
  } catch (networkError) {
    const stored = await storedBytes(url).catch(() => undefined);
    if (stored) return { bytes: stored, keep };
    // "Failed to fetch" says nothing; a blocked origin is the page's policy, not the host.
    throw (await policyError(url)) ?? networkError;
  }
  if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  return { bytes, keep: () => void storeBytes(url, bytes).catch(() => {}) };
}

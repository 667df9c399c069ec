/**
 * The model work behind the morph queue (server/morph-worker.ts): fits a source model (an outfit,
 * hair, ...) onto a body model's bounding box with glTF-Transform. It is a box fit, not a
 * cage-mesh deformation: docs/api.md "Morph queue" says what it does and does not do.
 * The morph queue runs it in a worker thread (morphModelInThread).
 */
import { Logger, NodeIO, type Document, type bbox, type vec3 } from '@gltf-transform/core';
import {
  ALL_EXTENSIONS,
  EXTMeshoptCompression,
  KHRDracoMeshCompression,
} from '@gltf-transform/extensions';
import { dedup, getBounds, prune } from '@gltf-transform/functions';
import { checkGlbHeader } from '../core/files/glb';
import { bytesSource, checkModelLimits } from '../core/files/gltf-limits';
import { runInThread, ThreadLimitError, type ThreadLimits } from './threads';

/** A morph that cannot be made from its inputs; the message is shown to the user as is. */
export class MorphError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MorphError';
  }
}

/**
 * Draco and meshopt data need decoders this server does not ship. Leaving their extensions out
 * makes the reader refuse such a model with "Missing required extension" instead of failing
 * somewhere inside the decoder.
 */
const UNDECODABLE = new Set<string>([
  KHRDracoMeshCompression.EXTENSION_NAME,
  EXTMeshoptCompression.EXTENSION_NAME,
]);

/** Reads and writes GLB with every extension glTF-Transform knows, so none is dropped. */
export function createGltfIo(): NodeIO {
  return new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.ERROR))
    .registerExtensions(ALL_EXTENSIONS.filter((ext) => !UNDECODABLE.has(ext.EXTENSION_NAME)));
}

const io = createGltfIo();

/** Axis extents below this (metres) count as flat: that axis is centred, not stretched. */
const FLAT_EXTENT = 1e-6;

/** Ids written into the output's `asset.extras`, so the file says where it came from. */
export interface MorphOrigin {
  morphedFrom: string;
  body: string;
}

async function readModel(bytes: Uint8Array, role: 'source' | 'body'): Promise<Document> {
  // A model over the limits would cost gigabytes to read: refused from its JSON first.
  const file = bytesSource(bytes);
  const damage = await checkGlbHeader(file);
  if (damage) throw new MorphError(`The ${role} model is not a readable GLB: ${damage.detail}`);
  const overLimit = await checkModelLimits(file);
  if (overLimit) throw new MorphError(`The ${role} model is over a limit: it ${overLimit.reason}`);
  try {
    return await io.readBinary(bytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MorphError(`The ${role} model is not a readable GLB: ${reason}`);
  }
}

function isFinite3(box: bbox): boolean {
  return [...box.min, ...box.max].every((value) => Number.isFinite(value));
}

/** The scene a viewer shows: the default scene, else the first. */
function mainScene(document: Document) {
  const root = document.getRoot();
  return root.getDefaultScene() ?? root.listScenes()[0];
}

/** Bounds of the model's main scene, or undefined when it has no geometry. */
export function modelBounds(document: Document): bbox | undefined {
  const scene = mainScene(document);
  if (!scene) return undefined;
  const box = getBounds(scene);
  return isFinite3(box) ? box : undefined;
}

/**
 * Fits every scene of `source` onto the bounding box of `body`'s main scene: each scene's
 * content goes under one new node whose per-axis scale and translation map the scene's bounds
 * onto the body's. Then unused and duplicate data is pruned, and `asset.extras` records the
 * origin. Answers the GLB bytes; throws MorphError for inputs it cannot use.
 */
export async function morphModel(
  source: Uint8Array,
  body: Uint8Array,
  origin: MorphOrigin,
): Promise<Uint8Array<ArrayBuffer>> {
  const target = modelBounds(await readModel(body, 'body'));
  if (!target) throw new MorphError('The body model has no meshes to fit onto');
  const document = await readModel(source, 'source');

  let fitted = 0;
  for (const scene of document.getRoot().listScenes()) {
    const box = getBounds(scene);
    if (!isFinite3(box)) continue;
    const scale = [0, 1, 2].map((axis) => {
      const extent = box.max[axis]! - box.min[axis]!;
      return extent > FLAT_EXTENT ? (target.max[axis]! - target.min[axis]!) / extent : 1;
    }) as vec3;
    const translation = [0, 1, 2].map(
      (axis) =>
        (target.min[axis]! + target.max[axis]!) / 2 -
        (scale[axis]! * (box.min[axis]! + box.max[axis]!)) / 2,
    ) as vec3;
    const fit = document.createNode('MorphFit').setScale(scale).setTranslation(translation);
    for (const child of scene.listChildren()) {
      scene.removeChild(child);
      fit.addChild(child);
    }
    scene.addChild(fit);
    fitted += 1;
  }
  if (fitted === 0) throw new MorphError('The source model has no meshes to fit');

  await document.transform(prune(), dedup());
  const asset = document.getRoot().getAsset();
  const extras = typeof asset.extras === 'object' && asset.extras !== null ? asset.extras : {};
  asset.extras = { ...extras, ...origin };
  return io.writeBinary(document);
}

/** A morph's limits: far above the few hundred milliseconds a 3 MB avatar takes. */
export const MORPH_LIMITS: ThreadLimits = { timeoutMs: 60_000, heapMb: 1024 };

/**
 * morphModel in a worker thread (morph.worker.ts, server/threads.ts), so the server keeps
 * answering meanwhile; a morph that passes `limits` is stopped and fails with a MorphError.
 */
export async function morphModelInThread(
  source: Uint8Array,
  body: Uint8Array,
  origin: MorphOrigin,
  limits: ThreadLimits = MORPH_LIMITS,
): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await runInThread(
      new URL('./morph.worker.ts', import.meta.url),
      { source, body, origin },
      limits,
      (failure) =>
        failure.name === 'MorphError'
          ? new MorphError(failure.message)
          : new Error(failure.message),
    );
  } catch (error) {
    if (!(error instanceof ThreadLimitError) || error.reason === 'crash') throw error;
    throw new MorphError(
      error.reason === 'timeout'
        ? `The morph took too long (${error.message.toLowerCase()})`
        : `The morph needs too much memory (${error.message.toLowerCase()})`,
    );
  }
}

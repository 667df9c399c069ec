/**
 * The derivation of a model's delivery version (server/delivery.ts says what and why), run in
 * the worker thread of deriveInThread (server/delivery.worker.ts): sharp and meshoptimizer are
 * loaded there only.
 */
import { Logger, NodeIO, PropertyType, type Document } from '@gltf-transform/core';
import {
  ALL_EXTENSIONS,
  EXTTextureWebP,
  KHRDracoMeshCompression,
} from '@gltf-transform/extensions';
import { compressTexture, dedup, meshopt, prune, resample, weld } from '@gltf-transform/functions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import sharp from 'sharp';
import { checkGlbHeader } from '../core/files/glb';
import { bytesSource, checkModelLimits } from '../core/files/gltf-limits';
import { DeliveryError, overDeliveryCaps, type Derived } from './delivery';

/**
 * Largest texture side in the delivery version. The studio shows an avatar at most about
 * 1000 device pixels tall (the embed on a phone at 3x, the asset page at 2x); a Ready Player Me
 * avatar splits its textures per part (body, head, outfit, hair...), so even the largest part
 * covers less than half of that height: 1024 texels per side are never minified less than the
 * screen shows them, and a 2048 texture would only add bytes the mip chain throws away.
 */
export const DELIVERY_TEXTURE_SIZE = 1024;
/** WebP quality (1-100): at 90 the 512 px renders of the fixtures differ by less than 1/255. */
export const WEBP_QUALITY = 80;
/** A delivery version must be at most this fraction of the original, else the original is delivered. */
const WORTHWHILE_FRACTION = 0.9;

async function createIo(): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready]);
  return new NodeIO()
    .setLogger(new Logger(Logger.Verbosity.ERROR))
    .registerExtensions(
      // Draco needs a decoder this server does not ship: such a model is refused on reading.
      ALL_EXTENSIONS.filter((ext) => ext.EXTENSION_NAME !== KHRDracoMeshCompression.EXTENSION_NAME),
    )
    .registerDependencies({ 'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder });
}

/**
 * Re-encodes each texture as WebP no larger than DELIVERY_TEXTURE_SIZE, keeping its original
 * image when that is within the size and smaller (a JPEG saved at a low quality often is).
 */
export async function compressTextures(doc: Document, quality: number): Promise<void> {
  sharp.concurrency(1);
  sharp.cache(false);
  for (const texture of doc.getRoot().listTextures()) {
    const image = texture.getImage();
    const size = texture.getSize();
    if (!image || !size) continue;
    const mimeType = texture.getMimeType();
    await compressTexture(texture, {
      encoder: sharp,
      targetFormat: 'webp',
      resize: [DELIVERY_TEXTURE_SIZE, DELIVERY_TEXTURE_SIZE],
      quality,
    });
    const fits = Math.max(...size) <= DELIVERY_TEXTURE_SIZE;
    if (fits && image.byteLength <= texture.getImage()!.byteLength) {
      texture.setImage(image).setMimeType(mimeType);
    }
  }
  const webp = doc
    .getRoot()
    .listTextures()
    .some((t) => t.getMimeType() === 'image/webp');
  if (webp) doc.createExtension(EXTTextureWebP).setRequired(true);
}

/**
 * Removes what nothing uses, animations aside: prune drops every animation channel without a
 * target node, and a KHR_animation_pointer channel (neutral-animated-mask's moving texture)
 * targets a property, not a node.
 */
const pruneUnused = () =>
  prune({
    propertyTypes: [
      PropertyType.NODE,
      PropertyType.SKIN,
      PropertyType.MESH,
      PropertyType.CAMERA,
      PropertyType.PRIMITIVE,
      PropertyType.PRIMITIVE_TARGET,
      PropertyType.MATERIAL,
      PropertyType.TEXTURE,
      PropertyType.ACCESSOR,
      PropertyType.BUFFER,
    ],
  });

/** The delivery version of `doc`, changed in place. */
export async function deliveryTransforms(doc: Document, quality = WEBP_QUALITY): Promise<void> {
  await doc.transform(pruneUnused(), dedup(), weld(), resample());
  await compressTextures(doc, quality);
  await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'high' }), pruneUnused());
}

/**
 * Reads a GLB (meshopt-compressed ones too), after its header, declared sizes and the
 * derivation's caps are checked.
 */
export async function readDeliverable(bytes: Uint8Array): Promise<Document> {
  const file = bytesSource(bytes);
  const damage = await checkGlbHeader(file);
  if (damage) throw new DeliveryError(`The model is not a readable GLB: ${damage.detail}`);
  const overLimit = await checkModelLimits(file);
  if (overLimit) throw new DeliveryError(`The model is over a limit: it ${overLimit.reason}`);
  const overCaps = await overDeliveryCaps(file);
  if (overCaps) throw new DeliveryError(overCaps);
  const io = await createIo();
  try {
    return await io.readBinary(bytes);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The common case, said in words an uploader knows (glTF-Transform names the extension).
    if (message.includes(KHRDracoMeshCompression.EXTENSION_NAME)) {
      throw new DeliveryError(
        'The model is compressed with Draco, which this server cannot decompress to re-encode it',
      );
    }
    throw new DeliveryError(`The model could not be read: ${message}`);
  }
}

/** Writes a document as GLB with the same extensions the reader knows. */
export async function writeGlb(doc: Document): Promise<Uint8Array> {
  return (await createIo()).writeBinary(doc);
}

/** The derivation in this thread (the worker's side of deriveInThread). */
export async function deriveDelivery(bytes: Uint8Array): Promise<Derived> {
  const doc = await readDeliverable(bytes);
  await deliveryTransforms(doc);
  const derived = await writeGlb(doc);
  if (derived.byteLength > bytes.byteLength * WORTHWHILE_FRACTION) {
    return { kind: 'original', reason: notWorthwhile(derived.byteLength, bytes.byteLength) };
  }
  return { kind: 'derived', bytes: derived };
}

/**
 * Why a copy of `derived` bytes is not delivered instead of the `uploaded` ones, in the words
 * the asset page shows after "delivered as uploaded:" (byte counts mean little to an admin).
 * @internal Its test (delivery-derive.test.ts) checks the words.
 */
export function notWorthwhile(derived: number, uploaded: number): string {
  const saved = Math.floor((1 - derived / uploaded) * 100);
  return saved > 0
    ? `it is already as small as it gets (a smaller copy would save only ${saved} %)`
    : 'it is already as small as it gets';
}

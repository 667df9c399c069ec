/**
 * The delivery version of a model: the same avatar in fewer bytes, derived from the
 * uploaded .glb with glTF-Transform and served to the studio's own viewers (docs/api.md
 * "Delivery versions"). Unused data is pruned, duplicates merged, vertices welded, animations
 * resampled, geometry (morph targets and animations included) quantized and meshopt-compressed
 * (EXT_meshopt_compression: the viewer has its decoder), and textures re-encoded as WebP
 * (EXT_texture_webp) no larger than DELIVERY_TEXTURE_SIZE. Skins, morph targets and animations
 * are kept: only their encoding changes.
 *
 * Why WebP and not KTX2/Basis (measured by bench/textures.ts, docs/api.md "Delivery
 * versions"): on the fixture avatars ETC1S files are 1.8-2.4x the WebP ones at quality 80
 * (WEBP_QUALITY) and UASTC 11-14x, and the viewer would first fetch a 263 KB (gzip) transcoder;
 * on a slow connection that costs seconds before the first frame, against tens of milliseconds
 * of decoding saved. Basis would keep the textures compressed on the GPU (a quarter of the
 * memory), which matters for many avatars in one scene, not for one.
 *
 * A model is derived only within DELIVERY_CAPS, checked from its JSON and image headers before
 * it is queued (and again in the thread before it is read): what a derivation costs grows with
 * the pixels it decodes and the animation samplers it resamples, and a few KB can declare
 * plenty of both. The work then runs in a worker thread (server/threads.ts) with a time and a
 * heap limit; sharp's image memory is outside the V8 heap, so images are bounded by the caps and
 * sharp runs one image at a time without a cache.
 */
import type { ByteSource } from '../core/files/bytes';
import { checkModelLimits, GLTF_LIMITS, type ModelLimits } from '../core/files/gltf-limits';
import { runInThread, ThreadLimitError, type ThreadLimits } from './threads';

/**
 * Derivation limits. A fixture avatar takes 2-4 s on one core, and a model at DELIVERY_CAPS
 * about 15 s (7 s of samplers, 6 s of pixels, measured on the 2-core development machine); a
 * thread stopped at 30 s holds a derivation slot no longer than that.
 */
export const DELIVERY_LIMITS: ThreadLimits = { timeoutMs: 30_000, heapMb: 1024 };

/**
 * What a model may declare to be derived (stricter than the upload's GLTF_LIMITS, which bound
 * what a viewer loads): a model over them is delivered as uploaded, its reason recorded. Each is
 * at least twice the largest fixture avatar's figure.
 */
export const DELIVERY_CAPS: ModelLimits = {
  ...GLTF_LIMITS,
  /** Pixels of one image, 4096²: decoded, resized and encoded in about 3 s. Fixtures: 2048². */
  imagePixels: 4096 * 4096,
  /** Pixels of all images, 2 × 4096². Fixtures: 14,811,136 (male-emissive, 4 s in all). */
  texturePixels: 2 * 4096 * 4096,
  /** Samplers of all animations: about 1.7 ms each to resample and compress. Fixtures: 2,052. */
  animationSamplers: 4_096,
  /** Keyframes (sampler input counts). Fixtures: 81,624. */
  keyframes: 500_000,
};

/** Why the model in `file` is not derived (over DELIVERY_CAPS), or undefined when it may be. */
export async function overDeliveryCaps(file: ByteSource): Promise<string | undefined> {
  const over = await checkModelLimits(file, DELIVERY_CAPS);
  return over ? `The model is too large to make a smaller copy of: it ${over.reason}` : undefined;
}

/** A model the derivation cannot work on; the message is shown on the asset page as is. */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** What a derivation made: the delivery bytes, or why the original is delivered. */
export type Derived = { kind: 'derived'; bytes: Uint8Array } | { kind: 'original'; reason: string };

/**
 * deriveDelivery in a worker thread, on the model's bytes or on what `model` reads once a
 * thread is free (see runInThread); rejects with DeliveryError when the model cannot be worked
 * on, or when the work passes `limits` (the message says which).
 */
export async function deriveInThread(
  model: Uint8Array | (() => Promise<Uint8Array>),
  limits: ThreadLimits = DELIVERY_LIMITS,
): Promise<Derived> {
  try {
    return await runInThread<Derived>(
      new URL('./delivery.worker.ts', import.meta.url),
      model,
      limits,
      (failure) => new DeliveryError(failure.message),
    );
  } catch (error) {
    if (!(error instanceof ThreadLimitError)) throw error;
    throw new DeliveryError(
      error.reason === 'timeout'
        ? `Making a smaller copy took too long (${error.message.toLowerCase()})`
        : error.reason === 'memory'
          ? `Making a smaller copy needed too much memory (${error.message.toLowerCase()})`
          : error.message,
    );
  }
}
